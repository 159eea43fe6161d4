package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.NothingProvable;
import dev.crawlerrors.text.Threads;
import dev.crawlerrors.web.VerdictEvidence;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What serve's report says of its verifier's evidence. Whether anything can be proven is known
 * from the first request: the lists are read and the resolver checked from serve's start, and the
 * pages asked in its first seconds wait for them (a few milliseconds from a directory and a
 * resolver on the network; {@link #FIRST_WAIT} at most, once).
 */
final class ServedEvidence implements VerdictEvidence {

    static final Duration FIRST_WAIT = Duration.ofSeconds(3);

    private final CrawlerVerifier verifier;
    private final long waitUntil;

    ServedEvidence(CrawlerVerifier verifier) {
        this.verifier = verifier;
        this.waitUntil = System.nanoTime() + FIRST_WAIT.toNanos();
        Threads.startDaemon("evidence-check", this::nothingProvable);
    }

    @Override
    public List<String> sources() {
        return verifier.describeEvidence(Instant.now());
    }

    @Override
    public Optional<String> nothingProvable() {
        try {
            return NothingProvable.of(verifier, Duration.ofNanos(Math.max(0, waitUntil - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
