package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * A store whose writer tells {@code tap} the crawler hits appended to it, once the store took them:
 * {@code serve}'s counters at /metrics and its alerts see every hit its sources store (followed
 * logs, syslog, the drain, an import through it) in one place, without asking the store again.
 * The tap runs on the appending thread, so it must be quick; every other view is the store's own.
 */
public final class TappedStore implements HitStore {

    private final HitStore store;
    private final HitWriter writer;

    public TappedStore(HitStore store, Consumer<List<CrawlerHit>> tap) {
        this.store = store;
        this.writer = new TappedWriter(store.writer(), tap);
    }

    @Override
    public HitWriter writer() {
        return writer;
    }

    @Override
    public HitReader reader() {
        return store.reader();
    }

    @Override
    public VerdictStore verdicts() {
        return store.verdicts();
    }

    @Override
    public StoreHealth health() {
        return store.health();
    }

    @Override
    public SignatureStore signatures() {
        return store.signatures();
    }

    @Override
    public AlertStore alerts() {
        return store.alerts();
    }

    @Override
    public SitemapStore sitemaps() {
        return store.sitemaps();
    }

    @Override
    public String describe() {
        return store.describe();
    }

    @Override
    public void close() {
        store.close();
    }

    /** The store's writer, telling the tap what it took. */
    private record TappedWriter(HitWriter writer, Consumer<List<CrawlerHit>> tap) implements HitWriter {

        @Override
        public void append(List<CrawlerHit> hits) {
            writer.append(hits);
            if (!hits.isEmpty()) {
                tap.accept(hits);
            }
        }

        @Override
        public void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
            writer.append(hits, from, through);
            if (!hits.isEmpty()) {
                tap.accept(hits);
            }
        }

        @Override
        public List<SourceProgress> imported(Collection<String> fingerprints) {
            return writer.imported(fingerprints);
        }

        @Override
        public List<SourceProgress> importedFiles(Collection<String> keys) {
            return writer.importedFiles(keys);
        }

        @Override
        public long[] unchangedLines(List<FileStamp> stamps) {
            return writer.unchangedLines(stamps);
        }

        @Override
        public boolean recordsProgress() {
            return writer.recordsProgress();
        }

        @Override
        public long appendedMark() {
            return writer.appendedMark();
        }

        @Override
        public long committedMark() {
            return writer.committedMark();
        }

        @Override
        public boolean refusesAtCommit() {
            return writer.refusesAtCommit();
        }

        @Override
        public void flush() {
            writer.flush();
        }
    }
}
