package dev.crawlerrors.store.clickhouse;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much of the servers one query may take, sent with every query as ClickHouse settings in its
 * URL: {@code max_memory_usage} (a query that needs more fails instead of growing the server) and
 * {@code max_threads} (the cores a query may use on each server). A query also ends after
 * {@link #QUERY_SECONDS}, since ClickHouse 18.16 goes on with a query whose client has gone.
 *
 * @param threads     {@code max_threads}; 0 leaves the server's own
 * @param memoryBytes {@code max_memory_usage}, bytes
 * @param readers     reads that may run at once from this process (the report server bounds them)
 */
public record ClickHouseSettings(int threads, long memoryBytes, int readers) {

    /** The longest a report query may run: a page is milliseconds; counting a view of billions is seconds. */
    static final int QUERY_SECONDS = 120;

    public static final ClickHouseSettings SERVE = new ClickHouseSettings(4, 1L << 30, 4);
    public static final ClickHouseSettings IMPORT = new ClickHouseSettings(0, 1L << 30, 2);

    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)");

    public ClickHouseSettings {
        if (threads < 0) {
            throw new IllegalArgumentException("ClickHouse's threads must be 0 (the server's setting) or more; got " + threads);
        }
        if (memoryBytes < 1 << 20) {
            throw new IllegalArgumentException("a query needs at least 1MiB; got " + memoryBytes + " bytes");
        }
        if (readers < 1) {
            throw new IllegalArgumentException("at least one reader is needed; got " + readers);
        }
    }

    /** Bytes of a size written as DuckDB's memory limit is ({@code 512MB}, {@code 2GiB}). */
    public static long bytes(String size) {
        Matcher m = SIZE.matcher(size.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("a memory limit is a number and a unit such as 512MB or 2GB; got '" + size + "'");
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

    /** The settings as URL parameters, each starting with {@code &}. */
    String urlParameters() {
        return "&max_memory_usage=" + memoryBytes + (threads > 0 ? "&max_threads=" + threads : "");
    }
}
