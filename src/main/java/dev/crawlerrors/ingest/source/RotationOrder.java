package dev.crawlerrors.ingest.source;

import java.util.Comparator;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    /** logrotate's {@code .N}; eight digits and more are a date ({@code .20251102}) or epoch seconds (rotatelogs). */
    private static final Pattern NUMBERED_SUFFIX = Pattern.compile("(.+)\\.(\\d{1,7})");
    private static final Pattern DATED_SUFFIX = Pattern.compile("(.+?)[.\\-_](\\d{4}-?\\d{2}-?\\d{2}(?:[-_T]?\\d{2,})*|\\d{8,})");
    private static final String[] COMPRESSION_EXTENSIONS = {".gz", ".zst", ".bz2", ".xz"};

    /** Oldest first within a family. */
    static final Comparator<RotationOrder> OLDEST_FIRST = Comparator.comparingInt(RotationOrder::rank)
            .thenComparing(Comparator.comparingLong(RotationOrder::number).reversed())
            .thenComparing(RotationOrder::date)
            .thenComparing(RotationOrder::name);

    /** Places the file named {@code name} (no directory) in its family. */
    static RotationOrder of(String name) {
        String base = withoutCompression(name);
        Matcher numbered = NUMBERED_SUFFIX.matcher(base);
        if (numbered.matches()) {
            return new RotationOrder(numbered.group(1), NUMBERED, Long.parseLong(numbered.group(2)), "", name);
        }
        Matcher dated = DATED_SUFFIX.matcher(base);
        if (dated.matches()) {
            // digits only: 2025-11-02 and 20251102 compare alike; same-format dates compare as text
            return new RotationOrder(dated.group(1), DATED, 0, dated.group(2).replaceAll("\\D", ""), name);
        }
        return new RotationOrder(base, LIVE, 0, "", name);
    }

    private static String withoutCompression(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String extension : COMPRESSION_EXTENSIONS) {
            if (lower.endsWith(extension) && name.length() > extension.length()) {
                return name.substring(0, name.length() - extension.length());
            }
        }
        return name;
    }
}
