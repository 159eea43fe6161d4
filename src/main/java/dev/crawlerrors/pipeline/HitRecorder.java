package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StoredSignature;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names the crawler behind each parsed hit, verifies it, and appends the crawler hits to the store
 * together with how far their log has been read. Imports and followed logs record hits this one way.
 * A request that carries a Web Bot Auth signature is its signer's hit, verified by its signature
 * ({@link SignedHits}, on every core: an Ed25519 check costs what parsing some hundred lines does);
 * the signatures whose directory could not be read are kept in the store to be checked again.
 */
final class HitRecorder {

    private final HitWriter store;
    private final SignatureStore kept;
    private final CrawlerIdentifier identifier;
    private final CrawlerVerifier verifier;
    private final SignedHits signatures;
    /** Signatures this recorder kept to be checked again. */
    private final AtomicLong pendingKept = new AtomicLong();

    /** A recorder writing to {@code store}, keeping what signature verification keeps in {@code kept}. */
    HitRecorder(HitWriter store, SignatureStore kept, CrawlerIdentifier identifier, CrawlerVerifier verifier) {
        this.store = store;
        this.kept = kept;
        this.identifier = identifier;
        this.verifier = verifier;
        this.signatures = verifier.signatures();
        if (signatures != null) {
            SignatureKeeping.attach(kept, signatures);
        }
    }

    /**
     * Stores the crawler hits among {@code hits}, lines of no log (pushed over the network).
     *
     * @return the crawler hits stored
     */
    List<CrawlerHit> record(List<Hit> hits) {
        List<StoredSignature> pending = new ArrayList<>();
        List<CrawlerHit> crawlerHits = identify(hits, pending);
        store.append(crawlerHits);
        keep(pending);
        return crawlerHits;
    }

    /**
     * Stores the crawler hits among {@code hits} with their log's position, {@code through}, if the
     * store still has the log at {@code from} (SourceProgress, SourceProgress)).
     *
     * @return the crawler hits stored
     * @throws dev.crawlerrors.store.PositionMovedException when another writer recorded the log elsewhere: nothing is stored
     */
    List<CrawlerHit> record(List<Hit> hits, SourceProgress from, SourceProgress through) {
        List<StoredSignature> pending = new ArrayList<>();
        List<CrawlerHit> crawlerHits = identify(hits, pending);
        store.append(crawlerHits, from, through);
        keep(pending);
        return crawlerHits;
    }

    /** The crawler hits among {@code hits}, in log order; the signatures to be checked again are added to {@code pending}. */
    private List<CrawlerHit> identify(List<Hit> hits, List<StoredSignature> pending) {
        List<CrawlerHit> crawlerHits = new ArrayList<>(hits.size());
        List<Hit> signed = null;
        List<Integer> signedAt = null;
        for (Hit hit : hits) {
            if (signatures != null && SignedHits.isSigned(hit)) {
                if (signed == null) {
                    signed = new ArrayList<>();
                    signedAt = new ArrayList<>();
                }
                signed.add(verifier.client(hit));
                signedAt.add(crawlerHits.size());
                crawlerHits.add(null); // its place, filled below: hits reach the store in log order
                continue;
            }
            Optional<Crawler> crawler = identifier.identify(hit.userAgent());
            if (crawler.isEmpty()) {
                continue; // the byte filter saw escapes that the unescaped agent no longer matches
            }
            crawlerHits.add(verifier.verify(hit, crawler.get()));
        }
        if (signed != null) {
            List<SignedHits.Signed> checked = signatures.verifyAll(signed);
            for (int i = 0; i < checked.size(); i++) {
                SignedHits.Signed one = checked.get(i);
                crawlerHits.set(signedAt.get(i), one.hit());
                if (one.pending() != null) {
                    pending.add(SignatureKeeping.kept(one.hit(), one.pending()));
                }
            }
        }
        return crawlerHits;
    }

    /** Keeps the signatures whose directory could not be read, once their hits are stored. */
    private void keep(List<StoredSignature> pending) {
        if (!pending.isEmpty()) {
            kept.keepPending(pending);
            pendingKept.addAndGet(pending.size());
        }
    }

    /** Whether this recorder kept any signature to be checked again. */
    boolean keptPending() {
        return pendingKept.get() > 0;
    }
}
