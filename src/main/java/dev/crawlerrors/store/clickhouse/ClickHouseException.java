package dev.crawlerrors.store.clickhouse;

/**
 * ClickHouse answered a request with an error: its code (e.g. 60, an unknown table; 395, a
 * {@code throwIf}) and the first line of its message, without the C++ wrapping around it.
 */
final class ClickHouseException extends RuntimeException {

    /** {@code throwIf} fired: used by the commit's lease check. */
    static final int FUNCTION_THROW_IF = 395;
    static final int TABLE_ALREADY_EXISTS = 57;
    static final int DATABASE_ALREADY_EXISTS = 82;
    static final int UNKNOWN_TABLE = 60;
    static final int UNKNOWN_DATABASE = 81;
    static final int DUPLICATE_COLUMN = 44;

    private final int code;

    ClickHouseException(int code, String message) {
        super(message);
        this.code = code;
    }

    int code() {
        return code;
    }

    /** The code and message of ClickHouse's answer {@code body} ({@code Code: 60, e.displayText() = DB::Exception: ...}). */
    static ClickHouseException of(int status, String body) {
        String text = body.strip();
        int code = -1;
        if (text.startsWith("Code: ")) {
            int comma = text.indexOf(',');
            try {
                code = Integer.parseInt(text.substring(6, comma < 0 ? text.length() : comma).strip());
            } catch (NumberFormatException e) {
                // not ClickHouse's shape: the whole text is the message
            }
        }
        String message = text;
        int display = message.indexOf("e.displayText() = ");
        if (display >= 0) {
            message = message.substring(display + "e.displayText() = ".length());
        }
        int what = message.lastIndexOf(", e.what() = ");
        if (what >= 0) {
            message = message.substring(0, what);
        }
        if (message.startsWith("DB::Exception: ")) {
            message = message.substring("DB::Exception: ".length());
        }
        int nl = message.indexOf('\n');
        if (nl >= 0) {
            message = message.substring(0, nl);
        }
        if (message.isBlank()) {
            message = "HTTP " + status;
        }
        return new ClickHouseException(code, message.strip());
    }
}
