package dev.crawlerrors.alert;

import java.time.Duration;

/** Durations as the alerts file and options write them: a whole number and a unit, {@code 30s}, {@code 10m}, {@code 4h}, {@code 7d}. */
public final class AlertDurations {

    /** What a duration looks like, for messages. */
    public static final String EXAMPLES = "such as 30s, 10m, 4h or 1d";

    private AlertDurations() {
    }

    /**
     * The duration {@code text} writes.
     *
     * @throws IllegalArgumentException when it writes none
     */
    public static Duration parse(String text) {
        if (text.length() < 2 || text.length() > 12) {
            throw new IllegalArgumentException();
        }
        char unit = text.charAt(text.length() - 1);
        long n;
        try {
            n = Long.parseLong(text, 0, text.length() - 1, 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(e);
        }
        if (n < 1 || !Character.isDigit(text.charAt(0))) {
            throw new IllegalArgumentException();
        }
        return switch (unit) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            case 'd' -> Duration.ofDays(n);
            default -> throw new IllegalArgumentException();
        };
    }

    /** {@code d} as this class writes it: {@code 4h}, {@code 90s}. */
    public static String written(Duration d) {
        long s = d.toSeconds();
        return s % 86_400 == 0 ? s / 86_400 + "d" : s % 3_600 == 0 ? s / 3_600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}
