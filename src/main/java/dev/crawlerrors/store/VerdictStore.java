package dev.crawlerrors.store;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import java.util.List;

/** The verdict of each address that claimed a crawler: one per address and crawler, the latest wins. */
public interface VerdictStore {

    /** Records a new verdict for every hit from {@code ip} that claimed {@code crawler}. */
    void update(String ip, String crawler, Verdict verdict);

    /** The recorded verdicts of one kind, e.g. the unverified ones to check again. */
    List<StoredVerdict> of(Verification verification);
}
