package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.dns.DnsEvidence;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.ingest.Hit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides whether a request really came from the crawler it names, from the operator's published
 * IP lists and, where the operator documents it, reverse-then-forward DNS.
 *
 * <p>It never blocks the caller: {@link #verify} answers at once, from the lists and from what it
 * already knows. When a DNS check is needed it starts one and answers with a provisional verdict;
 * when the check completes, the {@link VerdictListener} hears the final one (the store updates the
 * address's verdict, so the report shows it "as of now").
 *
 * <p>How the evidence combines:
 * <ul>
 *   <li>in a list: {@code verified};
 *   <li>not in any list (every list read; the lists are authoritative): {@code spoofed}, unless
 *       reverse DNS confirms the address (lists lag behind new ranges), which makes it {@code verified};
 *   <li>no list, or a list that could not be read: DNS decides ({@code verified} when confirmed,
 *       {@code spoofed} when refuted); without DNS, or when DNS fails, {@code unverified}, and the
 *       address is re-checked later ({@link #recheckTransient}).
 * </ul>
 */
public final class CrawlerVerifier implements AutoCloseable {

    /** Told of a verdict reached after {@link #verify} returned. Called from DNS threads. */
    @FunctionalInterface
    public interface VerdictListener {
        void changed(String ip, Crawler crawler, Verdict verdict);
    }

    private final IpRangeVerifier lists;
    private final DnsVerifier dns;
    /**
     * The verdict of each claim, with the claim's key as first made: hits of one claim all carry that
     * one key, so the store's and the import's maps find it by identity instead of comparing text.
     */
    private final Map<String, Settled> settled = new ConcurrentHashMap<>();
    /**
     * The claims last looked up, by the identity of the address string and the crawler: the
     * combined parser gives each address one string (RecurringText), so most hits find their claim
     * here without building and hashing a key of their own, and with its verdict while nothing
     * was settled since ({@link #changes}); else the verdict is read from {@link #settled}, with the
     * claim's own key (its hash kept, found by identity), so a change made since shows at once.
     */
    private final Recent[] recent = new Recent[RECENT_SLOTS];
    /**
     * Counts the changes to {@link #settled}, each counted after it is made: a claim remembered in
     * {@link #recent} with the count read before it was looked up is still settled as remembered
     * while the count has not moved, and {@link #verify} then answers without the map (whose
     * lookup was most of its time, 128 of 320 samples in a 5,000,000-line import).
     */
    private final AtomicLong changes = new AtomicLong();
    private final Map<String, CompletableFuture<Verdict>> pending = new ConcurrentHashMap<>();
    private final Map<String, Claim> transientFailures = new ConcurrentHashMap<>();
    private volatile VerdictListener listener = (ip, crawler, verdict) -> { };

    private static final int RECENT_SLOTS = 4096;

    /**
     * @param dns null when DNS checks are off
     */
    public CrawlerVerifier(IpRangeVerifier lists, DnsVerifier dns) {
        this.lists = lists;
        this.dns = dns;
    }

    public void onChange(VerdictListener listener) {
        this.listener = listener;
    }

    public IpRangeVerifier lists() {
        return lists;
    }

    /** The verdict as known now; starts a DNS check when one is needed and none is running. */
    public Verdict verify(String ip, Crawler crawler) {
        return verdict(key(ip, crawler), ip, crawler);
    }

    /**
     * {@code hit}, made by an address that claims to be {@code crawler}, with its verdict as
     * {@link #verify(String, Crawler)} gives it. The claim key is made here once a hit: the verifier,
     * the store and the import all keep something per claim, and the import used to build and hash
     * it twice for every crawler hit.
     */
    public CrawlerHit verify(Hit hit, Crawler crawler) {
        String ip = hit.ip();
        long seen = changes.get();
        int slot = (System.identityHashCode(ip) * 31 + System.identityHashCode(crawler)) & (RECENT_SLOTS - 1);
        Recent last = recent[slot];
        boolean remembered = last != null && last.ip == ip && last.crawler == crawler;
        if (remembered && last.changes == seen) {
            return new CrawlerHit(hit, crawler, last.known.verdict(), last.known.claim());
        }
        String claim = remembered ? last.known.claim() : CrawlerHit.claimKey(ip, crawler.name());
        Settled known = settled.get(claim);
        if (known != null) {
            recent[slot] = new Recent(ip, crawler, known, seen);
            return new CrawlerHit(hit, crawler, known.verdict(), known.claim());
        }
        return new CrawlerHit(hit, crawler, decide(claim, ip, crawler, null), claim);
    }

    private Verdict verdict(String key, String ip, Crawler crawler) {
        Settled known = settled.get(key);
        if (known != null) {
            return known.verdict();
        }
        return decide(key, ip, crawler, null);
    }

    /**
     * Decides from the lists, or starts a DNS check. {@code startedCheck}, when given, is set to
     * true when a DNS check was started: its completion tells the listener itself.
     */
    private Verdict decide(String key, String ip, Crawler crawler, boolean[] startedCheck) {
        ListCheck list = lists.check(ip, crawler);
        if (list.kind() == ListCheck.Kind.LISTED) {
            return settle(key, new Verdict(Verification.verified, list.evidence()), null);
        }
        if (dns == null || crawler.dnsDomains().isEmpty()) {
            Verdict verdict = lists.verify(ip, crawler);
            if (dns == null && !crawler.dnsDomains().isEmpty() && list.kind() != ListCheck.Kind.NOT_LISTED) {
                verdict = new Verdict(verdict.verification(), verdict.reason() + "; DNS checks are off");
            }
            return settle(key, verdict, verdict.verification() == Verification.unverified && crawler.verifiable()
                    ? new Claim(ip, crawler) : null);
        }
        Verdict provisional = provisional(crawler, list);
        CompletableFuture<Verdict> check = startDnsCheck(key, ip, crawler, list);
        if (startedCheck != null) {
            startedCheck[0] = true;
        }
        Verdict now = check.getNow(null);
        return now != null ? now : provisional;
    }

    /**
     * The final verdict, waiting up to {@code timeoutMillis} for a running DNS check; the
     * provisional one when the check does not finish in time.
     */
    public Verdict verifyAndWait(String ip, Crawler crawler, long timeoutMillis) throws InterruptedException {
        Verdict first = verify(ip, crawler);
        CompletableFuture<Verdict> check = pending.get(key(ip, crawler));
        if (check == null) {
            Settled known = settled.get(key(ip, crawler));
            return known == null ? first : known.verdict();
        }
        try {
            return check.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            return first;
        }
    }

    /** Waits until no DNS check is running, or {@code timeoutMillis} passed; returns how many still run. */
    public int awaitPending(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!pending.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            List<CompletableFuture<Verdict>> running = new ArrayList<>(pending.values());
            try {
                CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                // the loop checks the deadline
            }
        }
        return pending.size();
    }

    /** Checks again, now, an address whose verdict rests on a failed check (DNS timeout, unreadable list). */
    public void recheck(String ip, Crawler crawler) {
        String key = key(ip, crawler);
        settled.remove(key);
        changes.incrementAndGet();
        transientFailures.remove(key);
        // the check may complete (and tell the listener) before this line returns: asking
        // pending afterwards would tell the listener twice
        boolean[] startedCheck = {false};
        Verdict verdict = decide(key, ip, crawler, startedCheck);
        if (!startedCheck[0]) {
            listener.changed(ip, crawler, verdict);
        }
    }

    /** Re-checks every address whose verdict rests on a failed check; returns how many. */
    public int recheckTransient() {
        List<Claim> claims = new ArrayList<>(transientFailures.values());
        claims.forEach(claim -> recheck(claim.ip(), claim.crawler()));
        return claims.size();
    }

    /** Forgets every verdict (the lists changed); the next {@link #verify} decides afresh. */
    public void forgetVerdicts() {
        settled.clear();
        changes.incrementAndGet();
        transientFailures.clear();
    }

    private CompletableFuture<Verdict> startDnsCheck(String key, String ip, Crawler crawler, ListCheck list) {
        CompletableFuture<Verdict> created = new CompletableFuture<>();
        CompletableFuture<Verdict> running = pending.putIfAbsent(key, created);
        if (running != null) {
            return running;
        }
        dns.check(ip, crawler.dnsDomains()).whenComplete((evidence, error) -> {
            DnsEvidence result = error == null ? evidence
                    : new DnsEvidence(DnsEvidence.Outcome.FAILED, "the DNS check failed: " + error);
            Verdict verdict = combine(ip, crawler, list, result);
            settle(key, verdict, result.outcome() == DnsEvidence.Outcome.FAILED && list.kind() != ListCheck.Kind.NOT_LISTED
                    ? new Claim(ip, crawler) : null);
            pending.remove(key);
            try {
                listener.changed(ip, crawler, verdict);
            } finally {
                created.complete(verdict);
            }
        });
        return created;
    }

    private static Verdict provisional(Crawler crawler, ListCheck list) {
        String claims = "claims " + crawler.name() + "; ";
        return switch (list.kind()) {
            case NOT_LISTED -> new Verdict(Verification.spoofed, claims + list.evidence() + "; reverse DNS check pending");
            case UNREADABLE -> new Verdict(Verification.unverified, claims + "list not read (" + list.evidence() + "); reverse DNS check pending");
            default -> new Verdict(Verification.unverified, claims + "reverse DNS check pending");
        };
    }

    private static Verdict combine(String ip, Crawler crawler, ListCheck list, DnsEvidence dns) {
        String claims = "claims " + crawler.name() + "; ";
        return switch (dns.outcome()) {
            case CONFIRMED -> new Verdict(Verification.verified, list.kind() == ListCheck.Kind.NOT_LISTED
                    ? dns.reason() + " (" + ip + " is not in the published list yet)"
                    : dns.reason());
            case REFUTED -> new Verdict(Verification.spoofed, list.kind() == ListCheck.Kind.NOT_LISTED
                    ? claims + list.evidence() + " and " + dns.reason()
                    : claims + dns.reason());
            case FAILED -> list.kind() == ListCheck.Kind.NOT_LISTED
                    ? new Verdict(Verification.spoofed, claims + list.evidence() + "; reverse DNS could not be checked: " + dns.reason())
                    : new Verdict(Verification.unverified, claims + dns.reason() + "; will check again");
        };
    }

    private Verdict settle(String key, Verdict verdict, Claim retry) {
        settled.merge(key, new Settled(key, verdict), (old, now) -> new Settled(old.claim(), now.verdict()));
        changes.incrementAndGet();
        if (retry != null) {
            transientFailures.put(key, retry);
        }
        return verdict;
    }

    private static String key(String ip, Crawler crawler) {
        return CrawlerHit.claimKey(ip, crawler.name());
    }

    @Override
    public void close() {
        if (dns != null) {
            dns.close();
        }
    }

    private record Claim(String ip, Crawler crawler) {
    }

    /** A claim's verdict, and the claim's key as it was first made. */
    private record Settled(String claim, Verdict verdict) {
    }

    /** What an address string and a crawler were last found settled as, and {@link #changes} when it was looked up. */
    private record Recent(String ip, Crawler crawler, Settled known, long changes) {
    }
}
