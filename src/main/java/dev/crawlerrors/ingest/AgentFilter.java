package dev.crawlerrors.ingest;

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
}
