package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.CrawlerVerifier;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.CombinedLineParser;
import dev.crawlerrors.ingest.FormatChooser;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.LogReader;
import dev.crawlerrors.ingest.LogSource;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StatusRange;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;

/**
 * The import flow, wired: read and parse (ingest), identify and verify (crawler), append (store).
 * Human lines never leave the parser threads; crawler hits reach the store in log order.
 */
public final class LogImport {

    private final HitStore store;
    private final CrawlerIdentifier identifier;
    /** How long an import waits at its end for DNS checks still running, so their verdicts are stored. */
    static final long PENDING_CHECKS_WAIT_MS = 10_000;

    private final CrawlerVerifier verifier;
    private final Map<String, Claim> claims = new HashMap<>();
    private final FormatChooser formats;

    /** An import of combined logs. */
    public LogImport(HitStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier) {
        this(store, identifier, verifier, FormatChooser.of(new CombinedLineParser()));
    }

    /** An import that reads each source in the format {@code formats} chooses for it ({@code --format}). */
    public LogImport(HitStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier, FormatChooser formats) {
        this.store = store;
        this.identifier = identifier;
        this.verifier = verifier;
        this.formats = formats;
        verifier.onChange((ip, crawler, verdict) -> store.updateVerdict(ip, crawler.name(), verdict));
    }

    /**
     * Imports every source in turn. A source that cannot be opened is reported and skipped; the
     * others are still imported.
     */
    public ImportSummary run(List<String> sources, boolean terminal, PrintStream log) throws Exception {
        ImportSummary summary = new ImportSummary();
        long started = System.nanoTime();
        try (LogReader reader = new LogReader(formats)) {
            for (String name : sources) {
                LogSource source = LogSource.of(name);
                try (InputStream in = source.open();
                     ImportProgress progress = new ImportProgress(source, summary.lines.linesRead(), terminal, log)) {
                    ParseCounts counts = reader.read(in, source.name(), identifier, hits -> store(hits, summary), progress);
                    summary.lines.addAll(counts);
                } catch (IOException e) {
                    summary.lines.addAll(unreadable(e.getMessage()));
                }
            }
        }
        summary.pendingChecks = verifier.awaitPending(PENDING_CHECKS_WAIT_MS);
        countVerdicts(summary);
        summary.nanos = System.nanoTime() - started;
        summary.lists = verifier.lists().loadedLists();
        summary.listFailures = verifier.lists().listFailures();
        return summary;
    }

    private void store(List<Hit> hits, ImportSummary summary) {
        List<CrawlerHit> crawlerHits = new ArrayList<>(hits.size());
        for (Hit hit : hits) {
            Optional<Crawler> crawler = identifier.identify(hit.userAgent());
            if (crawler.isEmpty()) {
                continue; // the byte filter saw escapes that the unescaped agent no longer matches
            }
            Verdict verdict = verifier.verify(hit.ip(), crawler.get());
            crawlerHits.add(new CrawlerHit(hit, crawler.get(), verdict));
            Claim claim = claims.computeIfAbsent(hit.ip() + ' ' + crawler.get().name(), k -> new Claim(hit.ip(), crawler.get()));
            claim.hits++;
            if (hit.status() >= StatusRange.ERRORS.low()) {
                claim.errorHits++;
            }
        }
        store.append(crawlerHits);
        summary.crawlerHits += crawlerHits.size();
    }

    /** Counts hits by the verdict their address has at the end (DNS checks may have changed it). */
    private void countVerdicts(ImportSummary summary) {
        for (Claim claim : claims.values()) {
            Verdict verdict = verifier.verify(claim.ip, claim.crawler);
            summary.verdicts.merge(verdict.verification(), claim.hits, Long::sum);
            if (verdict.verification() == Verification.spoofed) {
                summary.spoofedErrorHits += claim.errorHits;
            } else {
                summary.errorHits += claim.errorHits;
            }
        }
    }

    /** The hits of one address claiming one crawler. */
    private static final class Claim {
        final String ip;
        final Crawler crawler;
        long hits;
        long errorHits;

        Claim(String ip, Crawler crawler) {
            this.ip = ip;
            this.crawler = crawler;
        }
    }

    private static ParseCounts unreadable(String message) {
        ParseCounts counts = new ParseCounts();
        counts.sourceError(message);
        return counts;
    }
}
