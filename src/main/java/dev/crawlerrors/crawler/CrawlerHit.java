package dev.crawlerrors.crawler;

import dev.crawlerrors.ingest.Hit;

/** A hit made by a known crawler, with its verdict as of when it was identified. */
public record CrawlerHit(Hit hit, Crawler crawler, Verdict verdict) {
}
