package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.dns.DnsEvidence;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.ResolverCheck;
import dev.crawlerrors.ingest.Hit;
import inet.ipaddr.IPAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides whether a request really came from the crawler it names, from the operator's published
 * IP lists and, where the operator documents it, reverse-then-forward DNS.
 *
 * <p>It never blocks the caller: {@link #verify} answers at once, from what it already knows. A
 * claim that needs a list still being read, or a DNS answer, gets a provisional verdict and is
 * queued (once per address and crawler, however many hits it has); when the evidence arrives, the
 * {@link VerdictListener} hears the final verdict (the store updates the address's verdict, so the
 * report shows it "as of now"). An import waits a little for what is queued at its end
 * ({@link #awaitPending}) and hands the rest to {@code serve}, which checks provisional verdicts
 * again.
 *
 * <p>How the evidence combines:
 * <ul>
 *   <li>a trusted proxy's address with no client behind it, or a private address: {@code unverified}
 *       (the client is unknown; it is not a liar);
 *   <li>in a list: {@code verified};
 *   <li>not in any list (every list read; the lists are authoritative): {@code spoofed}, unless
 *       reverse DNS confirms the address (lists lag behind new ranges), which makes it {@code verified};
 *       but a claim verified before (the list changed since) becomes {@code unverified}, never
 *       {@code spoofed}, on the list's word alone;
 *   <li>no list, or a list that could not be read: DNS decides ({@code verified} when confirmed,
 *       {@code spoofed} when refuted); without DNS, or when DNS fails or times out, {@code unverified},
 *       and the address is re-checked later ({@link #recheckTransient});
 *   <li>DNS answers count only from a resolver that passed its check ({@link ResolverCheck}): one
 *       that answers NXDOMAIN to Googlebot's own address would otherwise call every crawler a liar.
 * </ul>
 * A request that carries a Web Bot Auth signature is verified by its signature instead
 * ({@link #signatures()}), whatever its address.
 */
public final class CrawlerVerifier implements AutoCloseable {

    /** Told of a verdict reached after {@link #verify} returned. Called from DNS and list-loading threads. */
    @FunctionalInterface
    public interface VerdictListener {
        void changed(String ip, Crawler crawler, Verdict verdict);
    }

    /** Words in the reason of a verdict that rests on a check still to come or to be repeated. */
    public static final String CHECK_PENDING = "check pending";
    public static final String CHECK_AGAIN = "will check again";

    /** Claims verified before the lists changed, remembered at most: beyond it the oldest knowledge is dropped. */
    private static final int MAX_VERIFIED_BEFORE = 100_000;

    private final IpRangeVerifier lists;
    private final DnsVerifier dns;
    private final ResolverCheck resolver;
    private final TrustedProxies proxies;
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
    /** Claims whose evidence is still to come (a list being read, a DNS check), with their provisional verdict. */
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Map<String, Claim> transientFailures = new ConcurrentHashMap<>();
    /** Claims that were verified before the lists changed, with that verdict. */
    private final Map<String, Verdict> verifiedBefore = new ConcurrentHashMap<>();
    private volatile VerdictListener listener = (ip, crawler, verdict) -> { };
    /** Who verifies the requests that carry a signature; null when signatures are not checked. */
    private volatile SignedHits signatures;

    private static final int RECENT_SLOTS = 4096;

    /**
     * Lists and DNS, the resolver checked against the default canary, no trusted proxies.
     *
     * @param dns null when DNS checks are off
     */
    public CrawlerVerifier(IpRangeVerifier lists, DnsVerifier dns) {
        this(lists, dns, dns == null ? null : ResolverCheck.of(dns, ResolverCheck.DEFAULT_CANARY), TrustedProxies.NONE);
    }

    /**
     * @param dns      null when DNS checks are off
     * @param resolver the check of {@code dns}'s resolver; null to believe it unchecked
     * @param proxies  the proxies whose logged address stands for a client behind them
     */
    public CrawlerVerifier(IpRangeVerifier lists, DnsVerifier dns, ResolverCheck resolver, TrustedProxies proxies) {
        this.lists = lists;
        this.dns = dns;
        this.resolver = dns == null ? null : resolver;
        this.proxies = proxies;
    }

    public void onChange(VerdictListener listener) {
        this.listener = listener;
    }

    public IpRangeVerifier lists() {
        return lists;
    }

    /** Who verifies signed requests, or null when none does (they are then taken by their agent as any other). */
    public SignedHits signatures() {
        return signatures;
    }

    /** Signed requests are verified by {@code signed} from now on. */
    public void signatures(SignedHits signed) {
        this.signatures = signed;
    }

    /** {@code hit} as made by the client behind the trusted proxy that logged it, or as it is. */
    public Hit client(Hit hit) {
        if (!proxies.isEmpty()) {
            String client = proxies.client(hit.ip(), hit.forwardedFor());
            if (client != null && client != hit.ip()) {
                return hit.madeBy(client);
            }
        }
        return hit;
    }

    /** The verdict as known now; starts the checks it needs when none is running. */
    public Verdict verify(String ip, Crawler crawler) {
        String key = key(ip, crawler);
        Settled known = settled.get(key);
        if (known != null) {
            return known.verdict();
        }
        return decide(key, ip, crawler, null);
    }

    /**
     * {@code hit}, made by an address that claims to be {@code crawler}, with its verdict as
     * {@link #verify(String, Crawler)} gives it; when the logged address is a trusted proxy, the hit
     * is its client's. The claim key is made here once a hit: the verifier, the store and the import
     * all keep something per claim, and the import used to build and hash it twice for every crawler hit.
     */
    public CrawlerHit verify(Hit hit, Crawler crawler) {
        hit = client(hit);
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

    /**
     * Decides what can be decided now, or queues the claim for the evidence it waits for and
     * answers with a provisional verdict. {@code startedCheck}, when given, is set to true when
     * the decision was queued: its completion tells the listener itself.
     */
    private Verdict decide(String key, String ip, Crawler crawler, boolean[] startedCheck) {
        Pending waiting = pending.get(key);
        if (waiting != null) {
            mark(startedCheck);
            return waiting.provisional();
        }
        Verdict early = beforeLists(ip, crawler);
        if (early != null) {
            return settle(key, early, null);
        }
        ListCheck list = lists.checkNow(ip, crawler);
        if (list == null) {
            mark(startedCheck);
            return awaitLists(key, ip, crawler);
        }
        return decideWith(key, ip, crawler, list, startedCheck, null);
    }

    /** The verdict of an address no list or DNS can speak for: a trusted proxy's, or a private one. */
    private Verdict beforeLists(String ip, Crawler crawler) {
        IPAddress address = IpAddresses.parse(ip);
        if (address == null) {
            return null; // the lists say it is not an address
        }
        if (proxies.contains(ip)) {
            return new Verdict(Verification.unverified, "claims " + crawler.name() + "; " + ip
                    + " is a trusted proxy (--trusted-proxies) and the line records no client address behind it");
        }
        if (IpAddresses.isPrivate(address)) {
            return new Verdict(Verification.unverified, "claims " + crawler.name() + "; " + ip
                    + " is a private address: the request came through a proxy that recorded no client"
                    + " (log X-Forwarded-For and name the proxy with --trusted-proxies)");
        }
        return null;
    }

    /** Queues {@code key} until the crawler's lists are read, then decides it. */
    private Verdict awaitLists(String key, String ip, Crawler crawler) {
        Verdict provisional = new Verdict(Verification.unverified, "claims " + crawler.name() + "; " + CHECK_PENDING
                + " (reading " + String.join(", ", crawler.ipLists()) + ")");
        Pending created = new Pending(provisional, new CompletableFuture<>(), true);
        Pending running = pending.putIfAbsent(key, created);
        if (running != null) {
            return running.provisional();
        }
        lists.loaded(crawler).whenComplete((done, error) -> {
            try {
                boolean[] startedCheck = {false};
                Verdict verdict = decideWith(key, ip, crawler, lists.check(ip, crawler), startedCheck, created);
                if (!startedCheck[0]) {
                    // told before it leaves the queue: an empty queue means every verdict was told
                    try {
                        listener.changed(ip, crawler, verdict);
                    } finally {
                        pending.remove(key, created);
                        created.result().complete(verdict);
                    }
                }
            } catch (RuntimeException e) {
                pending.remove(key, created);
                created.result().complete(provisional);
            }
        });
        return provisional;
    }

    /**
     * Decides from the lists' answer, or starts a DNS check. {@code replacing} is the queue entry
     * of a claim that waited for its lists: a DNS check takes its place (so the claim never looks
     * decided while it is not), and completes it.
     */
    private Verdict decideWith(String key, String ip, Crawler crawler, ListCheck list, boolean[] startedCheck, Pending replacing) {
        if (list.kind() == ListCheck.Kind.LISTED) {
            return settle(key, new Verdict(Verification.verified, list.evidence()), null);
        }
        Verdict before = verifiedBefore.get(key);
        if (dns == null || crawler.dnsDomains().isEmpty()) {
            Verdict verdict = VerdictRules.listVerdict(crawler, list, before);
            if (dns == null && !crawler.dnsDomains().isEmpty() && list.kind() != ListCheck.Kind.NOT_LISTED) {
                verdict = new Verdict(verdict.verification(), verdict.reason() + "; DNS checks are off");
            }
            return settle(key, verdict, verdict.verification() == Verification.unverified && crawler.verifiable()
                    ? new Claim(ip, crawler) : null);
        }
        Verdict provisional = VerdictRules.provisional(crawler, list, before);
        CompletableFuture<Verdict> check = startDnsCheck(key, ip, crawler, list, before, provisional, replacing);
        mark(startedCheck);
        Verdict now = check.getNow(null);
        return now != null ? now : provisional;
    }

    /**
     * The final verdict, waiting up to {@code timeoutMillis} for the lists and DNS check it needs;
     * the provisional one when they do not finish in time.
     */
    public Verdict verifyAndWait(String ip, Crawler crawler, long timeoutMillis) throws InterruptedException {
        Verdict first = verify(ip, crawler);
        Pending check = pending.get(key(ip, crawler));
        if (check == null) {
            Settled known = settled.get(key(ip, crawler));
            return known == null ? first : known.verdict();
        }
        try {
            return check.result().get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            return first;
        }
    }

    /** Waits until no claim is queued, or {@code timeoutMillis} passed; returns how many still are. */
    public int awaitPending(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!pending.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            List<CompletableFuture<Verdict>> running = new ArrayList<>();
            pending.values().forEach(p -> running.add(p.result()));
            try {
                CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                // the loop checks the deadline
            }
        }
        return pending.size();
    }

    /** What is queued now: claims waiting for lists and for DNS, and the lists being read. */
    public PendingChecks pendingChecks() {
        int forLists = 0;
        for (Pending p : pending.values()) {
            forLists += p.forLists() ? 1 : 0;
        }
        return new PendingChecks(forLists, pending.size() - forLists, lists.loading());
    }

    /**
     * Claims still queued, as a summary says it.
     *
     * @param forLists claims waiting for a list being read
     * @param forDns   claims waiting for a DNS answer
     * @param loading  the lists still being read
     */
    public record PendingChecks(int forLists, int forDns, List<String> loading) {

        public int total() {
            return forLists + forDns;
        }
    }

    /**
     * What the verdicts rest on, one line each, for the report page and summaries: every published
     * list read (with its age as of {@code now}) or not read, each Web Bot Auth key directory read
     * or tried, and the DNS resolver's health once it was checked.
     */
    public List<String> describeEvidence(java.time.Instant now) {
        List<String> lines = new ArrayList<>(lists.describeLists(now));
        SignedHits signed = signatures;
        if (signed != null) {
            lines.addAll(signed.verifier().directories().describe());
        }
        resolverHealth().ifPresent(health -> lines.add("DNS: " + health.description()));
        return lines;
    }

    /** Whether DNS checks are on (they are off with {@code --dns-server none}). */
    public boolean checksDns() {
        return dns != null;
    }

    /** The resolver asked, as {@code --dns-server} names it; null when DNS checks are off. */
    public String dnsServer() {
        return dns == null ? null : dns.server();
    }

    /** Why the resolver's answers are not believed, when its last check failed; empty otherwise. */
    public Optional<String> resolverProblem() {
        return resolverHealth().filter(health -> !health.trusted()).map(ResolverCheck.Health::description);
    }

    /** The resolver's health as last checked; empty when DNS is off, unchecked, or not checked yet. */
    public Optional<ResolverCheck.Health> resolverHealth() {
        return resolver == null ? Optional.empty() : resolver.known();
    }

    /** The resolver's health, checking it now (or taking the check that holds), waiting up to {@code timeoutMillis}. */
    public Optional<ResolverCheck.Health> resolverHealth(long timeoutMillis) throws InterruptedException {
        if (resolver == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(resolver.health().get(timeoutMillis, TimeUnit.MILLISECONDS));
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            return resolver.known();
        }
    }

    /**
     * The evidence behind one claim, for {@code crawl-errors verify}: the lists' answer, the lists it
     * rests on, the DNS answers and the resolver's health (each when there is one), and the verdict.
     * Waits up to {@code timeoutMillis} for each.
     */
    public Explanation explain(String ip, Crawler crawler, long timeoutMillis) throws InterruptedException {
        Verdict verdict = verifyAndWait(ip, crawler, timeoutMillis);
        ListCheck list = lists.check(ip, crawler);
        DnsEvidence evidence = null;
        if (dns != null && !crawler.dnsDomains().isEmpty() && beforeLists(ip, crawler) == null) {
            try {
                // the answers are cached by now: this shows them without asking again
                evidence = dns.check(ip, crawler.dnsDomains()).get(timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                evidence = null;
            }
        }
        Optional<ResolverCheck.Health> health = dns == null || crawler.dnsDomains().isEmpty() ? Optional.empty()
                : resolverHealth(timeoutMillis);
        return new Explanation(list, lists.listsOf(crawler), Optional.ofNullable(evidence), health, verdict);
    }

    /** What {@link #explain} found. */
    public record Explanation(ListCheck list, List<IpRangeList> listsRead, Optional<DnsEvidence> dns,
            Optional<ResolverCheck.Health> resolver, Verdict verdict) {
    }

    /** Checks again, now, an address whose verdict rests on a failed or unfinished check. */
    public void recheck(String ip, Crawler crawler) {
        recheck(ip, crawler, null);
    }

    /**
     * Checks again, now, a claim whose recorded verdict is {@code previous} (null when unknown): a
     * verified one is remembered, so the list's word alone cannot make it spoofed.
     */
    public void recheck(String ip, Crawler crawler, Verdict previous) {
        String key = key(ip, crawler);
        if (previous != null && previous.verification() == Verification.verified) {
            rememberVerified(key, previous);
        }
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

    /**
     * Forgets every verdict (the lists changed); the next {@link #verify} decides afresh. Verified
     * claims are remembered as such: a changed list alone does not make them spoofed.
     */
    public void forgetVerdicts() {
        settled.forEach((key, known) -> {
            if (known.verdict().verification() == Verification.verified) {
                rememberVerified(key, known.verdict());
            }
        });
        settled.clear();
        changes.incrementAndGet();
        transientFailures.clear();
    }

    private void rememberVerified(String key, Verdict verdict) {
        if (verifiedBefore.size() >= MAX_VERIFIED_BEFORE) {
            verifiedBefore.clear();
        }
        verifiedBefore.put(key, verdict);
    }

    private CompletableFuture<Verdict> startDnsCheck(String key, String ip, Crawler crawler, ListCheck list, Verdict before,
            Verdict provisional, Pending replacing) {
        Pending created = new Pending(provisional, new CompletableFuture<>(), false);
        if (replacing == null) {
            Pending running = pending.putIfAbsent(key, created);
            if (running != null) {
                return running.result();
            }
        } else {
            pending.put(key, created);
            created.result().whenComplete((verdict, error) -> replacing.result().complete(verdict));
        }
        dnsEvidence(ip, crawler).whenComplete((evidence, error) -> {
            DnsEvidence result = error == null ? evidence
                    : new DnsEvidence(DnsEvidence.Outcome.FAILED, "the DNS check failed: " + error);
            Verdict verdict = VerdictRules.combine(ip, crawler, list, result, before);
            settle(key, verdict, result.outcome() == DnsEvidence.Outcome.FAILED ? new Claim(ip, crawler) : null);
            try {
                listener.changed(ip, crawler, verdict);
            } finally {
                pending.remove(key, created);
                created.result().complete(verdict);
            }
        });
        return created.result();
    }

    /** The DNS evidence for a claim, counted only when the resolver passed its check. */
    private CompletableFuture<DnsEvidence> dnsEvidence(String ip, Crawler crawler) {
        if (resolver == null) {
            return dns.check(ip, crawler.dnsDomains());
        }
        CompletableFuture<ResolverCheck.Health> health = resolver.health();
        ResolverCheck.Health known = health.getNow(null);
        if (known != null && !known.trusted()) {
            // its answers would not count: not asked (an expired result is checked again at the next claim)
            return CompletableFuture.completedFuture(untrusted(null));
        }
        return dns.check(ip, crawler.dnsDomains()).thenCombine(health,
                (evidence, checked) -> checked.trusted() ? evidence : untrusted(evidence));
    }

    /**
     * The evidence of a resolver that failed its check: none, whatever it answered (and worded the
     * same whether it was asked before its failure was known or not, so that one log imported twice
     * gets the same reasons).
     */
    private DnsEvidence untrusted(DnsEvidence evidence) {
        return new DnsEvidence(DnsEvidence.Outcome.FAILED, "the DNS resolver " + dns.server() + " failed its check, so its answers"
                + " are not believed", evidence == null ? List.of() : evidence.answers());
    }

    private Verdict settle(String key, Verdict verdict, Claim retry) {
        settled.merge(key, new Settled(key, verdict), (old, now) -> new Settled(old.claim(), now.verdict()));
        changes.incrementAndGet();
        if (retry != null) {
            transientFailures.put(key, retry);
        }
        if (verdict.verification() != Verification.unverified) {
            verifiedBefore.remove(key);
        }
        return verdict;
    }

    private static void mark(boolean[] startedCheck) {
        if (startedCheck != null) {
            startedCheck[0] = true;
        }
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

    /** A claim waiting for its evidence: the verdict it shows meanwhile, and the final one when it comes. */
    private record Pending(Verdict provisional, CompletableFuture<Verdict> result, boolean forLists) {
    }

    /** A claim's verdict, and the claim's key as it was first made. */
    private record Settled(String claim, Verdict verdict) {
    }

    /** What an address string and a crawler were last found settled as, and {@link #changes} when it was looked up. */
    private record Recent(String ip, Crawler crawler, Settled known, long changes) {
    }
}
