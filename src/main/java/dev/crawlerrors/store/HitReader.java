package dev.crawlerrors.store;

import java.util.List;
import java.util.function.Consumer;

/** The report's questions to the store. Safe from any thread; each sees what was flushed before it. */
public interface HitReader {

    long count(HitFilter filter);

    /** Hits newest first (ties broken by id, descending), skipping {@code offset}. */
    List<StoredHit> page(HitFilter filter, long offset, int limit);

    /** Every matching hit, newest first, streamed to {@code rows}. */
    void forEach(HitFilter filter, Consumer<StoredHit> rows);

    /** Every hit stored, whatever its status or verdict. */
    long size();
}
