package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.Collection;
import java.util.List;

/**
 * A writer that hands every call to another ({@link #writer}): the base of the writers that sit
 * around a store's own to watch what it takes and commits (serve's counters, follow's progress, an
 * import's committed hits), each overriding only what it watches.
 */
public abstract class ForwardingHitWriter implements HitWriter {

    protected final HitWriter writer;

    protected ForwardingHitWriter(HitWriter writer) {
        this.writer = writer;
    }

    @Override
    public void append(List<CrawlerHit> hits) {
        writer.append(hits);
    }

    @Override
    public void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
        writer.append(hits, from, through);
    }

    @Override
    public void flush() {
        writer.flush();
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
    public boolean refusesAtCommit() {
        return writer.refusesAtCommit();
    }

    @Override
    public long appendedMark() {
        return writer.appendedMark();
    }

    @Override
    public long committedMark() {
        return writer.committedMark();
    }
}
