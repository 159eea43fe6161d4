package dev.crawlerrors.store;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The report's questions to the store. Safe from any thread; each sees what was flushed before it.
 * The counting questions take a {@link HitWindow}: the report keeps their answers and, as hits
 * arrive, counts only the window after what it counted (see {@link #version()}).
 */
public interface HitReader {

    long count(HitFilter filter);

    /** Hits newest first (ties broken by id, descending), skipping {@code offset}. */
    List<StoredHit> page(HitFilter filter, long offset, int limit);

    /** Every matching hit, newest first, streamed to {@code rows}. */
    void forEach(HitFilter filter, Consumer<StoredHit> rows);

    /** Every hit stored, whatever its status or verdict. */
    long size();

    /** One hit, whatever its status or verdict, by its id. */
    Optional<StoredHit> hit(long id);

    /** What the store holds now; ask it before counting, and count through its {@code lastId}. */
    StoreVersion version();

    /** Matching hits by time bucket ({@code bucketMillis} long, from the epoch), status and verdict. */
    List<TimeCount> countByTime(HitFilter filter, HitWindow window, long bucketMillis);

    /** Matching hits by crawler (and its bot type), verdict and status. */
    List<BreakdownCount> countByCrawler(HitFilter filter, HitWindow window);

    /** Matching hits that carry a duration, by status, verdict and {@link DurationBuckets duration bucket}. */
    List<DurationCount> countByDuration(HitFilter filter, HitWindow window);

    /** Matching hits by URL, status and bot type, streamed (a store may hold millions of URLs). */
    void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls);
}
