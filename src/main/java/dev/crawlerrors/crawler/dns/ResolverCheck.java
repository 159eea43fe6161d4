package dev.crawlerrors.crawler.dns;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Whether a resolver's answers can be believed, found by asking it something whose answer is known:
 * the canary, an address whose PTR must be in a given name pattern and resolve back to it, checked
 * as a crawler's address is. By default that is Googlebot's {@code 66.249.66.1}, whose PTR is
 * {@code crawl-66-249-66-1.googlebot.com}. A resolver that answers NXDOMAIN to every reverse lookup
 * (split-horizon and air-gapped corporate resolvers do) fails it, and its NXDOMAINs then prove
 * nothing: a genuine Googlebot would be called a liar by a resolver that cannot see Google's zone.
 *
 * <p>The result is kept {@value #TRUSTED_MINUTES} minutes when the resolver passed, and
 * {@value #BROKEN_MINUTES} minute when it failed, so a long-running {@code serve} notices a
 * resolver that is fixed (or breaks). A failed check also empties the answer cache, so the broken
 * resolver's negative answers do not outlive it.
 */
public final class ResolverCheck {

    /** The canary unless {@code --dns-canary} names another: Googlebot's address and Google's documented name for it. */
    public static final String DEFAULT_CANARY = "66.249.66.1=crawl-*.googlebot.com";
    static final int TRUSTED_MINUTES = 60;
    static final int BROKEN_MINUTES = 1;

    private final DnsVerifier dns;
    private final String ip;
    private final List<String> names;
    private final LongSupplier nanoTime;
    private volatile Check current;
    /** What the last check that finished found: kept while the next one runs. */
    private volatile Health last;

    /** What a check found: whether the resolver's answers count, and one sentence that says why. */
    public record Health(boolean trusted, String description) {
    }

    private record Check(CompletableFuture<Health> result, long startedAt) {
    }

    private ResolverCheck(DnsVerifier dns, String ip, List<String> names, LongSupplier nanoTime) {
        this.dns = dns;
        this.ip = ip;
        this.names = names;
        this.nanoTime = nanoTime;
    }

    /**
     * A check of {@code dns}'s resolver against {@code canary}, written {@code IP=PATTERN[,PATTERN...]}
     * (the PTR of IP must match a pattern and resolve back to IP), e.g. {@value #DEFAULT_CANARY}.
     *
     * @throws IllegalArgumentException naming the value and the form expected
     */
    public static ResolverCheck of(DnsVerifier dns, String canary) {
        return of(dns, canary, System::nanoTime);
    }

    static ResolverCheck of(DnsVerifier dns, String canary, LongSupplier nanoTime) {
        int equals = canary.indexOf('=');
        String expected = "; expected IP=NAME-PATTERN such as " + DEFAULT_CANARY;
        if (equals <= 0 || equals == canary.length() - 1) {
            throw new IllegalArgumentException("'" + canary + "' is not a canary" + expected);
        }
        String ip = canary.substring(0, equals).strip();
        if (org.xbill.DNS.Address.toByteArray(ip, org.xbill.DNS.Address.IPv4) == null
                && org.xbill.DNS.Address.toByteArray(ip, org.xbill.DNS.Address.IPv6) == null) {
            throw new IllegalArgumentException("'" + ip + "' in '" + canary + "' is not an IP address" + expected);
        }
        List<String> names = Arrays.stream(canary.substring(equals + 1).split(",")).map(String::strip).toList();
        for (String name : names) {
            try {
                NamePattern.parse(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + " (in the canary '" + canary + "')");
            }
        }
        return new ResolverCheck(dns, ip, names, nanoTime);
    }

    /** The resolver's health: the last result while it holds, else a new check, started now. */
    public CompletableFuture<Health> health() {
        Check check = current;
        long now = nanoTime.getAsLong();
        if (check != null && (!check.result().isDone() || now - check.startedAt() < holds(check.result().getNow(null)))) {
            return check.result();
        }
        synchronized (this) {
            if (current != check) {
                return current.result();
            }
            CompletableFuture<Health> result = dns.check(ip, names).thenApply(this::health).whenComplete((health, error) -> {
                if (health != null) {
                    last = health;
                }
            });
            current = new Check(result, now);
            return result;
        }
    }

    /** The result of the last check that finished, when one has (the one before while a new one runs). */
    public Optional<Health> known() {
        Check check = current;
        Health now = check == null ? null : check.result().getNow(null);
        return Optional.ofNullable(now != null ? now : last);
    }

    /** The canary as given, for messages. */
    public String canary() {
        return ip + "=" + String.join(",", names);
    }

    private long holds(Health health) {
        return Duration.ofMinutes(health == null || health.trusted() ? TRUSTED_MINUTES : BROKEN_MINUTES).toNanos();
    }

    private Health health(DnsEvidence evidence) {
        String resolver = "the DNS resolver " + dns.server();
        return switch (evidence.outcome()) {
            case CONFIRMED -> new Health(true, resolver + " passed its check (" + ip + ": " + evidence.reason() + ")");
            case REFUTED -> broken(resolver + " failed its check: " + evidence.reason() + ", where " + ip + " must have a PTR in "
                    + String.join(", ", names) + "; its answers are not believed, so verdicts that rest on DNS alone stay unverified");
            case FAILED -> broken(resolver + " could not answer its check (" + evidence.reason()
                    + "); verdicts that rest on DNS alone stay unverified");
        };
    }

    private Health broken(String description) {
        dns.forgetAnswers();
        return new Health(false, description);
    }
}
