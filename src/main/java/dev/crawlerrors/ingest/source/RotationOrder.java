package dev.crawlerrors.ingest.source;

import java.util.Comparator;

/**
 * Where a file stands in its rotated family, so a family is read oldest first: {@code access.log.10.gz}
 * (numbered: the highest number is the oldest, compared as numbers so 2 comes after 10), then
 * {@code access.log-20251101.gz} (dated: by date), the live {@code access.log} last.
 *
 * @param family the name with the rotation suffix and compression extension taken off
 * @param rank   numbered (0), dated (1) or live (2)
 * @param number the rotation number of a numbered file
 * @param date   the digits of a dated file's suffix (a date, a date and time, or epoch seconds)
 */
record RotationOrder(String family, int rank, long number, String date, String name) {

    private static final int NUMBERED = 0;
    private static final int DATED = 1;
    private static final int LIVE = 2;
    /** logrotate's {@code .N} has at most this many digits; eight and more are a date ({@code .20251102}) or epoch seconds (rotatelogs). */
    private static final int MAX_NUMBER_DIGITS = 7;
    private static final String[] COMPRESSION_EXTENSIONS = {".gz", ".zst", ".bz2", ".xz"};

    /** Oldest first within a family. */
    static final Comparator<RotationOrder> OLDEST_FIRST = Comparator.comparingInt(RotationOrder::rank)
            .thenComparing(Comparator.comparingLong(RotationOrder::number).reversed())
            .thenComparing(RotationOrder::date)
            .thenComparing(RotationOrder::name);

    /**
     * Places the file named {@code name} (no directory) in its family. Written out rather than as
     * regular expressions ({@code (.+)\\.(\\d{1,7})} numbered, {@code (.+?)[.\\-_](\\d{4}-?\\d{2}-?\\d{2}([-_T]?\\d{2,})*|\\d{8,})}
     * dated, which RotationOrderTest holds this to): a large directory of logs matched them twice a
     * file, which cost every run the regex engine's work and compilation.
     */
    static RotationOrder of(String name) {
        String base = withoutCompression(name);
        int dot = base.lastIndexOf('.');
        int digits = base.length() - dot - 1;
        if (dot > 0 && digits >= 1 && digits <= MAX_NUMBER_DIGITS && allDigits(base, dot + 1, base.length())) {
            return new RotationOrder(base.substring(0, dot), NUMBERED, Long.parseLong(base.substring(dot + 1)), "", name);
        }
        for (int at = 1; at < base.length() - 1; at++) {
            char c = base.charAt(at);
            if ((c == '.' || c == '-' || c == '_') && isDate(base, at + 1)) {
                // digits only: 2025-11-02 and 20251102 compare alike; same-format dates compare as text
                StringBuilder date = new StringBuilder(base.length() - at);
                for (int i = at + 1; i < base.length(); i++) {
                    if (Character.isDigit(base.charAt(i))) {
                        date.append(base.charAt(i));
                    }
                }
                return new RotationOrder(base.substring(0, at), DATED, 0, date.toString(), name);
            }
        }
        return new RotationOrder(base, LIVE, 0, "", name);
    }

    /**
     * Whether {@code s} from {@code from} to its end is a date: eight digits or more, or
     * {@code yyyy-mm-dd} (dashes optional) followed by groups of two digits or more, each after an
     * optional {@code -}, {@code _} or {@code T} (a time, or a serial).
     */
    private static boolean isDate(String s, int from) {
        int n = s.length();
        if (from < n && allDigits(s, from, n) && n - from >= 8) {
            return true;
        }
        int at = digits(s, from, 4);
        at = at < 0 ? -1 : digits(s, optional(s, at, '-'), 2);
        at = at < 0 ? -1 : digits(s, optional(s, at, '-'), 2);
        while (at >= 0 && at < n) {
            char c = s.charAt(at);
            int start = c == '-' || c == '_' || c == 'T' ? at + 1 : at;
            int end = start;
            while (end < n && Character.isDigit(s.charAt(end))) {
                end++;
            }
            at = end - start >= 2 ? end : -1;
        }
        return at == n;
    }

    /** Where {@code count} digits from {@code at} end, or -1 when they are not all there. */
    private static int digits(String s, int at, int count) {
        if (at + count > s.length() || !allDigits(s, at, at + count)) {
            return -1;
        }
        return at + count;
    }

    private static int optional(String s, int at, char c) {
        return at < s.length() && s.charAt(at) == c ? at + 1 : at;
    }

    private static boolean allDigits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return from < to;
    }

    private static String withoutCompression(String name) {
        // compared in place, without a lower-case copy of each of a directory's 50,000 names
        for (String extension : COMPRESSION_EXTENSIONS) {
            if (name.length() > extension.length()
                    && name.regionMatches(true, name.length() - extension.length(), extension, 0, extension.length())) {
                return name.substring(0, name.length() - extension.length());
            }
        }
        return name;
    }
}
