package dev.crawlerrors.ingest;

import java.util.List;

/**
 * Receives parsed hits in log order, one chunk at a time, together with the position the chunk
 * ends at, so the position can be stored in the same transaction as the hits.
 */
@FunctionalInterface
public interface SourceSink {

    /**
     * @param hits    the chunk's hits (may be empty: a chunk of human traffic still moves the position on)
     * @param through how far the log has been read once these hits are stored
     */
    void accept(List<Hit> hits, SourceProgress through) throws Exception;
}
