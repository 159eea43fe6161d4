package dev.crawlerrors.ingest;

import java.util.List;

/** Receives parsed hits, in log order, one chunk at a time, on the reading thread. */
@FunctionalInterface
public interface HitSink {

    void accept(List<Hit> hits) throws Exception;
}
