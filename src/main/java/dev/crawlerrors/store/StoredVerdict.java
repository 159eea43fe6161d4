package dev.crawlerrors.store;

import dev.crawlerrors.crawler.Verdict;

/** The verdict recorded for every hit from {@code ip} that claimed {@code crawler}. */
public record StoredVerdict(String ip, String crawler, Verdict verdict) {
}
