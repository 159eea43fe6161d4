package dev.crawlerrors.store.clickhouse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * ClickHouse's TabSeparated format, both ways: rows written into a growing byte array for an
 * INSERT's body, and a result read back field by field. A field escapes backslash, tab, newline,
 * carriage return, NUL, backspace and form feed with a backslash; {@code \N} alone is NULL.
 * ClickHouse also writes a single quote as {@code \'}, which the reader takes back. Strings go as
 * UTF-8: they come from Java strings, so they are valid UTF-8 both ways.
 */
final class ClickHouseTsv {

    private ClickHouseTsv() {
    }

    /** Rows for an INSERT: fields separated by {@link #tab()}, rows ended by {@link #endRow()}. */
    static final class Writer {

        private byte[] bytes;
        private int size;
        private int rows;

        Writer(int capacity) {
            bytes = new byte[Math.max(capacity, 64)];
        }

        Writer field(long value) {
            ensure(20);
            if (value == Long.MIN_VALUE) {
                return ascii(Long.toString(value));
            }
            if (value < 0) {
                bytes[size++] = '-';
                value = -value;
            }
            int start = size;
            do {
                bytes[size++] = (byte) ('0' + value % 10);
                value /= 10;
            } while (value != 0);
            reverse(start, size - 1);
            return this;
        }

        /** An unsigned 64-bit number (a writer's id may use the top bit). */
        Writer unsigned(long value) {
            return value >= 0 ? field(value) : ascii(Long.toUnsignedString(value));
        }

        Writer field(double value) {
            return ascii(Double.toString(value)); // 1.0E-7: ClickHouse reads the exponent
        }

        Writer field(String value) {
            if (value == null) {
                return nul();
            }
            int n = value.length();
            ensure(n);
            int i = 0;
            // the common case: ASCII without a character to escape, copied as it is
            for (; i < n; i++) {
                char c = value.charAt(i);
                if (c >= 0x80 || c < 0x20 || c == '\\') {
                    break;
                }
                bytes[size++] = (byte) c;
            }
            if (i < n) {
                escaped(value.substring(i).getBytes(StandardCharsets.UTF_8));
            }
            return this;
        }

        Writer nul() {
            ensure(2);
            bytes[size++] = '\\';
            bytes[size++] = 'N';
            return this;
        }

        Writer tab() {
            ensure(1);
            bytes[size++] = '\t';
            return this;
        }

        Writer endRow() {
            ensure(1);
            bytes[size++] = '\n';
            rows++;
            return this;
        }

        int rows() {
            return rows;
        }

        int size() {
            return size;
        }

        byte[] bytes() {
            return bytes;
        }

        private Writer ascii(String s) {
            ensure(s.length());
            for (int i = 0; i < s.length(); i++) {
                bytes[size++] = (byte) s.charAt(i);
            }
            return this;
        }

        private void escaped(byte[] utf8) {
            ensure(utf8.length * 2);
            for (byte b : utf8) {
                byte escape = switch (b) {
                    case '\\' -> '\\';
                    case '\t' -> 't';
                    case '\n' -> 'n';
                    case '\r' -> 'r';
                    case 0 -> '0';
                    case '\b' -> 'b';
                    case '\f' -> 'f';
                    default -> -1;
                };
                if (escape < 0) {
                    bytes[size++] = b;
                } else {
                    bytes[size++] = '\\';
                    bytes[size++] = escape;
                }
            }
        }

        private void reverse(int from, int to) {
            while (from < to) {
                byte t = bytes[from];
                bytes[from++] = bytes[to];
                bytes[to--] = t;
            }
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }

    /** A TabSeparated result, read a row and a field at a time. */
    static final class Reader {

        private final byte[] bytes;
        private final int end;
        private int at;
        /** Where the field being read starts and ends, and whether it holds an escape. */
        private int fieldStart;
        private int fieldEnd;
        private boolean fieldEscaped;
        private boolean rowEnded = true;

        Reader(byte[] bytes) {
            this(bytes, bytes.length);
        }

        /** The rows of {@code bytes[0, end)}, whole rows each ended by a newline. */
        Reader(byte[] bytes, int end) {
            this.bytes = bytes;
            this.end = end;
        }

        /** Moves to the next row; false at the end. */
        boolean nextRow() {
            if (!rowEnded) {
                while (at < end && bytes[at] != '\n') {
                    at++;
                }
                at++;
            }
            rowEnded = false;
            return at < end;
        }

        /** The next field as text, or null for {@code \N}. */
        String text() {
            next();
            if (fieldEnd - fieldStart == 2 && bytes[fieldStart] == '\\' && bytes[fieldStart + 1] == 'N') {
                return null;
            }
            if (!fieldEscaped) {
                return new String(bytes, fieldStart, fieldEnd - fieldStart, StandardCharsets.UTF_8);
            }
            byte[] out = new byte[fieldEnd - fieldStart];
            int n = 0;
            for (int i = fieldStart; i < fieldEnd; i++) {
                byte b = bytes[i];
                if (b == '\\' && i + 1 < fieldEnd) {
                    byte e = bytes[++i];
                    b = switch (e) {
                        case 't' -> '\t';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case '0' -> 0;
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        default -> e; // \\ \' and any other escaped character stand for themselves
                    };
                }
                out[n++] = b;
            }
            return new String(out, 0, n, StandardCharsets.UTF_8);
        }

        long number() {
            next();
            long value = 0;
            boolean negative = false;
            for (int i = fieldStart; i < fieldEnd; i++) {
                byte b = bytes[i];
                if (b == '-') {
                    negative = true;
                } else if (b >= '0' && b <= '9') {
                    value = value * 10 + (b - '0');
                } else {
                    throw new IllegalStateException("not a number: " + new String(bytes, fieldStart, fieldEnd - fieldStart,
                            StandardCharsets.UTF_8));
                }
            }
            return negative ? -value : value;
        }

        /** An unsigned 64-bit number. */
        long unsigned() {
            next();
            return Long.parseUnsignedLong(new String(bytes, fieldStart, fieldEnd - fieldStart, StandardCharsets.US_ASCII));
        }

        /** A floating-point number, or null for {@code \N}. */
        Double decimal() {
            String s = text();
            return s == null ? null : switch (s) {
                case "inf", "+inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                case "nan", "-nan" -> Double.NaN;
                default -> Double.parseDouble(s);
            };
        }

        private void next() {
            if (rowEnded) {
                throw new IllegalStateException("the row has no more fields");
            }
            fieldStart = at;
            fieldEscaped = false;
            while (at < end) {
                byte b = bytes[at];
                if (b == '\t') {
                    fieldEnd = at++;
                    return;
                }
                if (b == '\n') {
                    fieldEnd = at++;
                    rowEnded = true;
                    return;
                }
                if (b == '\\') {
                    fieldEscaped = true;
                    at++;
                }
                at++;
            }
            fieldEnd = end;
            rowEnded = true;
        }
    }
}
