package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.ForwardingHitWriter;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.PositionMovedException;
import java.util.ArrayDeque;
import java.util.List;

/**
 * An import's writer, which knows how many of the crawler hits appended through it the store made
 * durable ({@link #committed}): what the summary says was stored before the store failed. The
 * store's growth would say more when another writer stored hits meanwhile. Each append is kept with
 * the writer's mark of it ({@link HitWriter#appendedMark}) until the store's commits reach that
 * mark; a refusal (another writer stored the lines first) takes back the hits it names.
 */
final class ImportedHits extends ForwardingHitWriter {

    private record Appended(long mark, long hits) {
    }

    private final ArrayDeque<Appended> uncommitted = new ArrayDeque<>();
    private long committed;
    private long refused;
    private boolean unknown;

    ImportedHits(HitWriter writer) {
        super(writer);
    }

    @Override
    public void append(List<CrawlerHit> hits) {
        writer.append(hits);
        taken(hits);
    }

    @Override
    public void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
        try {
            writer.append(hits, from, through);
        } catch (PositionMovedException e) {
            takeBack(e);
            throw e;
        }
        taken(hits);
    }

    @Override
    public void flush() {
        try {
            writer.flush();
        } catch (PositionMovedException e) {
            takeBack(e);
            throw e;
        }
    }

    /** The hits appended through this writer that the store has made durable; -1 when it cannot say. */
    synchronized long committed() {
        if (unknown) {
            return -1;
        }
        long through = writer.committedMark();
        if (through < 0) {
            return -1;
        }
        while (!uncommitted.isEmpty() && uncommitted.peekFirst().mark() <= through) {
            committed += uncommitted.pollFirst().hits();
        }
        return Math.max(0, committed - refused);
    }

    private synchronized void taken(List<CrawlerHit> hits) {
        if (hits.isEmpty()) {
            return;
        }
        long mark = writer.appendedMark();
        if (mark < 0) {
            unknown = true;
            return;
        }
        uncommitted.addLast(new Appended(mark, hits.size()));
        committed(); // what is durable leaves the queue: a follower's stays short
    }

    private synchronized void takeBack(PositionMovedException e) {
        for (PositionMovedException.Refused log : e.refused()) {
            refused += log.hits().size();
        }
    }
}
