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
     * Stores the crawler hits among {@code hits}, lines of no log (pushed over the network).
     *
     * @return the crawler hits stored
     */
    List<CrawlerHit> record(List<Hit> hits) {
        List<CrawlerHit> crawlerHits = identify(hits);
        store.append(crawlerHits);
        return crawlerHits;
    }

    /**
     * Stores the crawler hits among {@code hits} with their log's position, {@code through}, if the
     * store still has the log at {@code from} ({@link HitStore#append(List, SourceProgress, SourceProgress)}).
     *
     * @return the crawler hits stored
     * @throws dev.crawlerrors.store.PositionMovedException when another writer recorded the log elsewhere: nothing is stored
     */
    List<CrawlerHit> record(List<Hit> hits, SourceProgress from, SourceProgress through) {
        List<CrawlerHit> crawlerHits = identify(hits);
        store.append(crawlerHits, from, through);
        return crawlerHits;
    }

    private List<CrawlerHit> identify(List<Hit> hits) {
        List<CrawlerHit> crawlerHits = new ArrayList<>(hits.size());
        for (Hit hit : hits) {
            Optional<Crawler> crawler = identifier.identify(hit.userAgent());
            if (crawler.isEmpty()) {
                continue; // the byte filter saw escapes that the unescaped agent no longer matches
            }
            crawlerHits.add(verifier.verify(hit, crawler.get()));
        }
        return crawlerHits;
    }
}
