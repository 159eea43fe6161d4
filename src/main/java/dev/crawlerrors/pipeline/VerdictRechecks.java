package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import dev.crawlerrors.text.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While the report is served: checks again the verdicts that rest on a failed or unfinished check
 * (a DNS timeout, a resolver that failed its check, an unreadable list, an import that ended before
 * its checks did), and re-reads the published IP lists once a day; when a list changed, every
 * recorded verdict is decided again (a verified one never turns spoofed on the list's word alone).
 * Signatures that wait for a signer's directory are checked again too ({@link SignatureKeeping#recheck}),
 * once the directory answers.
 */
public final class VerdictRechecks implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VerdictRechecks.class);
    static final Duration FIRST_RUN = Duration.ofSeconds(5);
    static final Duration EVERY = Duration.ofMinutes(10);
    static final Duration LIST_AGE = Duration.ofDays(1);

    private final VerdictStore verdicts;
    private final SignatureStore signatures;
    private final CrawlerCatalog catalog;
    private final CrawlerVerifier verifier;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.daemons("verdict-rechecks"));

    public VerdictRechecks(VerdictStore verdicts, SignatureStore signatures, CrawlerCatalog catalog, CrawlerVerifier verifier) {
        this.verdicts = verdicts;
        this.signatures = signatures;
        this.catalog = catalog;
        this.verifier = verifier;
        verifier.onChange((ip, crawler, verdict) -> verdicts.update(ip, crawler.name(), verdict));
        if (verifier.signatures() != null) {
            SignatureKeeping.attach(signatures, verifier.signatures());
        }
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::runSafely, FIRST_RUN.toSeconds(), EVERY.toSeconds(), TimeUnit.SECONDS);
    }

    private void runSafely() {
        try {
            run();
        } catch (RuntimeException e) {
            LOG.warn("re-checking verdicts failed: {}", e.getMessage());
        }
    }

    /** One round; returns how many verdicts were checked again. */
    public int run() {
        boolean listsChanged = verifier.lists().refreshDue(LIST_AGE);
        List<StoredVerdict> candidates = new ArrayList<>(verdicts.of(Verification.unverified));
        if (listsChanged) {
            verifier.forgetVerdicts();
            candidates.addAll(verdicts.of(Verification.verified));
            candidates.addAll(verdicts.of(Verification.spoofed));
        } else {
            // spoofed by a list while DNS, which may still confirm, was pending or failed
            verdicts.of(Verification.spoofed).stream()
                    .filter(v -> v.verdict().reason().contains(CrawlerVerifier.CHECK_PENDING)
                            || v.verdict().reason().contains(CrawlerVerifier.CHECK_AGAIN))
                    .forEach(candidates::add);
        }
        int checked = 0;
        for (StoredVerdict stored : candidates) {
            Optional<Crawler> crawler = catalog.crawler(stored.crawler());
            if (crawler.isPresent() && crawler.get().verifiable()) {
                verifier.recheck(stored.ip(), crawler.get(), stored.verdict());
                checked++;
            }
        }
        if (checked > 0) {
            LOG.info("checking {} verdicts again{}", checked, listsChanged ? " (an IP list changed)" : "");
        }
        if (verifier.signatures() != null) {
            // round after round while some settle: an import leaves a big log's signatures to serve, up to 100,000
            int settled = 0;
            for (int rounds = 0; rounds <= SignedHits.MAX_PENDING / SignatureKeeping.RECHECK_ROUND; rounds++) {
                int round = SignatureKeeping.recheck(signatures, verdicts, verifier.signatures()).size();
                settled += round;
                if (round == 0) {
                    break;
                }
            }
            if (settled > 0) {
                LOG.info("{} signatures checked again, their directories read", settled);
            }
            checked += settled;
        }
        return checked;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
