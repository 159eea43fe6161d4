package dev.crawlerrors.store;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a store may take, as the options ask it of any engine ({@code --db-threads},
 * {@code --db-memory}, the server's readers); null where they say nothing, and the engine uses its
 * default for what the store is opened for (serving, importing).
 *
 * @param threads the engine's threads; 0 leaves the engine's own choice
 * @param memory  the memory the engine may use, a number and a unit ({@code 512MB}, {@code 2GiB})
 * @param readers reads that may hold a connection at once
 */
public record StoreLimits(Integer threads, String memory, Integer readers) {

    /** Nothing asked: every engine's defaults. */
    public static final StoreLimits DEFAULTS = new StoreLimits(null, null, null);

    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)");

    public StoreLimits {
        if (threads != null && threads < 0) {
            throw new Refused(Limit.THREADS, "the threads must be 0 (the engine's own choice) or more; got " + threads);
        }
        if (memory != null) {
            memory = memory.strip();
            bytes(memory);
        }
        if (readers != null && readers < 1) {
            throw new IllegalArgumentException("at least one reader is needed; got " + readers);
        }
    }

    /** Which limit an engine could not take. */
    public enum Limit { THREADS, MEMORY }

    /** A limit the options asked that cannot be taken: a usage error of the option behind {@link #limit()}. */
    public static final class Refused extends IllegalArgumentException {

        private final Limit limit;

        public Refused(Limit limit, String message) {
            super(message);
            this.limit = limit;
        }

        public Limit limit() {
            return limit;
        }
    }

    /**
     * The bytes of a size written as a memory limit ({@code 512MB}, {@code 2GiB}).
     *
     * @throws Refused when it is no such size
     */
    public static long bytes(String size) {
        Matcher m = SIZE.matcher(size.strip());
        if (!m.matches()) {
            throw new Refused(Limit.MEMORY, "a memory limit is a number and a unit such as 512MB or 2GB; got '" + size + "'");
        }
        double n = Double.parseDouble(m.group(1));
        long unit = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "B" -> 1;
            case "KB" -> 1000;
            case "MB" -> 1000_000;
            case "GB" -> 1000_000_000;
            case "TB" -> 1000_000_000_000L;
            case "KIB" -> 1L << 10;
            case "MIB" -> 1L << 20;
            case "GIB" -> 1L << 30;
            default -> 1L << 40;
        };
        return (long) (n * unit);
    }
}
