package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A store that tells {@code tap} the crawler hits appended to it, once the store took them:
 * {@code serve}'s counters at /metrics and its alerts see every hit its sources store (followed
 * logs, syslog, the drain, an import through it) in one place, without asking the store again.
 * The tap runs on the appending thread, so it must be quick; everything else is the store's.
 */
public final class TappedStore implements HitStore {

    private final HitStore store;
    private final Consumer<List<CrawlerHit>> tap;

    public TappedStore(HitStore store, Consumer<List<CrawlerHit>> tap) {
        this.store = store;
        this.tap = tap;
    }

    @Override
    public void append(List<CrawlerHit> hits) {
        store.append(hits);
        if (!hits.isEmpty()) {
            tap.accept(hits);
        }
    }

    @Override
    public void append(List<CrawlerHit> hits, SourceProgress through) {
        store.append(hits, through);
        if (!hits.isEmpty()) {
            tap.accept(hits);
        }
    }

    @Override
    public List<SourceProgress> imported(Collection<String> fingerprints) {
        return store.imported(fingerprints);
    }

    @Override
    public List<SourceProgress> importedFiles(Collection<String> keys) {
        return store.importedFiles(keys);
    }

    @Override
    public long[] unchangedLines(List<FileStamp> stamps) {
        return store.unchangedLines(stamps);
    }

    @Override
    public boolean recordsProgress() {
        return store.recordsProgress();
    }

    @Override
    public void flush() {
        store.flush();
    }

    @Override
    public Snapshot snapshot() {
        return store.snapshot();
    }

    @Override
    public boolean serves(Snapshot snapshot) {
        return store.serves(snapshot);
    }

    @Override
    public MinuteCounts minuteCounts(HitFilter filter, Snapshot snapshot) {
        return store.minuteCounts(filter, snapshot);
    }

    @Override
    public MinuteChange minuteChange(HitFilter filter, Snapshot from, Snapshot to) {
        return store.minuteChange(filter, from, to);
    }

    @Override
    public List<StoredHit> rows(HitFilter filter, Snapshot snapshot, long fromMillis, long toMillis, long skip, int limit) {
        return store.rows(filter, snapshot, fromMillis, toMillis, skip, limit);
    }

    @Override
    public long size() {
        return store.size();
    }

    @Override
    public long count(HitFilter filter) {
        return store.count(filter);
    }

    @Override
    public List<StoredHit> page(HitFilter filter, long offset, int limit) {
        return store.page(filter, offset, limit);
    }

    @Override
    public void forEach(HitFilter filter, Consumer<StoredHit> rows) {
        store.forEach(filter, rows);
    }

    @Override
    public void forEach(HitFilter filter, Snapshot snapshot, MinuteCounts counts, Consumer<StoredHit> rows) {
        store.forEach(filter, snapshot, counts, rows);
    }

    @Override
    public boolean sameVerdicts(Snapshot from, Snapshot to) {
        return store.sameVerdicts(from, to);
    }

    @Override
    public Optional<StoredHit> hit(long id, Snapshot snapshot) {
        return store.hit(id, snapshot);
    }

    @Override
    public List<TimeCount> countByTime(HitFilter filter, HitWindow window, long bucketMillis) {
        return store.countByTime(filter, window, bucketMillis);
    }

    @Override
    public List<BreakdownCount> countByCrawler(HitFilter filter, HitWindow window) {
        return store.countByCrawler(filter, window);
    }

    @Override
    public List<DurationCount> countByDuration(HitFilter filter, HitWindow window) {
        return store.countByDuration(filter, window);
    }

    @Override
    public void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls) {
        store.forEachUrl(filter, window, urls);
    }

    @Override
    public void updateVerdict(String ip, String crawler, Verdict verdict) {
        store.updateVerdict(ip, crawler, verdict);
    }

    @Override
    public List<StoredVerdict> verdicts(Verification verification) {
        return store.verdicts(verification);
    }

    @Override
    public void checkReadable() {
        store.checkReadable();
    }

    @Override
    public String describe() {
        return store.describe();
    }

    @Override
    public AlertStore alerts() {
        return store.alerts();
    }

    @Override
    public void close() {
        store.close();
    }
}
