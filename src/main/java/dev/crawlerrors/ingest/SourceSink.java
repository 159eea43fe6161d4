package dev.crawlerrors.ingest;

import java.util.List;

/**
 * Receives parsed hits in log order, one chunk at a time, together with the positions the chunk
 * starts and ends at, so the position can be stored in the same transaction as the hits, and only
 * while the log is still where this reader left it.
 */
@FunctionalInterface
public interface SourceSink {

    /**
     * @param hits    the chunk's hits (may be empty: a chunk of human traffic still moves the position on)
     * @param from    where the chunk starts: where the last chunk handed on ended, or where the read started
     * @param through how far the log has been read once these hits are stored
     * @throws Stop to end the read here, this chunk not taken
     */
    void accept(List<Hit> hits, SourceProgress from, SourceProgress through) throws Exception;

    /**
     * Thrown by a sink to end a read early: the chunk it was handed is not taken, and the read returns
     * the counts of the chunks taken before it (a writer found another writer had stored those lines).
     */
    final class Stop extends RuntimeException {

        public Stop() {
            super("the read was ended by what it was handed to", null, false, false);
        }
    }
}
