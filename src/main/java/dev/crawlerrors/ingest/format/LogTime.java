package dev.crawlerrors.ingest.format;

/**
 * The times access logs write, read from bytes into epoch milliseconds without building a string:
 * the common-log time ({@code 14/May/2025:09:31:02 +0200}), ISO 8601 ({@code 2025-05-14T09:31:02+02:00}),
 * epoch seconds with an optional fraction ({@code 1747207862.123}), and W3C's separate UTC date and
 * time. Each method returns {@link #INVALID} for a value that is not such a time, so the caller can
 * name its own field in the message, and for a time outside the years 1 to 9999 ({@link #inRange}).
 */
final class LogTime {

    /** Returned for a value that is not a time of the kind asked for. */
    static final long INVALID = Long.MIN_VALUE;

    /** The common-log time is always 26 bytes: {@code dd/MMM/yyyy:HH:mm:ss +hhmm}. */
    static final int CLF_LENGTH = 26;

    static final String CLF_PATTERN = "dd/MMM/yyyy:HH:mm:ss Z";
    static final String ISO_PATTERN = "yyyy-MM-ddTHH:mm:ss+hh:mm";

    private static final long MILLIS_PER_DAY = 86_400_000L;
    /**
     * The first and last millisecond a line's time may be: the years 1 to 9999 (UTC), which a
     * four-digit year writes. A number beyond them is no time a server wrote ({@code 1e300} as a
     * JSON log's epoch seconds) and, converted anyway, overflowed the store's microseconds into
     * 1969-12-31; year 0 and a zone offset that pushes 9999-12-31 past the year are refused too.
     */
    static final long FIRST_MILLIS = daysFromCivil(1, 1, 1) * MILLIS_PER_DAY;
    static final long LAST_MILLIS = daysFromCivil(10_000, 1, 1) * MILLIS_PER_DAY - 1;
    /** Epoch values above these are milliseconds, microseconds or nanoseconds rather than seconds (year 5138 in seconds). */
    private static final double EPOCH_MILLIS_ABOVE = 1e11;
    private static final double EPOCH_MICROS_ABOVE = 1e14;
    private static final double EPOCH_NANOS_ABOVE = 1e17;

    private LogTime() {
    }

    /** Epoch millis of the common-log time {@code dd/MMM/yyyy:HH:mm:ss +hhmm} in {@code b[p, p + 26)}. */
    static long clf(byte[] b, int p, int to) {
        if (to - p < CLF_LENGTH) {
            return INVALID;
        }
        int day = twoDigits(b, p);
        int month = month(b[p + 3], b[p + 4], b[p + 5]);
        int century = twoDigits(b, p + 7);
        int yearOfCentury = twoDigits(b, p + 9);
        int year = century < 0 || yearOfCentury < 0 ? -1 : century * 100 + yearOfCentury;
        int hour = twoDigits(b, p + 12);
        int minute = twoDigits(b, p + 15);
        int second = twoDigits(b, p + 18);
        byte sign = b[p + 21];
        int offHours = twoDigits(b, p + 22);
        int offMinutes = twoDigits(b, p + 24);
        if (day < 1 || month < 1 || year < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 60 || offHours < 0 || offHours > 18 || offMinutes < 0 || offMinutes > 59
                || (sign != '+' && sign != '-') || b[p + 2] != '/' || b[p + 6] != '/' || b[p + 11] != ':'
                || b[p + 14] != ':' || b[p + 17] != ':' || b[p + 20] != ' ' || day > daysInMonth(year, month)) {
            return INVALID;
        }
        long local = daysFromCivil(year, month, day) * MILLIS_PER_DAY + secondOfDay(hour, minute, second) * 1000L;
        long offset = (offHours * 60L + offMinutes) * 60_000L;
        return inRange(sign == '+' ? local - offset : local + offset);
    }

    /** The UTC offset in minutes of a common-log time already accepted by {@link #clf}. */
    static int clfOffsetMinutes(byte[] b, int p) {
        int minutes = twoDigits(b, p + 22) * 60 + twoDigits(b, p + 24);
        return b[p + 21] == '-' ? -minutes : minutes;
    }

    /**
     * Epoch millis of an ISO 8601 date-time in {@code b[from, to)}: {@code yyyy-MM-ddTHH:mm:ss}
     * (or a space for the T), an optional fraction, and {@code Z}, {@code +hh:mm}, {@code +hhmm},
     * {@code +hh} or nothing (UTC).
     */
    static long iso8601(byte[] b, int from, int to) {
        if (to - from < 19) {
            return INVALID;
        }
        long local = localDateTime(b, from, from + 19);
        if (local == INVALID) {
            return INVALID;
        }
        int p = from + 19;
        long fractionMillis = 0;
        if (p < to && (b[p] == '.' || b[p] == ',')) {
            p++;
            int start = p;
            int scale = 100;
            while (p < to && isDigit(b[p])) {
                fractionMillis += (b[p] - '0') * scale;
                scale /= 10;
                p++;
            }
            if (p == start) {
                return INVALID;
            }
        }
        int offset = zoneMinutes(b, p, to);
        if (offset == Integer.MIN_VALUE) {
            return INVALID;
        }
        return inRange(local + fractionMillis - offset * 60_000L);
    }

    /** The UTC offset in minutes of an ISO 8601 date-time already accepted by {@link #iso8601}. */
    static int iso8601OffsetMinutes(byte[] b, int from, int to) {
        int p = from + 19;
        if (p < to && (b[p] == '.' || b[p] == ',')) {
            p++;
            while (p < to && isDigit(b[p])) {
                p++;
            }
        }
        return zoneMinutes(b, p, to);
    }

    /**
     * Epoch millis of W3C's {@code yyyy-MM-dd} date in {@code b[dateFrom, dateTo)} and
     * {@code HH:mm:ss} time (optionally with a fraction) in {@code b[timeFrom, timeTo)}, both UTC.
     */
    static long w3c(byte[] b, int dateFrom, int dateTo, int timeFrom, int timeTo) {
        return w3c(b, dateFrom, dateTo, b, timeFrom, timeTo);
    }

    /** As {@link #w3c(byte[], int, int, int, int)}, with the date from another array (W3C's {@code #Date:} directive). */
    static long w3c(byte[] d, int dateFrom, int dateTo, byte[] b, int timeFrom, int timeTo) {
        if (dateTo - dateFrom != 10 || timeTo - timeFrom < 8) {
            return INVALID;
        }
        int year = fourDigits(d, dateFrom);
        int month = twoDigits(d, dateFrom + 5);
        int day = twoDigits(d, dateFrom + 8);
        if (year < 0 || month < 1 || month > 12 || day < 1 || d[dateFrom + 4] != '-' || d[dateFrom + 7] != '-'
                || day > daysInMonth(year, month)) {
            return INVALID;
        }
        long time = timeOfDay(b, timeFrom);
        if (time == INVALID) {
            return INVALID;
        }
        int p = timeFrom + 8;
        long fractionMillis = 0;
        if (p < timeTo) {
            if (b[p] != '.') {
                return INVALID;
            }
            int scale = 100;
            for (p++; p < timeTo; p++) {
                if (!isDigit(b[p])) {
                    return INVALID;
                }
                fractionMillis += (b[p] - '0') * scale;
                scale /= 10;
            }
        }
        return inRange(daysFromCivil(year, month, day) * MILLIS_PER_DAY + time + fractionMillis);
    }

    /**
     * Epoch millis of a decimal epoch time in {@code b[from, to)}, in units of {@code unitMillis}
     * (1000 for seconds, 1 for milliseconds, 0.001 for microseconds); a fraction is allowed.
     */
    static long epoch(byte[] b, int from, int to, double unitMillis) {
        double value = decimal(b, from, to);
        if (Double.isNaN(value)) {
            return INVALID;
        }
        return inRange(Math.round(value * unitMillis));
    }

    /**
     * Epoch millis of a number whose unit is told by its size, as JSON logs write them: seconds
     * (Caddy's {@code ts}), milliseconds, microseconds or nanoseconds.
     */
    static long epochOfAnyUnit(double value) {
        if (Double.isNaN(value) || value < 0) {
            return INVALID;
        }
        if (value > EPOCH_NANOS_ABOVE) {
            return inRange(Math.round(value / 1e6));
        }
        if (value > EPOCH_MICROS_ABOVE) {
            return inRange(Math.round(value / 1e3));
        }
        if (value > EPOCH_MILLIS_ABOVE) {
            return inRange(Math.round(value));
        }
        return inRange(Math.round(value * 1000));
    }

    /**
     * {@code millis} when it is within the years 1 to 9999, else {@link #INVALID}. Math.round
     * saturates, so a number too large for a long comes here as Long.MAX_VALUE and is refused.
     */
    static long inRange(long millis) {
        return millis < FIRST_MILLIS || millis > LAST_MILLIS ? INVALID : millis;
    }

    /** A non-negative decimal number such as {@code 0.012} or {@code 153}; NaN when it is not one. */
    static double decimal(byte[] b, int from, int to) {
        return decimal(b, from, to, 1.0);
    }

    /**
     * A non-negative decimal number times {@code factor}, computed as whole and fraction apart so
     * that {@code 0.012} seconds is exactly 12.0 milliseconds; NaN when it is not a number.
     */
    static double decimal(byte[] b, int from, int to, double factor) {
        if (from >= to || to - from > 24) {
            return Double.NaN;
        }
        long whole = 0;
        long fraction = 0;
        long scale = 1;
        boolean point = false;
        int digits = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '.' && !point) {
                point = true;
            } else if (c >= '0' && c <= '9') {
                if (++digits > 18) {
                    return Double.NaN;
                }
                if (point) {
                    fraction = fraction * 10 + (c - '0');
                    scale *= 10;
                } else {
                    whole = whole * 10 + (c - '0');
                }
            } else {
                return Double.NaN;
            }
        }
        if (digits == 0) {
            return Double.NaN;
        }
        return point ? whole * factor + fraction * factor / scale : whole * factor;
    }

    private static long localDateTime(byte[] b, int p, int end) {
        int year = fourDigits(b, p);
        int month = twoDigits(b, p + 5);
        int day = twoDigits(b, p + 8);
        if (year < 0 || month < 1 || month > 12 || day < 1 || b[p + 4] != '-' || b[p + 7] != '-'
                || (b[p + 10] != 'T' && b[p + 10] != ' ') || day > daysInMonth(year, month)) {
            return INVALID;
        }
        long time = timeOfDay(b, p + 11);
        return time == INVALID ? INVALID : daysFromCivil(year, month, day) * MILLIS_PER_DAY + time;
    }

    /** Millis of {@code HH:mm:ss} at {@code p}. */
    private static long timeOfDay(byte[] b, int p) {
        int hour = twoDigits(b, p);
        int minute = twoDigits(b, p + 3);
        int second = twoDigits(b, p + 6);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60
                || b[p + 2] != ':' || b[p + 5] != ':') {
            return INVALID;
        }
        return secondOfDay(hour, minute, second) * 1000L;
    }

    /** Minutes east of UTC of {@code Z}, {@code +hh:mm}, {@code +hhmm}, {@code +hh} or nothing; MIN_VALUE when none of them. */
    private static int zoneMinutes(byte[] b, int p, int to) {
        if (p == to) {
            return 0;
        }
        if (b[p] == 'Z' || b[p] == 'z') {
            return p + 1 == to ? 0 : Integer.MIN_VALUE;
        }
        if (b[p] != '+' && b[p] != '-') {
            return Integer.MIN_VALUE;
        }
        int length = to - p;
        int hours = length >= 3 ? twoDigits(b, p + 1) : -1;
        int minutes;
        if (length == 3) {
            minutes = 0;
        } else if (length == 5) {
            minutes = twoDigits(b, p + 3);
        } else if (length == 6 && b[p + 3] == ':') {
            minutes = twoDigits(b, p + 4);
        } else {
            return Integer.MIN_VALUE;
        }
        if (hours < 0 || hours > 18 || minutes < 0 || minutes > 59) {
            return Integer.MIN_VALUE;
        }
        int total = hours * 60 + minutes;
        return b[p] == '-' ? -total : total;
    }

    private static long secondOfDay(int hour, int minute, int second) {
        // a leap second (:60) is read as :59 rather than rolling into the next minute
        return hour * 3600L + minute * 60L + Math.min(second, 59);
    }

    /** Two ASCII digits as a number, or -1. */
    static int twoDigits(byte[] b, int p) {
        int hi = b[p] - '0';
        int lo = b[p + 1] - '0';
        return (hi < 0 || hi > 9 || lo < 0 || lo > 9) ? -1 : hi * 10 + lo;
    }

    private static int fourDigits(byte[] b, int p) {
        int hi = twoDigits(b, p);
        int lo = twoDigits(b, p + 2);
        return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
    }

    private static int month(byte a, byte b, byte c) {
        // case as the servers write it: Jan Feb ... Dec
        return switch ((a << 16) | (b << 8) | c) {
            case ('J' << 16) | ('a' << 8) | 'n' -> 1;
            case ('F' << 16) | ('e' << 8) | 'b' -> 2;
            case ('M' << 16) | ('a' << 8) | 'r' -> 3;
            case ('A' << 16) | ('p' << 8) | 'r' -> 4;
            case ('M' << 16) | ('a' << 8) | 'y' -> 5;
            case ('J' << 16) | ('u' << 8) | 'n' -> 6;
            case ('J' << 16) | ('u' << 8) | 'l' -> 7;
            case ('A' << 16) | ('u' << 8) | 'g' -> 8;
            case ('S' << 16) | ('e' << 8) | 'p' -> 9;
            case ('O' << 16) | ('c' << 8) | 't' -> 10;
            case ('N' << 16) | ('o' << 8) | 'v' -> 11;
            case ('D' << 16) | ('e' << 8) | 'c' -> 12;
            default -> -1;
        };
    }

    private static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    static long daysFromCivil(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yoe = y - era * 400;
        int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097L + doe - 719_468L;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
