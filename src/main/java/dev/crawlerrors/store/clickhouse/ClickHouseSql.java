package dev.crawlerrors.store.clickhouse;

import java.util.Collection;

/** Values written into ClickHouse's SQL: string literals escaped, unsigned numbers as such. */
final class ClickHouseSql {

    private ClickHouseSql() {
    }

    /** {@code value} as a string literal: quotes and backslashes escaped, and every control character. */
    static String quote(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\'' -> sb.append("\\'");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case 0 -> sb.append("\\0");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\x%02X", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('\'').toString();
    }

    /** String literals, comma separated. */
    static String quoted(Collection<String> values) {
        StringBuilder sb = new StringBuilder();
        for (String value : values) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(quote(value));
        }
        return sb.toString();
    }

    /** An unsigned 64-bit number. */
    static String unsigned(long value) {
        return Long.toUnsignedString(value);
    }
}
