package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Names the crawler behind each parsed hit, verifies it, and appends the crawler hits to the store
 * together with how far their log has been read. Imports and followed logs record hits this one way.
 */
final class HitRecorder {

    private final HitWriter store;
    private final CrawlerIdentifier identifier;
    private final CrawlerVerifier verifier;

    HitRecorder(HitWriter store, CrawlerIdentifier identifier, CrawlerVerifier verifier) {
        this.store = store;
        this.identifier = identifier;
        this.verifier = verifier;
    }

    /**
     * Stores the crawler hits among {@code hits}, and {@code through} with them when it names a log.
     *
     * @return the crawler hits stored
     */
    List<CrawlerHit> record(List<Hit> hits, SourceProgress through) {
        List<CrawlerHit> crawlerHits = new ArrayList<>(hits.size());
        for (Hit hit : hits) {
            Optional<Crawler> crawler = identifier.identify(hit.userAgent());
            if (crawler.isEmpty()) {
                continue; // the byte filter saw escapes that the unescaped agent no longer matches
            }
            crawlerHits.add(verifier.verify(hit, crawler.get()));
        }
        if (through.fingerprint() == null) {
            store.append(crawlerHits);
        } else {
            store.append(crawlerHits, through);
        }
        return crawlerHits;
    }
}
