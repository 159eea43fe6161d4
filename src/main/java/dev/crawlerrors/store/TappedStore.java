package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A store whose writer tells {@code tap} the crawler hits appended to it, once the store committed them:
 * {@code serve}'s counters at /metrics and its alerts see every hit its sources store (followed
 * logs, syslog, the drain, an import through it) in one place, without asking the store again.
 * Hits another writer stored first, which the store refuses, are never told: under two writers the
 * counters say what this store's sources stored. The tap runs on the appending or flushing thread,
 * so it must be quick; every other view is the store's own.
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

    /**
     * The store's writer, telling the tap the hits the store committed. A store that refuses as it
     * appends (DuckDB) has them once it took them: they are told then. One that refuses as it commits
     * (ClickHouse: another writer stored the lines first) has them held until a flush commits them;
     * a refusal, told at a later append or at the flush, takes back the hits it names (the latest
     * of their log's held, as a log's refused lines are the last it read), and a flush that fails
     * otherwise drops what it held: counted short rather than twice. Every source flushes (a pushed
     * batch, a followed poll, an import's end), so nothing is held for long.
     */
    private static final class TappedWriter extends ForwardingHitWriter {

        /** The log of hits appended without a position: never refused. */
        private static final String UNPOSITIONED = "";

        private final Consumer<List<CrawlerHit>> tap;
        private final boolean atCommit;
        /** Held flushes one at a time: what one commits is told by it, refusals and all. */
        private final Object flushing = new Object();
        /** Appended and not committed yet, by log (guarded by this). */
        private Map<String, List<CrawlerHit>> held = new LinkedHashMap<>();
        /** What the flush under way commits (guarded by this; null: none). */
        private Map<String, List<CrawlerHit>> committing;

        TappedWriter(HitWriter writer, Consumer<List<CrawlerHit>> tap) {
            super(writer);
            this.tap = tap;
            this.atCommit = writer.refusesAtCommit();
        }

        @Override
        public void append(List<CrawlerHit> hits) {
            writer.append(hits);
            taken(UNPOSITIONED, hits);
        }

        @Override
        public void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
            try {
                writer.append(hits, from, through);
            } catch (PositionMovedException refused) {
                takeBack(refused);
                throw refused;
            }
            taken(through.fingerprint(), hits);
        }

        private void taken(String log, List<CrawlerHit> hits) {
            if (hits.isEmpty()) {
                return;
            }
            if (!atCommit) {
                tap.accept(hits);
                return;
            }
            synchronized (this) {
                held.computeIfAbsent(log, k -> new ArrayList<>()).addAll(hits);
            }
        }

        /** Takes back the hits a refusal names: the latest held of their log, those appended since the flush under way first. */
        private synchronized void takeBack(PositionMovedException refused) {
            for (PositionMovedException.Refused log : refused.refused()) {
                int left = takeLast(held, log.key(), log.hits().size());
                if (committing != null) {
                    takeLast(committing, log.key(), left);
                }
            }
        }

        /** Takes up to {@code count} of the latest hits of {@code log} out of {@code from}; how many it did not find. */
        private static int takeLast(Map<String, List<CrawlerHit>> from, String log, int count) {
            List<CrawlerHit> hits = from.get(log);
            if (hits == null || count <= 0) {
                return Math.max(count, 0);
            }
            int taken = Math.min(count, hits.size());
            hits.subList(hits.size() - taken, hits.size()).clear();
            return count - taken;
        }

        @Override
        public void flush() {
            if (!atCommit) {
                writer.flush();
                return;
            }
            synchronized (flushing) {
                Map<String, List<CrawlerHit>> commits;
                synchronized (this) {
                    commits = held;
                    held = new LinkedHashMap<>();
                    committing = commits;
                }
                try {
                    writer.flush();
                } catch (PositionMovedException refused) {
                    takeBack(refused); // the rest is stored
                    tell(commits);
                    throw refused;
                } catch (RuntimeException e) {
                    release();
                    throw e;
                }
                tell(commits);
            }
        }

        private void tell(Map<String, List<CrawlerHit>> commits) {
            release();
            for (List<CrawlerHit> hits : commits.values()) {
                if (!hits.isEmpty()) {
                    tap.accept(hits);
                }
            }
        }

        private synchronized void release() {
            committing = null;
        }
    }
}
