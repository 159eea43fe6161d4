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
    /**
     * How long what was said of the evidence is said again without asking the verifier: its lines change by the minute
     * (a list's times, its age by the day) or when a list is read again, and every page asks them (a kept first page
     * too, whose address holds them): asked each time, they were 13% of the CPU of a first page answered from memory
     * under 64 readers (BENCHMARKS.md, branch prerender).
     */
    static final long REUSE_NANOS = 1_000_000_000L;

    private record Said(List<String> sources, Optional<String> nothingProvable, long atNanos) {
    }

    private final CrawlerVerifier verifier;
    private final long waitUntil;
    private volatile Said sources;
    private volatile Said nothingProvable;

    ServedEvidence(CrawlerVerifier verifier) {
        this.verifier = verifier;
        this.waitUntil = System.nanoTime() + FIRST_WAIT.toNanos();
        Threads.startDaemon("evidence-check", this::nothingProvable);
    }

    @Override
    public List<String> sources() {
        Said said = sources;
        long now = System.nanoTime();
        if (said != null && now - said.atNanos() < REUSE_NANOS) {
            return said.sources(); // the same list: the report's kept pages compare it by reference first
        }
        List<String> lines = List.copyOf(verifier.describeEvidence(Instant.now()));
        sources = new Said(lines, null, now);
        return lines;
    }

    @Override
    public Optional<String> nothingProvable() {
        Said said = nothingProvable;
        long now = System.nanoTime();
        if (said != null && now - said.atNanos() < REUSE_NANOS) {
            return said.nothingProvable();
        }
        try {
            Optional<String> sentence = NothingProvable.of(verifier, Duration.ofNanos(Math.max(0, waitUntil - now)));
            if (now - waitUntil >= 0) { // past the first wait: what it says now holds for a while
                nothingProvable = new Said(null, sentence, now);
            }
            return sentence;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
