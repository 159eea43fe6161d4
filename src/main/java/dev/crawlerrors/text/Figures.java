package dev.crawlerrors.text;

/**
 * Numbers written for people, as {@code String.format(Locale.ROOT, "%,d")} and {@code "%.2f"}
 * write them: {@code 5,000,000} and {@code 3.14}.
 *
 * <p>Why not {@code String.format}: its first use starts the JDK's locale data (decimal format
 * symbols, resource bundles) and the {@code Formatter} itself on an import's main thread before
 * the first line is read, for output that is always in the root locale.
 */
public final class Figures {

    private static final long[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

    private Figures() {
    }

    /** {@code n} with a comma between each group of three digits, as {@code %,d} writes it. */
    public static String grouped(long n) {
        String digits = Long.toString(n);
        int start = n < 0 ? 1 : 0;
        int length = digits.length() - start;
        if (length <= 3) {
            return digits;
        }
        StringBuilder out = new StringBuilder(digits.length() + (length - 1) / 3);
        out.append(digits, 0, start);
        int first = length % 3 == 0 ? 3 : length % 3;
        out.append(digits, start, start + first);
        for (int i = start + first; i < digits.length(); i += 3) {
            out.append(',').append(digits, i, i + 3);
        }
        return out.toString();
    }

    /** {@code n} {@link #grouped grouped} with its noun, singular for one: {@code 1 line}, {@code 2,000 lines}. */
    public static String counted(long n, String noun) {
        return grouped(n) + " " + (n == 1 ? noun : noun + "s");
    }

    /**
     * {@code value} with {@code decimals} digits after the point (0 to 6), rounded half up as
     * {@code %.Nf} rounds, but from the binary value: 1.005, held as 1.00499..., gives 1.00 where
     * {@code %.2f} gives 1.01. A value too large for that, or not a number, is written as
     * {@code String.valueOf} writes it.
     */
    public static String fixed(double value, int decimals) {
        long scale = POWERS_OF_TEN[decimals];
        if (!Double.isFinite(value) || Math.abs(value) * scale >= 1e15) {
            return String.valueOf(value);
        }
        long units = Math.round(Math.abs(value) * scale);
        String sign = value < 0 && units != 0 ? "-" : "";
        if (decimals == 0) {
            return sign + units;
        }
        String fraction = Long.toString(units % scale);
        return sign + units / scale + "." + "0".repeat(decimals - fraction.length()) + fraction;
    }

    /**
     * {@code value} to {@code digits} significant digits, grouped, without zeros after the point that
     * say nothing: 1894.4 to 3 digits is {@code 1,890}, 197.9 is {@code 198}, 0.2 is {@code 0.2},
     * 12.34 is {@code 12.3}. For a figure known only so far (a duration read from 1% buckets).
     */
    public static String significant(double value, int digits) {
        if (value == 0) {
            return "0";
        }
        if (!Double.isFinite(value) || Math.abs(value) >= 1e15) {
            return String.valueOf(value);
        }
        String sign = value < 0 ? "-" : "";
        java.math.BigDecimal rounded = new java.math.BigDecimal(Math.abs(value)).round(new java.math.MathContext(digits))
                .stripTrailingZeros();
        if (rounded.scale() <= 0) {
            return sign + grouped(rounded.longValueExact());
        }
        String plain = rounded.toPlainString();
        int point = plain.indexOf('.');
        return sign + grouped(Long.parseLong(plain.substring(0, point))) + plain.substring(point);
    }

    /** A size in bytes for people: {@code 512 bytes}, {@code 1.5 KiB}, {@code 276.0 MiB} (binary units, one decimal). */
    public static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return fixed(value, 1) + " " + units[unit];
    }
}
