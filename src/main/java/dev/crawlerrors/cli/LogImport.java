package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.IpRangeVerifier;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.CombinedLineParser;
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
import java.util.List;
import java.util.Optional;

/**
 * The import flow, wired: read and parse (ingest), identify and verify (crawler), append (store).
 * Human lines never leave the parser threads; crawler hits reach the store in log order.
 */
public final class LogImport {

    private final HitStore store;
    private final CrawlerIdentifier identifier;
    private final IpRangeVerifier verifier;

    public LogImport(HitStore store, CrawlerIdentifier identifier, IpRangeVerifier verifier) {
        this.store = store;
        this.identifier = identifier;
        this.verifier = verifier;
    }

    /**
     * Imports every source in turn. A source that cannot be opened is reported and skipped; the
     * others are still imported.
     */
    public ImportSummary run(List<String> sources, boolean terminal, PrintStream log) throws Exception {
        ImportSummary summary = new ImportSummary();
        long started = System.nanoTime();
        try (LogReader reader = new LogReader(new CombinedLineParser())) {
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
        summary.nanos = System.nanoTime() - started;
        summary.lists = verifier.loadedLists();
        summary.listFailures = verifier.listFailures();
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
            summary.verdicts.merge(verdict.verification(), 1L, Long::sum);
            if (hit.status() >= StatusRange.ERRORS.low()) {
                if (verdict.verification() == Verification.spoofed) {
                    summary.spoofedErrorHits++;
                } else {
                    summary.errorHits++;
                }
            }
        }
        store.append(crawlerHits);
        summary.crawlerHits += crawlerHits.size();
    }

    private static ParseCounts unreadable(String message) {
        ParseCounts counts = new ParseCounts();
        counts.sourceError(message);
        return counts;
    }
}
