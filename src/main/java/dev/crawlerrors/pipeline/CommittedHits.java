package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.ForwardingHitWriter;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StatusRange;
import java.util.List;

/**
 * A writer that counts the crawler hits appended through it once the store committed them: {@code
 * serve --follow}'s progress says as stored only what is durable. Hits are held as counts until a
 * {@link #flush} commits them. A refusal (another writer stored the lines first: {@link
 * PositionMovedException}) takes back the hits it names, which an earlier append had taken (a store
 * that refuses as it commits, ClickHouse), told at a later append or at the flush, where the rest
 * is committed. A flush that fails otherwise drops what it held: what the store has is read on from
 * its positions and counted when committed then; what it may have kept is counted short, never twice.
 */
final class CommittedHits extends ForwardingHitWriter {

    /** Told the hits, and the error hits among them, each commit made durable. */
    interface Committed {
        void committed(long hits, long errorHits);
    }

    private final Committed committed;
    private long hits;
    private long errorHits;

    CommittedHits(HitWriter writer, Committed committed) {
        super(writer);
        this.committed = committed;
    }

    @Override
    public void append(List<CrawlerHit> hits) {
        writer.append(hits);
        taken(hits, 1);
    }

    @Override
    public void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
        try {
            writer.append(hits, from, through);
        } catch (PositionMovedException refused) {
            takeBack(refused);
            throw refused;
        }
        taken(hits, 1);
    }

    @Override
    public void flush() {
        try {
            writer.flush();
        } catch (PositionMovedException refused) {
            takeBack(refused); // the rest is stored
            commit();
            throw refused;
        } catch (RuntimeException e) {
            drop();
            throw e;
        }
        commit();
    }

    private synchronized void taken(List<CrawlerHit> taken, int sign) {
        long errors = 0;
        for (CrawlerHit hit : taken) {
            if (hit.hit().status() >= StatusRange.ERRORS.low()) {
                errors++;
            }
        }
        hits += sign * (long) taken.size();
        errorHits += sign * errors;
    }

    private void takeBack(PositionMovedException refused) {
        for (PositionMovedException.Refused log : refused.refused()) {
            taken(log.hits(), -1);
        }
    }

    private void commit() {
        long h;
        long e;
        synchronized (this) {
            h = hits;
            e = errorHits;
            hits = 0;
            errorHits = 0;
        }
        if (h != 0 || e != 0) {
            committed.committed(h, e);
        }
    }

    private synchronized void drop() {
        hits = 0;
        errorHits = 0;
    }
}
