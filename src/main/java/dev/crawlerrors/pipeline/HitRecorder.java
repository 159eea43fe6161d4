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
import dev.crawlerrors.store.VerdictStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names the crawler behind each parsed hit, verifies it, and appends the crawler hits to the store
 * together with how far their log has been read. Imports and followed logs record hits this one way.
 * A request that carries a Web Bot Auth signature is its signer's hit, verified by its signature
 * ({@link SignedHits}); the signature's own check, an Ed25519 check costing what parsing some
 * hundred lines does, is left to a {@link SignatureSettler} beside the reader (an import's, to its
 * end), its hit stored pending meanwhile. Pending signatures are kept in the store, to be checked again by whichever
 * process runs next if this one does not settle them.
 */
final class HitRecorder {

    private final HitWriter store;
    private final SignatureStore kept;
    private final VerdictStore verdicts;
    private final CrawlerIdentifier identifier;
    private final CrawlerVerifier verifier;
    private final SignedHits signatures;
    /** Signatures this recorder kept to be checked again because their directory could not be read. */
    private final AtomicLong pendingKept = new AtomicLong();
    /** Settles the signatures left unchecked; made with the first of them. */
    private volatile SignatureSettler settler;
    /** The settler made last, for tests: {@link #takeSettler} leaves it here. */
    private volatile SignatureSettler latest;
    private boolean releaseAtOnce = true;
    /** How many signatures a settler's checks wait for their owner's end for, at most; -1: they run at once. */
    private int holdUpTo = -1;
    private int settleCapacity = SignatureSettler.CAPACITY;
    private int settleThreads = SignatureSettler.threads();
    /** Where the signed lines this recorder leaves unchecked wait; null: all in the store's list ({@link #waitInRowsAfter}). */
    private volatile SignedHits.Waiting waiting;
    /** Whether the settler's queue was dropped once lines began to wait in their rows. */
    private volatile boolean leftToStore;
    /** The host given to hits whose log records none ({@code --host}); null: they stay hostless. */
    private volatile String siteHost;

    /**
     * A recorder writing to {@code store}, keeping what signature verification keeps in {@code kept};
     * signatures are checked beside the reader, their verdicts recorded in {@code verdicts}, or, when
     * it is null, before their hits are stored.
     */
    HitRecorder(HitWriter store, SignatureStore kept, VerdictStore verdicts, CrawlerIdentifier identifier, CrawlerVerifier verifier) {
        this.store = store;
        this.kept = kept;
        this.verdicts = verdicts;
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
        List<SignatureSettler.Waiting> deferred = new ArrayList<>();
        List<CrawlerHit> crawlerHits = identify(hits, pending, deferred);
        store.append(crawlerHits);
        keep(pending, deferred);
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
        List<SignatureSettler.Waiting> deferred = new ArrayList<>();
        List<CrawlerHit> crawlerHits = identify(hits, pending, deferred);
        store.append(crawlerHits, from, through);
        keep(pending, deferred);
        return crawlerHits;
    }

    /**
     * The crawler hits among {@code hits}, in log order; the signatures to be checked again are added
     * to {@code pending}, and those of them left unchecked to be settled beside the reader to {@code deferred} too.
     */
    private List<CrawlerHit> identify(List<Hit> hits, List<StoredSignature> pending, List<SignatureSettler.Waiting> deferred) {
        List<CrawlerHit> crawlerHits = new ArrayList<>(hits.size());
        List<Hit> signed = signatures != null ? new ArrayList<>() : null;
        List<Integer> signedAt = signatures != null ? new ArrayList<>() : null;
        String onHost = siteHost;
        for (Hit logged : hits) {
            identify(logged.onHost(onHost), crawlerHits, signed, signedAt);
        }
        if (signed != null && !signed.isEmpty()) {
            List<SignedHits.Signed> checked = signatures.verifyAll(signed, verdicts != null, waiting);
            for (int i = 0; i < checked.size(); i++) {
                SignedHits.Signed one = checked.get(i);
                crawlerHits.set(signedAt.get(i), one.hit());
                waitFor(one, pending, deferred);
            }
        }
        return crawlerHits;
    }

    /**
     * Adds {@code hit}'s crawler hit to {@code crawlerHits}, or for a signed hit, when signatures are
     * checked ({@code signed} not null), its place, filled once the batch's signed hits are (hits
     * reach the store in log order). A method of its own: its loop runs once a batch, too few times
     * for the JIT to compile it, and a body inlined in it ran interpreted for every line of an import.
     */
    private void identify(Hit hit, List<CrawlerHit> crawlerHits, List<Hit> signed, List<Integer> signedAt) {
        if (signed != null && SignedHits.isSigned(hit)) {
            signed.add(verifier.client(hit));
            signedAt.add(crawlerHits.size());
            crawlerHits.add(null);
            return;
        }
        Optional<Crawler> crawler = identifier.identify(hit.userAgent());
        if (crawler.isPresent()) { // else the byte filter saw escapes that the unescaped agent no longer matches
            crawlerHits.add(verifier.verify(hit, crawler.get()));
        }
    }

    /**
     * Adds what checking {@code one} again needs, if it waits, to {@code pending} and {@code deferred}.
     * A method of its own: the loop above runs once a batch, too few times for the JIT to compile it,
     * and a body inlined in it ran interpreted for every signed line of an import.
     */
    private static void waitFor(SignedHits.Signed one, List<StoredSignature> pending, List<SignatureSettler.Waiting> deferred) {
        if (one.logged() == null && one.pending() == null) {
            return;
        }
        CrawlerHit hit = one.hit();
        String claimCrawler = hit.claimCrawler(); // a substring of the claim: made once, for the row and the settler
        if (one.logged() != null) {
            pending.add(SignatureKeeping.kept(hit, claimCrawler, one.logged()));
            deferred.add(new SignatureSettler.Waiting(hit.hit().ip(), claimCrawler, null, one.logged()));
        } else {
            pending.add(SignatureKeeping.kept(hit, claimCrawler, one.pending()));
            if (one.deferred()) {
                deferred.add(new SignatureSettler.Waiting(hit.hit().ip(), claimCrawler, one.pending()));
            }
        }
    }

    /**
     * Keeps the signatures to be checked again, once their hits are stored, and hands those left
     * unchecked to the settler: kept first, so one the settler has no room for still waits in the store.
     */
    private void keep(List<StoredSignature> pending, List<SignatureSettler.Waiting> deferred) {
        if (!pending.isEmpty()) {
            kept.keepPending(pending);
            pendingKept.addAndGet(pending.size() - deferred.size());
        }
        if (!deferred.isEmpty()) {
            SignatureSettler to = settler();
            deferred.forEach(to::offer);
        }
        SignedHits.Waiting w = waiting;
        SignatureSettler queued = settler;
        if (w != null && w.inRows() > 0 && queued != null && !leftToStore) {
            // the first lines went to the settler, to be checked at the end; now more wait than that
            leftToStore = true;
            queued.leaveToStore();
        }
    }

    private synchronized SignatureSettler settler() {
        if (settler == null) {
            settler = new SignatureSettler(kept, verdicts, signatures, settleCapacity, settleThreads, releaseAtOnce, holdUpTo);
            latest = settler;
        }
        return settler;
    }

    /**
     * Leaves the signed lines left unchecked past the first {@code apartFirst} waiting in their own hit's row,
     * when the store keeps them so ({@link SignatureStore#keepsSignaturesInHits}): an import's. The first go
     * to the store's list and this recorder's settler, as before, so an import that leaves few checks them at
     * its end from memory; one that leaves more leaves them all to serve.
     */
    synchronized void waitInRowsAfter(long apartFirst) {
        if (signatures != null && kept != null && kept.keepsSignaturesInHits()) {
            waiting = new SignedHits.Waiting(apartFirst);
        }
    }

    /** How many signed lines this recorder left waiting in their own hit's row. */
    long waitingInRows() {
        SignedHits.Waiting w = waiting;
        return w == null ? 0 : w.inRows();
    }

    /**
     * Lets settled signatures wait in the store until {@link SignatureSettler#release}, after their verdicts
     * are committed, rather than go at once: for an import, which commits at its end.
     */
    synchronized void releaseAfterCommit() {
        releaseAtOnce = false;
    }

    /**
     * Leaves the signatures' checks to the owner's end ({@link SignatureSettler#checkHeld}), queuing
     * at most {@code upTo} of them for it: an import's.
     */
    synchronized void settleAtEnd(int upTo) {
        holdUpTo = upTo;
    }

    /** Gives the hits whose log records no host {@code host} ({@code --host}), so they match a sitemap's URLs by host; null: none. */
    void siteHost(String host) {
        siteHost = host;
    }

    /** Settles with a queue of {@code capacity} and {@code threads} threads (none: every signature is left to serve), for tests. */
    synchronized void settleWith(int capacity, int threads) {
        settleCapacity = capacity;
        settleThreads = threads;
    }

    /** The settler of this recorder's latest unchecked signatures, taken or not; null when none was left unchecked. */
    SignatureSettler settling() {
        return latest;
    }

    /**
     * The settler of the signatures left unchecked so far, for its owner to wait for, stop and
     * release (an import's end); the next signature left unchecked gets a new one. Null when none.
     */
    synchronized SignatureSettler takeSettler() {
        SignatureSettler taken = settler;
        settler = null;
        return taken;
    }

    /** Stops the settler's threads: what they have not settled waits in the store, for the next check of it. */
    void close() {
        SignatureSettler taken = takeSettler();
        if (taken != null) {
            taken.stop();
            taken.release();
        }
    }

    /** Whether this recorder kept any signature to be checked again because its directory could not be read. */
    boolean keptPending() {
        return pendingKept.get() > 0;
    }
}
