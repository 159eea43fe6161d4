package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.source.Fingerprint;
import dev.crawlerrors.ingest.source.LogFiles;
import dev.crawlerrors.ingest.source.LogReader;
import dev.crawlerrors.ingest.source.LogSource;
import dev.crawlerrors.ingest.source.ResumePoint;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.text.Failures;
import java.io.EOFException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The import flow, wired: read and parse (ingest), identify and verify (crawler), append (store).
 * Human lines never leave the parser threads; crawler hits reach the store in log order.
 */
public final class LogImport {

    private final HitStore store;
    private final CrawlerIdentifier identifier;
    private final HitRecorder recorder;
    /**
     * How long an import waits at its end for the checks still queued (lists being read, DNS), so
     * their verdicts are stored: a tenth of the time it took to read, at least
     * {@value #MIN_PENDING_WAIT_MS} ms and at most {@value #MAX_PENDING_WAIT_MS} ms. Checks run beside
     * the reader, so most are done by then; what is not is handed to {@code serve}, which checks
     * provisional verdicts again, and the summary says how many.
     */
    static final long MIN_PENDING_WAIT_MS = 5_000;
    static final long MAX_PENDING_WAIT_MS = 10_000;

    private final CrawlerVerifier verifier;
    private final FormatChooser formats;
    private final Map<String, Claim> claims = new HashMap<>();

    /** An import of combined logs. */
    public LogImport(HitStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier) {
        this(store, identifier, verifier, FormatChooser.of(new CombinedLineParser()));
    }

    /** An import that reads each log in the format {@code formats} chooses for it ({@code --format}). */
    public LogImport(HitStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier, FormatChooser formats) {
        this.store = store;
        this.identifier = identifier;
        this.verifier = verifier;
        this.recorder = new HitRecorder(store, identifier, verifier);
        this.formats = formats;
        verifier.onChange((ip, crawler, verdict) -> store.updateVerdict(ip, crawler.name(), verdict));
    }

    /**
     * Imports every log the arguments name (files, globs, directories, {@code -}), each rotated
     * family oldest first. A log imported before is read from where that import stopped; one that
     * cannot be read is reported and skipped, and the others are still imported.
     *
     * @param progress hears how the import goes, once it knows what it will read
     */
    public ImportSummary run(List<String> sources, ImportListener.Factory progress) throws Exception {
        ImportSummary summary = new ImportSummary();
        long started = System.nanoTime();
        LogFiles.Expansion expansion = LogFiles.expand(sources);
        summary.notes.addAll(expansion.notes());
        expansion.problems().forEach(summary.lines::sourceError);
        List<Planned> plan = plan(expansion.sources(), summary);
        try (LogReader reader = new LogReader(formats);
             ImportListener listener = progress.start(bytesToRead(plan), plan.size())) {
            for (int i = 0; i < plan.size(); i++) {
                LogSource source = plan.get(i).source;
                importSource(reader, plan.get(i), listener.reading(source.name(), source::consumed, i)::accept, summary);
            }
        }
        long readMillis = (System.nanoTime() - started) / 1_000_000;
        verifier.awaitPending(Math.clamp(readMillis / 10, MIN_PENDING_WAIT_MS, MAX_PENDING_WAIT_MS));
        summary.pending = verifier.pendingChecks();
        countVerdicts(summary);
        summary.nanos = System.nanoTime() - started;
        summary.lists = verifier.lists().describeLists(Instant.now());
        summary.resolverProblem = verifier.resolverProblem().orElse(null);
        return summary;
    }

    /** A log that could be opened, with its beginning (which identifies it) and what was imported of it before. */
    private record Planned(LogSource source, byte[] beginning, ResumePoint resume) {
    }

    private List<Planned> plan(List<LogSource> sources, ImportSummary summary) {
        List<Planned> plan = new ArrayList<>(sources.size());
        for (LogSource source : sources) {
            try {
                byte[] beginning = source.beginning(Fingerprint.PREFIX_BYTES).bytes();
                plan.add(new Planned(source, beginning, ResumePoint.find(source.name(), beginning, true, store::imported)));
            } catch (IOException e) {
                summary.lines.sourceError(problem(source, e));
            }
        }
        return plan;
    }

    /** The raw bytes the plan will read, for the progress bar; -1 when standard input makes it unknown. */
    private static long bytesToRead(List<Planned> plan) {
        long total = 0;
        for (Planned planned : plan) {
            LogSource source = planned.source;
            if (source.path() == null) {
                return -1;
            }
            SourceProgress start = planned.resume == null ? null : planned.resume.start();
            try {
                if (start == null || source.endsBy(start.bytes())) {
                    continue;
                }
                // a plain file is read from where it was left; a compressed one is decompressed from its start
                total += source.compression() == LogSource.Compression.NONE ? source.size() - start.bytes() : source.size();
            } catch (IOException e) {
                // reading it will say what is wrong
            }
        }
        return total;
    }

    private void importSource(LogReader reader, Planned planned, ReadProgress progress, ImportSummary summary) throws Exception {
        LogSource source = planned.source;
        // looked up again: an earlier log of this run may have held the same content
        ResumePoint resume = planned.resume == null ? null
                : ResumePoint.find(source.name(), planned.beginning, true, store::imported);
        if (resume == null) {
            summary.sources.add(SourceOutcome.empty(source.name()));
            return;
        }
        SourceProgress start = resume.start();
        try {
            if (resume.seenBefore() && source.endsBy(start.bytes())) {
                summary.sources.add(SourceOutcome.alreadyImported(source.name(), start.lines()));
                return;
            }
            SourceProgress[] last = {start};
            ParseCounts counts = reader.readOn(source, start, identifier, (hits, through) -> {
                store(hits, through, summary);
                last[0] = through;
            }, progress, LogReader.UnfinishedLine.WAIT_WHILE_WRITTEN);
            summary.lines.addAll(counts);
            summary.sources.add(outcome(source, resume, counts, last[0].bytes() - start.bytes()));
        } catch (EOFException e) {
            // a compressed log that ends before the part imported before: nothing after it to read
            summary.sources.add(SourceOutcome.alreadyImported(source.name(), start.lines()));
        } catch (IOException e) {
            summary.lines.sourceError(problem(source, e));
        }
    }

    private static SourceOutcome outcome(LogSource source, ResumePoint resume, ParseCounts counts, long bytes) {
        long previousLines = resume.seenBefore() ? resume.start().lines() : 0;
        if (counts.linesRead() == 0 && resume.seenBefore()) {
            return SourceOutcome.alreadyImported(source.name(), previousLines).waiting(counts.unfinishedLineBytes());
        }
        SourceOutcome.Kind kind = resume.seenBefore() ? SourceOutcome.Kind.GROWN : SourceOutcome.Kind.NEW;
        return new SourceOutcome(source.name(), kind, counts.linesRead(), counts.linesParsed(), bytes, previousLines,
                counts.unfinishedLineBytes());
    }

    private static String problem(LogSource source, IOException e) {
        String message = Failures.message(e);
        return message.startsWith(source.name()) ? message : source.name() + ": " + message;
    }

    private void store(List<Hit> hits, SourceProgress through, ImportSummary summary) {
        List<CrawlerHit> crawlerHits = recorder.record(hits, through);
        for (CrawlerHit crawlerHit : crawlerHits) {
            count(crawlerHit);
        }
        summary.crawlerHits += crawlerHits.size();
    }

    /** A method of its own, like every per-hit body on the import's path: inlined into its loop, the JIT compiled it twice. */
    private void count(CrawlerHit crawlerHit) {
        Hit hit = crawlerHit.hit();
        Crawler crawler = crawlerHit.crawler();
        // get and put, not computeIfAbsent: its lambda captured the hit, an allocation a hit
        Claim claim = claims.get(crawlerHit.claim());
        if (claim == null) {
            claim = new Claim(hit.ip(), crawler);
            claims.put(crawlerHit.claim(), claim);
        }
        claim.hits++;
        if (hit.status() >= StatusRange.ERRORS.low()) {
            claim.errorHits++;
        }
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

}
