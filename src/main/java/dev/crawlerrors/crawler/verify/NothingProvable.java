package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.dns.ResolverCheck;
import dev.crawlerrors.text.Figures;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether a verifier can prove any verdict now, said in one sentence when it cannot: no published
 * IP list could be read, and DNS is off or its resolver failed its check. Then every crawler hit
 * is unverified but those a Web Bot Auth signature proves, and the report's first screen says why and
 * what to do, instead of the reasons of a hundred rows and the list of lists under them.
 */
public final class NothingProvable {

    private NothingProvable() {
    }

    /**
     * The sentence, when nothing can be proven; empty when something can, or when that is not
     * known within {@code wait} (the lists and the resolver's check start now if they have not).
     */
    public static Optional<String> of(CrawlerVerifier verifier, Duration wait) throws InterruptedException {
        IpRangeVerifier lists = verifier.lists();
        long deadline = System.nanoTime() + wait.toNanos();
        var loaded = lists.allLoaded();
        verifier.resolverHealth(0); // starts its check, if none holds, while the lists are read
        try {
            loaded.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return Optional.empty();
        }
        int failed = lists.listFailures().size();
        if (!lists.loadedLists().isEmpty() || failed == 0) {
            return Optional.empty();
        }
        String dns;
        String dnsFix;
        if (!verifier.checksDns()) {
            dns = "DNS checks are off";
            dnsFix = "give --dns-server a resolver";
        } else {
            long left = TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline - System.nanoTime()));
            Optional<ResolverCheck.Health> health = verifier.resolverHealth(left);
            if (health.isEmpty() || health.get().trusted()) {
                return Optional.empty(); // a resolver believed (or not known yet) can prove a verdict
            }
            dns = "the DNS resolver " + verifier.dnsServer() + " failed its check";
            dnsFix = "give --dns-server a resolver that answers";
        }
        // a signed request is proven by its signature, not its address: where signatures are checked, those can be
        boolean signed = verifier.signatures() != null;
        return Optional.of("No crawler can be verified" + (signed ? " by its address: " : ": ") + (failed == 1
                ? "the published IP list could not" : "none of the " + Figures.grouped(failed) + " published IP lists could")
                + " be read from " + lists.source().describe() + " and " + dns + ", so every hit "
                + (signed ? "but those a Web Bot Auth signature proves " : "") + "is unverified; " + lists.source().whenNoneCanBeRead()
                + " or " + dnsFix + ", and serve checks the hits again by itself.");
    }
}
