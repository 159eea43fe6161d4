package dev.crawlerrors.ingest.format;

/**
 * Decides from the raw User-Agent bytes whether a line is worth materialising. Parsers call it
 * before they build any string, so human traffic is dropped before it costs anything.
 *
 * <p>Implementations must be safe to call from several parser threads at once.
 */
@FunctionalInterface
public interface AgentFilter {

    /** An agent filter that keeps every line. */
    AgentFilter ALL = (line, from, to) -> true;

    /**
     * Whether the agent in {@code line[from, to)} may be a crawler. The bytes are as logged, with the
     * backslash escapes of quoted fields intact; formats that encode the agent further (JSON string
     * escapes, IIS's {@code +} for a space, CloudFront's {@code %20}) pass it decoded. A line whose
     * format carries no agent (common) passes an empty range.
     */
    boolean mayBeCrawler(byte[] line, int from, int to);

    /**
     * {@link #mayBeCrawler(byte[], int, int)} for a parser that has already computed the agent's
     * {@link #hash}, while it looked for the agent's end: a filter that caches answers by agent
     * need not read the agent again to hash it.
     *
     * @param hash {@code AgentFilter.hash(line, from, to)}
     */
    default boolean mayBeCrawler(byte[] line, int from, int to, int hash) {
        return mayBeCrawler(line, from, to);
    }

    /** A well-mixed hash of {@code line[from, to)}, the one parsers pass to {@link #mayBeCrawler(byte[], int, int, int)}. */
    static int hash(byte[] line, int from, int to) {
        return ByteSearch.hash(line, from, to);
    }
}
