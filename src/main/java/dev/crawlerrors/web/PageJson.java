package dev.crawlerrors.web;

import dev.crawlerrors.report.ReportPage;
import dev.crawlerrors.report.ReportRow;
import java.util.Arrays;

/**
 * A report page as the JSON API answers it, written straight to UTF-8 bytes: the same bytes
 * Jackson writes for the {@link ReportPage} record (its fields in order, strings escaped as
 * Jackson escapes them, {@code inSitemap} left out when null), at a fraction of its cost. A page
 * not yet kept is rendered for every reader who asks it, so its rendering is most of what a page
 * from memory costs; a test holds the bytes to Jackson's.
 */
final class PageJson {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] out;
    private int size;

    private PageJson(int capacity) {
        out = new byte[capacity];
    }

    /** The page's JSON, as {@code new ObjectMapper().writeValueAsBytes(page)} writes it. */
    static byte[] of(ReportPage page) {
        PageJson json = new PageJson(512 + 640 * page.rows().size());
        json.page(page);
        return Arrays.copyOf(json.out, json.size);
    }

    private void page(ReportPage page) {
        ascii("{\"title\":");
        string(page.title());
        ascii(",\"total\":");
        number(page.total());
        ascii(",\"page\":");
        number(page.page());
        ascii(",\"pages\":");
        number(page.pages());
        ascii(",\"pageSize\":");
        number(page.pageSize());
        ascii(",\"timeZone\":");
        string(page.timeZone());
        ascii(",\"at\":");
        string(page.at());
        ascii(",\"newer\":");
        ascii(page.newer() ? "true" : "false");
        ascii(",\"rows\":");
        if (page.rows() == null) {
            ascii("null");
        } else {
            room(1);
            out[size++] = '[';
            for (int i = 0; i < page.rows().size(); i++) {
                if (i > 0) {
                    room(1);
                    out[size++] = ',';
                }
                row(page.rows().get(i));
            }
            room(1);
            out[size++] = ']';
        }
        ascii(",\"counting\":");
        ascii(page.counting() ? "true}" : "false}");
    }

    private void row(ReportRow row) {
        ascii("{\"id\":");
        number(row.id());
        ascii(",\"timestamp\":");
        string(row.timestamp());
        ascii(",\"ip\":");
        string(row.ip());
        ascii(",\"method\":");
        string(row.method());
        ascii(",\"url\":");
        string(row.url());
        ascii(",\"status\":");
        number(row.status());
        ascii(",\"durationMs\":");
        number(row.durationMs());
        ascii(",\"botType\":");
        string(row.botType());
        ascii(",\"verification\":");
        string(row.verification());
        ascii(",\"crawler\":");
        string(row.crawler());
        ascii(",\"verificationReason\":");
        string(row.verificationReason());
        ascii(",\"userAgent\":");
        string(row.userAgent());
        ascii(",\"host\":");
        string(row.host());
        if (row.inSitemap() != null) {
            ascii(",\"inSitemap\":");
            ascii(row.inSitemap() ? "true" : "false");
        }
        room(1);
        out[size++] = '}';
    }

    /** A double as Jackson writes it: {@link Double#toString}, and a quoted string when not finite. */
    private void number(Double value) {
        if (value == null) {
            ascii("null");
        } else if (Double.isFinite(value)) {
            ascii(Double.toString(value));
        } else {
            string(Double.toString(value));
        }
    }

    private void number(long value) {
        ascii(Long.toString(value));
    }

    /** Text known to be ASCII needing no escape (names, numbers, literals). */
    private void ascii(String text) {
        int n = text.length();
        room(n);
        for (int i = 0; i < n; i++) {
            out[size++] = (byte) text.charAt(i);
        }
    }

    /**
     * A JSON string as Jackson's UTF-8 writer escapes it: quote and backslash escaped, control
     * characters by their short escape or a six-character one (backslash, u, four hex digits), every
     * surrogate (paired or not) by a six-character one, the rest as UTF-8.
     */
    private void string(String text) {
        if (text == null) {
            ascii("null");
            return;
        }
        int n = text.length();
        room(2 + 6 * n); // the most a character takes is six bytes (an escape)
        byte[] b = out;
        int p = size;
        b[p++] = '"';
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    b[p++] = (byte) c;
                    continue;
                }
                b[p++] = '\\';
                switch (c) {
                    case '"', '\\' -> b[p++] = (byte) c;
                    case '\b' -> b[p++] = 'b';
                    case '\t' -> b[p++] = 't';
                    case '\n' -> b[p++] = 'n';
                    case '\f' -> b[p++] = 'f';
                    case '\r' -> b[p++] = 'r';
                    default -> p = hex(b, p, c);
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                b[p++] = '\\';
                p = hex(b, p, c);
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        b[p++] = '"';
        size = p;
    }

    /** A six-character escape of a character but its backslash, written already: u and four hex digits. */
    private static int hex(byte[] b, int p, char c) {
        b[p++] = 'u';
        b[p++] = HEX[(c >> 12) & 0xF];
        b[p++] = HEX[(c >> 8) & 0xF];
        b[p++] = HEX[(c >> 4) & 0xF];
        b[p++] = HEX[c & 0xF];
        return p;
    }

    private void room(int bytes) {
        if (size + bytes > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, size + bytes));
        }
    }
}
