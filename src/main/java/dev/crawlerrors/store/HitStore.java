package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/** Where crawler hits are kept and queried. Writes come from one thread; reads from any. */
public interface HitStore extends AutoCloseable {

    /**
     * Stores hits in the order given. The verdict a hit carries is recorded for its address and
     * crawler only when none is recorded yet; later verdicts come through {@link #updateVerdict}.
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

    /** Records a new verdict for every hit from {@code ip} that claimed {@code crawler}. */
    void updateVerdict(String ip, String crawler, Verdict verdict);

    /** Makes everything appended or updated so far durable and visible to every reader. */
    void flush();

    long count(HitFilter filter);

    /** The recorded verdicts of one kind, e.g. the unverified ones to check again. */
    List<StoredVerdict> verdicts(Verification verification);

    /** Hits newest first (ties broken by id, descending), skipping {@code offset}. */
    List<StoredHit> page(HitFilter filter, long offset, int limit);

    /** Every matching hit, newest first, streamed to {@code rows}. */
    void forEach(HitFilter filter, Consumer<StoredHit> rows);

    /** Every hit stored, whatever its status or verdict. */
    long size();

    @Override
    void close();
}
