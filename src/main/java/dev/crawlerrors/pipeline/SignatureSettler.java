package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.signature.LoggedSignature;
import dev.crawlerrors.crawler.signature.PendingSignature;
import dev.crawlerrors.crawler.signature.SignatureOutcome;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.signature.WebBotAuthVerifier;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import dev.crawlerrors.text.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles, on threads of its own, the signatures a recorder stored pending because their signature
 * was left unchecked ({@link SignedHits#verify(dev.crawlerrors.ingest.Hit, boolean)}): the reader
 * goes on while the JDK's Ed25519 checks each one, as DNS checks run beside it. The verdicts of a
 * batch are handed to the store at once without waiting for the batch it is writing ({@link
 * VerdictStore#updateAll}); a settled signature's store row goes only once its verdict is committed
 * ({@link #release}), so a crash in between leaves it waiting, to be settled again.
 *
 * <p>The queue is bounded ({@link #CAPACITY}): a signature it has no room for is in the store
 * already, and is settled by whichever process checks the store's waiting signatures next
 * ({@link SignatureKeeping#recheck}: {@code serve}, or an import's end).
 *
 * <p>An import's checks wait for its end ({@linkplain #SignatureSettler(SignatureStore, VerdictStore, SignedHits, int, int, boolean, int) held}): checked beside the reading, the
 * few a share of its CPU allowed made the JIT compile the Ed25519 path and the store write their
 * verdicts, a second of CPU for a tenth of a percent of a 50,000-line signed log. At its end an
 * import checks what it queued when that is few ({@link #checkHeld}), and leaves a big log's
 * signatures to {@code serve}, whose checks settle them in the background.
 */
final class SignatureSettler {

    /** Signatures queued in memory, at most: some 600 bytes each. */
    static final int CAPACITY = 10_000;
    /** Signatures checked, and their verdicts handed to the store, at a time, at most. */
    private static final int BATCH = 512;

    /**
     * A signature to settle, and the claim its verdict is recorded under: one checked but for its
     * bytes ({@code pending}) or a signed request as logged, all of it still to check ({@code logged}).
     */
    record Waiting(String ip, String claimCrawler, PendingSignature pending, LoggedSignature logged) {

        Waiting(String ip, String claimCrawler, PendingSignature pending) {
            this(ip, claimCrawler, pending, null);
        }

        String id() {
            return logged != null ? logged.id() : pending.id();
        }
    }

    private final SignatureStore kept;
    private final VerdictStore verdicts;
    private final SignedHits signed;
    private final BlockingDeque<Waiting> queue;
    private final List<Thread> workers = new ArrayList<>();
    /** Queued or being checked. */
    private final AtomicLong outstanding = new AtomicLong();
    /** Every signature offered, queued or not. */
    private final AtomicLong offered = new AtomicLong();
    private final AtomicLong settledCount = new AtomicLong();
    /** The verdict each claim was settled with, for the import's summary. */
    private final Map<String, Verdict> settled = new ConcurrentHashMap<>();
    /** Settled signatures whose store rows wait for {@link #release}, their verdicts committed first. */
    private final List<String> unreleased = new ArrayList<>();
    private final boolean releaseAtOnce;
    private volatile boolean stopping;
    /**
     * While the checks wait for the owner's end ({@linkplain #SignatureSettler(SignatureStore, VerdictStore, SignedHits, int, int, boolean, int) held}): how many signatures are
     * queued for it at most, beyond which none is (all are the store's); -1 when the checks run.
     */
    private volatile int holdingUpTo = -1;

    /**
     * @param releaseAtOnce whether a batch's store rows go as soon as its verdicts are committed
     *                      (committed then), or only at {@link #release}, after the caller's own commit
     *                      (an import, which commits at its end)
     */
    SignatureSettler(SignatureStore kept, VerdictStore verdicts, SignedHits signed, int capacity, int threads, boolean releaseAtOnce) {
        this(kept, verdicts, signed, capacity, threads, releaseAtOnce, -1);
    }

    /**
     * A settler whose checks wait for its owner's end ({@link #checkHeld}) when {@code holdUpTo >= 0}:
     * the signatures offered are queued meanwhile, up to {@code holdUpTo}; past that the queue is let
     * go (its signatures are in the store) and nothing more is queued.
     */
    SignatureSettler(SignatureStore kept, VerdictStore verdicts, SignedHits signed, int capacity, int threads, boolean releaseAtOnce,
            int holdUpTo) {
        this.holdingUpTo = holdUpTo;
        this.kept = kept;
        this.verdicts = verdicts;
        this.signed = signed;
        this.queue = new LinkedBlockingDeque<>(capacity);
        this.releaseAtOnce = releaseAtOnce;
        for (int i = 0; i < threads; i++) {
            workers.add(Thread.ofPlatform().daemon().name("signature-check-" + i).start(this::work));
        }
    }

    /** Threads for checking signatures: all but one core, which the reader keeps. */
    static int threads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    }

    /**
     * Ends the hold: checks what was queued, when no more than its bound were offered;
     * else checks nothing, every signature waiting in the store. Whether they are being checked.
     */
    boolean checkHeld() {
        int upTo = holdingUpTo;
        if (upTo >= 0 && offered.get() > upTo) {
            return false;
        }
        holdingUpTo = -1;
        return true;
    }

    /**
     * Drops what is queued: its owner leaves every signature to the store now (more wait than it checks at
     * its end, the rest in their hits' rows), as {@link #offer} does once more are offered than it holds.
     */
    void leaveToStore() {
        List<Waiting> dropped = new ArrayList<>();
        queue.drainTo(dropped);
        outstanding.addAndGet(-dropped.size());
    }

    /** Queues a signature already kept in the store; without room, it stays there alone, for the next check of the store. */
    void offer(Waiting waiting) {
        long count = offered.incrementAndGet();
        int upTo = holdingUpTo;
        if (upTo >= 0 && count > upTo) {
            if (count == upTo + 1L) {
                // more than the owner will check at its end: what is queued is the store's alone
                List<Waiting> dropped = new ArrayList<>();
                queue.drainTo(dropped);
                outstanding.addAndGet(-dropped.size());
            }
            return;
        }
        outstanding.incrementAndGet();
        if (stopping || !queue.offer(waiting)) {
            outstanding.decrementAndGet();
        }
    }

    /**
     * Waits up to {@code millis} until every signature queued is settled; whether all are. Returns
     * at once while the checks are held ({@linkplain #SignatureSettler(SignatureStore, VerdictStore, SignedHits, int, int, boolean, int) held}): the rest are the store's.
     */
    boolean awaitIdle(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (outstanding.get() > 0) {
            if (holdingUpTo >= 0 || System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /**
     * Stops checking, and waits for the threads to end: what is queued stays in the store, waiting;
     * the batch under way is recorded first. Once stopped, what is offered waits in the store.
     */
    void stop() {
        stopping = true;
        workers.forEach(Thread::interrupt);
        workers.forEach(worker -> Threads.awaitEnd(worker, Duration.ofSeconds(10)));
    }

    /**
     * Commits the verdicts settled so far, then lets go of their signatures' store rows: in this
     * order, so a crash between the two leaves a row waiting, never a settled verdict lost.
     */
    void release() {
        List<String> ids;
        synchronized (unreleased) {
            ids = new ArrayList<>(unreleased);
            unreleased.clear();
        }
        if (!ids.isEmpty()) {
            verdicts.commit();
            kept.settled(ids);
        }
    }

    /** The verdicts settled, by claim key ({@link CrawlerHit#claimKey}). */
    Map<String, Verdict> settled() {
        return settled;
    }

    long settledCount() {
        return settledCount.get();
    }

    /** Signatures in the queue, not taken by a thread yet. */
    int queued() {
        return queue.size();
    }

    /** Signatures offered and not settled (queued, being checked, or left in the store for want of room). */
    long waiting() {
        return offered.get() - settledCount.get();
    }

    private void work() {
        List<Waiting> batch = new ArrayList<>(BATCH);
        while (!stopping) {
            try {
                if (holdingUpTo >= 0) {
                    Thread.sleep(50);
                    continue;
                }
                Waiting first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                settle(batch);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                Log.LOG.warn("checking signatures in the background failed: {}", e.getMessage());
            } finally {
                outstanding.addAndGet(-batch.size());
                batch.clear();
            }
        }
    }

    /** Checks a batch, hands its verdicts to the store in one step, and lets its rows go once they are committed. */
    private void settle(List<Waiting> batch) {
        List<StoredVerdict> found = new ArrayList<>(batch.size());
        List<String> ids = new ArrayList<>(batch.size());
        for (Waiting waiting : batch) {
            if (stopping) {
                break; // the rest stays in the store, waiting
            }
            SignatureOutcome outcome = waiting.logged() != null ? signed.settle(waiting.logged())
                    : signed.verifier().recheck(waiting.pending(), WebBotAuthVerifier.QUIET);
            if (outcome.pending() == null) {
                found.add(new StoredVerdict(waiting.ip(), waiting.claimCrawler(), outcome.verdict()));
                ids.add(waiting.id());
            } else if (waiting.logged() != null) {
                // still waiting for its directory: its verdict says why, as a check on the reader's path would have
                found.add(new StoredVerdict(waiting.ip(), waiting.claimCrawler(), outcome.verdict()));
            }
        }
        if (found.isEmpty()) {
            return;
        }
        verdicts.updateAll(found);
        for (StoredVerdict v : found) {
            settled.put(CrawlerHit.claimKey(v.ip(), v.crawler()), v.verdict());
        }
        settledCount.addAndGet(ids.size());
        signed.settled(ids.size());
        synchronized (unreleased) {
            unreleased.addAll(ids);
        }
        if (releaseAtOnce) {
            release();
        }
    }

    /** The logger, made on first use only: an import that never warns starts no logging (ImportStartTest). */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(SignatureSettler.class);
    }
}
