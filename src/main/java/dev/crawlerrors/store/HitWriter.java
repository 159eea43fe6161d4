package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.Collection;
import java.util.List;

/** Where crawler hits go in, with how far their log has been read. Called from one thread at a time. */
public interface HitWriter {

    /**
     * Stores hits in the order given. The verdict a hit carries is recorded for its address and
     * crawler only when none is recorded yet; later verdicts come through {@link VerdictStore#updateVerdict}.
     */
    void append(List<CrawlerHit> hits);

    /**
     * Stores hits as {@link #append(List)} does and, in the same transaction, how far their log has
     * been read: a crash keeps both or neither, so an import that resumes from the recorded position
     * neither loses nor repeats a hit. {@code hits} may be empty (a chunk of human traffic).
     */
    void append(List<CrawlerHit> hits, SourceProgress through);

    /** The recorded progress of those logs, by content fingerprint, that were imported before. */
    List<SourceProgress> imported(Collection<String> fingerprints);

    /** Makes everything appended or updated so far durable and visible to every reader. */
    void flush();
}
