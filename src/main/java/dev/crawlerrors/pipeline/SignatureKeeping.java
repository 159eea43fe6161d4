package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.signature.KeyDirectory;
import dev.crawlerrors.crawler.signature.LoggedSignature;
import dev.crawlerrors.crawler.signature.PendingSignature;
import dev.crawlerrors.crawler.signature.SignatureOutcome;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.signature.WebBotAuthVerifier;
import dev.crawlerrors.store.SettledHit;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StoredDirectory;
import dev.crawlerrors.store.StoredSignature;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signature verification and the store, joined: the directories' readings the store keeps are read
 * into the verifier's history when a process first records hits, and every new reading is kept
 * (a log imported later is checked against the keys published when its requests were made); the
 * signatures that wait for a directory are kept, and checked again ({@link #recheck}) by whichever
 * process runs next: the import at its end, {@code serve} every few minutes.
 */
final class SignatureKeeping {

    /** Signatures checked again in one round, at most: the oldest requests first. */
    static final int RECHECK_ROUND = 20_000;

    private SignatureKeeping() {
    }

    /** Reads the store's readings into {@code signed}'s history (once per store) and keeps the new ones in it. */
    static void attach(SignatureStore kept, SignedHits signed) {
        if (!signed.keptBy(kept)) {
            return;
        }
        List<KeyDirectory> readings = new ArrayList<>();
        for (StoredDirectory stored : kept.directories()) {
            try {
                readings.add(KeyDirectory.parse(stored.origin(), Instant.ofEpochMilli(stored.fetchedMillis()), stored.source(),
                        stored.json().getBytes(StandardCharsets.UTF_8), stored.proof()));
            } catch (KeyDirectory.RefusedException e) {
                Log.LOG.warn("a key directory the store keeps cannot be read again: {}", e.getMessage());
            }
        }
        signed.verifier().directories().restore(readings);
        signed.verifier().directories().onReading(reading -> kept.keepDirectory(new StoredDirectory(reading.origin(),
                reading.fetchedAt().toEpochMilli(), reading.source(), reading.json(), reading.proof())));
        signed.pendingKeptAlready(kept.pendingCount());
    }

    /** What the store keeps of a signature to check again, recorded under {@code hit}'s claim ({@code claimCrawler}: its {@link CrawlerHit#claimCrawler}). */
    static StoredSignature kept(CrawlerHit hit, String claimCrawler, PendingSignature pending) {
        return new StoredSignature(pending.id(), hit.hit().ip(), claimCrawler, pending.origin(), pending.keyid(), pending.alg(),
                new String(pending.base(), StandardCharsets.UTF_8), Base64.getEncoder().encodeToString(pending.signature()),
                pending.requestMillis());
    }

    /** What the store keeps of a signed request kept as logged, recorded under {@code hit}'s claim ({@code claimCrawler}: its {@link CrawlerHit#claimCrawler}). */
    static StoredSignature kept(CrawlerHit hit, String claimCrawler, LoggedSignature logged) {
        return new StoredSignature(logged.id(), hit.hit().ip(), claimCrawler, "", "", null, "", "", logged.requestMillis(),
                logged.encoded());
    }

    /**
     * Checks again, oldest first, up to {@link #RECHECK_ROUND} of the signatures the store keeps
     * waiting in {@code kept}; records the verdict of each that is settled now under its claim in
     * {@code verdicts}, commits them, and only then lets their signatures go: a crash in between
     * leaves them waiting, to be checked again.
     *
     * @return the verdicts recorded, by claim key ({@link CrawlerHit#claimKey})
     */
    static Map<String, Verdict> recheck(SignatureStore kept, VerdictStore verdicts, SignedHits signed) {
        List<String> ids = new ArrayList<>();
        Map<String, Verdict> settled = recheck(kept, verdicts, signed, ids);
        if (!settled.isEmpty()) {
            verdicts.commit(); // a hit's signature waiting in its row goes with this commit
            kept.settled(ids);
        }
        return settled;
    }

    /**
     * {@link #recheck(SignatureStore, VerdictStore, SignedHits)} for a caller that commits itself
     * (an import, at its end): the settled signatures' ids are added to {@code settledIds}, to be
     * let go ({@link SignatureStore#settled}) once their verdicts are committed.
     */
    static Map<String, Verdict> recheck(SignatureStore kept, VerdictStore verdicts, SignedHits signed, List<String> settledIds) {
        Map<String, Verdict> settled = new HashMap<>();
        List<StoredVerdict> found = new ArrayList<>();
        List<SettledHit> moved = new ArrayList<>();
        for (StoredSignature waiting : kept.pending(RECHECK_ROUND)) {
            SignatureOutcome outcome;
            if (waiting.request() != null) {
                outcome = signed.settle(LoggedSignature.decoded(waiting.request(), waiting.requestMillis(), waiting.id()));
            } else {
                PendingSignature pending = new PendingSignature(waiting.origin(), waiting.keyid(), waiting.alg(),
                        waiting.base().getBytes(StandardCharsets.UTF_8), Base64.getDecoder().decode(waiting.signature()),
                        waiting.requestMillis());
                outcome = signed.verifier().recheck(pending, WebBotAuthVerifier.QUIET);
            }
            if (outcome.pending() != null) {
                continue;
            }
            Long hit = SignatureStore.waitingHit(waiting.id());
            if (hit != null) {
                // waited in its hit's row, under its address's and signer's claim: the hit goes to a claim of its own
                String own = CrawlerHit.signedClaim(CrawlerHit.crawlerOf(waiting.claimCrawler()), outcome.group() + " #" + hit);
                moved.add(new SettledHit(hit, waiting.ip(), waiting.claimCrawler(), own, outcome.verdict()));
                settled.put(CrawlerHit.claimKey(waiting.ip(), own), outcome.verdict());
            } else {
                found.add(new StoredVerdict(waiting.ip(), waiting.claimCrawler(), outcome.verdict()));
                settled.put(CrawlerHit.claimKey(waiting.ip(), waiting.claimCrawler()), outcome.verdict());
                settledIds.add(waiting.id());
            }
        }
        verdicts.updateAll(found);
        if (!moved.isEmpty()) {
            verdicts.settleWaitingHits(moved);
        }
        signed.settled(found.size() + moved.size());
        return settled;
    }

    /** The logger, made on first use only: an import that never warns starts no logging (ImportStartTest). */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(SignatureKeeping.class);
    }
}
