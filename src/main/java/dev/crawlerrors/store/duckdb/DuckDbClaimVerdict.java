package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verdict;

/** A verdict to record for claim {@code claim} (the address {@code ip} claiming {@code crawler}), numbered {@code version}. */
record DuckDbClaimVerdict(int claim, String ip, String crawler, Verdict verdict, long version) {
}
