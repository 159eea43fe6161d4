package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.SourceSink;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import dev.crawlerrors.ingest.format.FamilyFormatChooser;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.source.DamagedLogException;
import dev.crawlerrors.ingest.source.Fingerprint;
import dev.crawlerrors.ingest.source.LogFiles;
import dev.crawlerrors.ingest.source.LogReader;
import dev.crawlerrors.ingest.source.ReadRequest;
import dev.crawlerrors.ingest.source.LogSource;
import dev.crawlerrors.ingest.source.ResumePoint;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.VerdictStore;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Futures;
import dev.crawlerrors.text.Threads;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The import flow, wired: read and parse (ingest), identify and verify (crawler), append (store).
 * Human lines never leave the parser threads; crawler hits reach the store in log order.
 *
 * <p>Design for many logs: a file whose identity, size and modification time are those it had when
 * it was last read to its end is not opened at all (the store is asked once per {@value
 * #STAMP_WINDOW} files). The others are taken a window at a time: their first bytes are read (a small
 * file whole) on every core, the store is asked once for every log they may be, and they are read in
 * order. Nothing is committed per log: the store commits as it fills, and once at the end, before the
 * summary says what was stored.
 */
public final class LogImport {

    /** Files whose stamps are looked up in one query. */
    static final int STAMP_WINDOW = 65_536;
    /**
     * Reads of one log refused in a row (another writer recorded it first each time) before the import
     * leaves it to the next one: two writers of a log take turns, and each turn stores lines.
     */
    static final int MAX_REFUSALS = 1_000;
    /**
     * The pause before a log is read on when it was refused only for another writer's claim on where
     * the store has it (nothing moved): that writer commits within the claim's life, or, killed, leaves
     * the claim to end with it (ClickHouse: {@code ClickHouseLogClaims}, 15 s at most).
     */
    static final long CLAIM_PAUSE_MS = 500;
    /** Pauses for other writers' claims, in all, before the last commit's refused logs are left to the next import. */
    static final long CLAIM_WAIT_MS = 30_000;
    /** Files prepared (opened, their beginning read, looked up) ahead of the one being read, at most. */
    static final int READ_WINDOW = 256;
    /** Decompressed bytes of small files held ahead of the one being read, at most. */
    static final long READ_WINDOW_BYTES = 32L << 20;

    /** The store's writer, counting what it made durable of this import's hits. */
    private final ImportedHits writer;
    private final VerdictStore verdicts;
    private final SignatureStore signatures;
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
    /**
     * The signatures an import checks at its end, at most: a log that leaves more unchecked leaves
     * them all to {@code serve}, which checks them in the background. Checked while the import read,
     * the few a tenth of its CPU allowed cost it as much again in compiling the Ed25519 path and in
     * their verdicts' rows (a 50,000-line signed log: 1.1-1.2 s of CPU for 157-240 of them), so a
     * log in which every line is signed could not import at about the cost of the same log
     * unsigned; a small log still gets its verdicts from the import (1,000 checks take about 1.5 s
     * of CPU, most of it the JIT compiling the JDK's Ed25519 on the way).
     */
    static final int SIGNATURES_CHECKED_AT_END = 1_000;
    /** How long an import waits at its end for each signature it checks then, and at most for all. */
    static final long SIGNATURE_WAIT_MS = 10;

    private final CrawlerVerifier verifier;
    private final FormatChooser formats;
    private final Map<String, Claim> claims = new HashMap<>();
    /** The verdicts of signed claims settled at the import's end, by claim key. */
    private final Map<String, Verdict> rechecked = new HashMap<>();
    /** The signatures checked at the end at most ({@link #SIGNATURES_CHECKED_AT_END}). */
    private int settleAtEnd = SIGNATURES_CHECKED_AT_END;
    /** Told the crawler hits as they are stored ({@code serve --follow} counts them). */
    private Consumer<List<CrawlerHit>> stored = hits -> { };
    /** Whether hits are counted by claim for the summary's verdicts: not while serve follows (a serve runs for months). */
    private boolean countClaims = true;

    /** An import of combined logs. */
    public LogImport(WritableStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier) {
        this(store, identifier, verifier, FormatChooser.of(new CombinedLineParser()));
    }

    /** An import that reads each log in the format {@code formats} chooses for it ({@code --format}). */
    public LogImport(WritableStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier, FormatChooser formats) {
        this.writer = new ImportedHits(store.writer());
        this.identifier = identifier;
        this.verifier = verifier;
        this.signatures = store.signatures();
        this.recorder = new HitRecorder(writer, signatures, store.verdicts(), identifier, verifier);
        recorder.releaseAfterCommit();
        recorder.settleAtEnd(SIGNATURES_CHECKED_AT_END);
        recorder.waitInRowsAfter(SIGNATURES_CHECKED_AT_END);
        // detected once per family of logs, and checked on each (FamilyFormatChooser)
        this.formats = formats.detects() ? new FamilyFormatChooser(formats) : formats;
        this.verdicts = store.verdicts();
        verifier.onChange((ip, crawler, verdict) -> verdicts.update(ip, crawler.name(), verdict));
    }

    /** {@link #run(List, ImportListener.Factory, boolean)} without a line per log. */
    public ImportSummary run(List<String> sources, ImportListener.Factory progress) throws Exception {
        return run(sources, progress, false);
    }

    /**
     * Imports every log the arguments name (files, globs, directories, {@code -}), each rotated
     * family oldest first. A log imported before is read from where that import stopped; one that
     * cannot be read is reported and skipped, and the others are still imported. What the summary
     * counts as stored is committed when this returns; when the store fails, the summary says so
     * and how much was stored.
     *
     * @param progress hears how the import goes, once it knows what it will read
     * @param eachLog  whether the summary keeps a line for each log ({@code --verbose}); without, it
     *                 counts them by outcome and format
     */
    public ImportSummary run(List<String> sources, ImportListener.Factory progress, boolean eachLog) throws Exception {
        return run(new Listing(CompletableFuture.completedFuture(LogFiles.expand(sources))), progress, eachLog);
    }

    /** The logs the arguments name, being listed on a thread of their own ({@link #listAhead}). */
    public static final class Listing {
        private final CompletableFuture<LogFiles.Expansion> expansion;

        private Listing(CompletableFuture<LogFiles.Expansion> expansion) {
            this.expansion = expansion;
        }

        /** The listing once done; a failure is thrown as it was thrown. */
        LogFiles.Expansion get() {
            return Futures.join(expansion);
        }
    }

    /**
     * Lists the logs the arguments name ({@link LogFiles#expand}) on a thread of their own, for {@link
     * #run(Listing, ImportListener.Factory, boolean)}: an import starts it before it opens the store,
     * which takes as long as listing a directory of 20,000 logs and leaves a core idle.
     */
    public static Listing listAhead(List<String> sources) {
        return new Listing(CompletableFuture.supplyAsync(() -> LogFiles.expand(sources),
                task -> Threads.startDaemon("log-list", task)));
    }

    /** {@link #run(List, ImportListener.Factory, boolean)}, the arguments listed by {@link #listAhead}. */
    public ImportSummary run(Listing listing, ImportListener.Factory progress, boolean eachLog) throws Exception {
        ImportSummary summary = new ImportSummary(eachLog);
        long started = System.nanoTime();
        LogFiles.Expansion expansion = listing.get();
        summary.notes.addAll(expansion.notes());
        expansion.problems().forEach(summary::problem);
        try {
            List<LogSource> toRead = unchanged(expansion.sources(), summary);
            ExecutorService preparers = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()),
                    Threads.daemons("log-open"));
            Map<String, ReadLog> read;
            try (LogReader reader = new LogReader(formats);
                 ImportListener listener = progress.start(bytesToRead(toRead), toRead.size())) {
                Reading reading = new Reading(reader, listener, preparers, summary);
                reading.readAll(toRead);
                read = reading.read;
            } finally {
                preparers.shutdownNow();
            }
            // the checks still queued get a tenth of the reading time, so their verdicts are in the commit below
            long readMillis = (System.nanoTime() - started) / 1_000_000;
            verifier.awaitPending(Math.clamp(readMillis / 10, MIN_PENDING_WAIT_MS, MAX_PENDING_WAIT_MS));
            SignatureSettler settling = recorder.takeSettler();
            // past the first ones kept apart, the lines left unchecked wait in their hits' rows: then more than an end checks
            long inRows = recorder.waitingInRows();
            if (settling == null && inRows > 0) {
                summary.signaturesLeftToServe = settleAtEnd;
                summary.signaturesPending = inRows;
            }
            if (settling != null) {
                // a few signatures are checked now, in some milliseconds each; more than that wait for serve
                if (inRows == 0 && settling.checkHeld()) {
                    settling.awaitIdle(Math.clamp(settling.waiting() * SIGNATURE_WAIT_MS, MIN_PENDING_WAIT_MS, MAX_PENDING_WAIT_MS));
                } else {
                    summary.signaturesLeftToServe = settleAtEnd;
                }
                settling.stop();
                rechecked.putAll(settling.settled());
                summary.signaturesChecked = settling.settledCount();
                summary.signaturesPending = settling.waiting() + inRows;
            }
            List<String> settledAgain = new ArrayList<>();
            if (recorder.keptPending()) {
                // signatures whose directory could not be read: it may answer now (what still waits is serve's)
                rechecked.putAll(SignatureKeeping.recheck(signatures, verdicts, verifier.signatures(), settledAgain));
            }
            flush(read, summary); // the summary counts what this commit makes true
            // their verdicts are committed: their signatures wait no longer (a crash before leaves them waiting)
            if (settling != null) {
                settling.release();
            }
            signatures.settled(settledAgain);
        } catch (StoreException e) {
            summary.storeFailure = Failures.message(e);
            summary.storedHits = writer.committed(); // this import's: the store may hold another writer's too
        }
        summary.pending = verifier.pendingChecks();
        countVerdicts(summary);
        summary.nanos = System.nanoTime() - started;
        summary.lists = new ArrayList<>(verifier.lists().describeLists(Instant.now()));
        if (verifier.signatures() != null) {
            summary.directories = verifier.signatures().verifier().directories().describe();
        }
        summary.resolverProblem = verifier.resolverProblem().orElse(null);
        return summary;
    }

    /**
     * Commits what was read. A store that compares positions as it commits (ClickHouse) may refuse
     * the last lines of some logs, another writer having stored them: what was counted of those lines
     * is taken back, and those logs are read on from where the store has them now, and committed
     * again, a few rounds at most. The summary counts what the last commit made durable.
     */
    private void flush(Map<String, ReadLog> read, ImportSummary summary) throws Exception {
        long waited = 0;
        for (int round = 1; ; round++) {
            try {
                writer.flush();
                return;
            } catch (PositionMovedException refused) {
                List<LogSource> again = new ArrayList<>();
                Map<String, ReadLog> refusedLogs = new HashMap<>();
                for (PositionMovedException.Refused log : refused.refused()) {
                    uncount(log.hits(), summary);
                    ReadLog earlier = read.get(log.key());
                    if (earlier != null) {
                        earlier.tally.refusedAtCommit(log.storedUpTo());
                        earlier.amend(outcome(earlier.source, earlier.tally), summary);
                        if (refusedLogs.put(log.key(), earlier) == null) {
                            again.add(earlier.source);
                        }
                    }
                }
                // refused only for another writer's claim on where the store has them: wait for it to commit or end
                boolean claimed = refused.refused().stream().allMatch(PositionMovedException.Refused::claimedElsewhere);
                if (again.isEmpty() || (round >= FLUSH_ROUNDS && !(claimed && waited < CLAIM_WAIT_MS))) {
                    throw refused;
                }
                if (claimed) {
                    Thread.sleep(CLAIM_PAUSE_MS);
                    waited += CLAIM_PAUSE_MS;
                }
                ExecutorService preparers = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()),
                        Threads.daemons("log-open"));
                try (LogReader reader = new LogReader(formats)) {
                    Reading reading = new Reading(reader, ImportListener.NONE, preparers, summary);
                    reading.again = true;
                    reading.refusedLogs = refusedLogs;
                    reading.readAll(again);
                    read = reading.read;
                } finally {
                    preparers.shutdownNow();
                }
            }
        }
    }

    /** Commits tried before the logs whose last lines were refused are left to the next import. */
    private static final int FLUSH_ROUNDS = 4;

    /**
     * A log this import stored lines of, kept until they are committed: a store that refuses as it
     * commits may refuse its last lines ({@link #flush}), and then it is read on, and said again.
     */
    private static final class ReadLog {
        final LogSource source;
        final LogReadTally tally;
        /** What the summary says of it now. */
        SourceOutcome outcome;

        ReadLog(LogSource source, LogReadTally tally, SourceOutcome outcome) {
            this.source = source;
            this.tally = tally;
            this.outcome = outcome;
        }

        /** The summary says {@code now} of it, in place of what it said. */
        void amend(SourceOutcome now, ImportSummary summary) {
            summary.amend(outcome, now);
            outcome = now;
        }
    }

    HitRecorder recorder() {
        return recorder;
    }

    /** Stores the hits of logs that record no host on {@code host} ({@code --host}; null: hostless); returns this import. */
    public LogImport onHost(String host) {
        recorder.siteHost(host);
        return this;
    }

    /** Checks the signatures left unchecked with a queue of {@code capacity} and {@code threads} threads, for tests. */
    void settleSignaturesWith(int capacity, int threads) {
        recorder.settleWith(capacity, threads);
    }

    /**
     * Checks at most {@code upTo} signatures at the end ({@link #SIGNATURES_CHECKED_AT_END}), and keeps as many
     * apart, the rest waiting in their hits' rows where the store keeps them so: for tests.
     */
    public void settleSignaturesAtEnd(int upTo) {
        settleAtEnd = upTo;
        recorder.settleAtEnd(upTo);
        recorder.waitInRowsAfter(upTo);
    }

    /** Tells {@code stored} the crawler hits of each batch as it is stored. */
    void onStored(Consumer<List<CrawlerHit>> stored) {
        this.stored = stored;
    }

    /** A reader of this import's logs, its format detected once per family, parsing on {@code threads} threads. */
    LogReader reader(int threads) {
        return new LogReader(formats, threads);
    }

    /**
     * {@code serve --follow DIR}: reads {@code files} as {@link #run} reads what its arguments name
     * (those unchanged since they were read to their end not opened, the others read on from where
     * the store says), and commits; a compressed file that is not whole yet is not read at all (a
     * problem says so) rather than read in part. It does not wait for queued checks nor count
     * verdicts, and stops between files once {@code stopping} says so. The summary keeps each log's outcome.
     */
    ImportSummary readFiles(List<LogSource> files, LogReader reader, BooleanSupplier stopping) throws Exception {
        ImportSummary summary = new ImportSummary(true);
        countClaims = false;
        try {
            List<LogSource> toRead = unchanged(files, summary);
            if (toRead.isEmpty()) {
                return summary;
            }
            ExecutorService preparers = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()),
                    Threads.daemons("log-open"));
            try {
                Reading reading = new Reading(reader, ImportListener.NONE, preparers, summary);
                reading.wholeOnly = true;
                reading.stopping = stopping;
                reading.readAll(toRead);
            } finally {
                preparers.shutdownNow();
            }
            writer.flush();
        } catch (StoreException e) {
            summary.storeFailure = Failures.message(e);
        }
        return summary;
    }

    /**
     * The sources to read: every one but the files whose stamp ({@link LogSource#stamp()}) is the one
     * they had when they were read to their end, which count as already imported without being opened.
     */
    private List<LogSource> unchanged(List<LogSource> sources, ImportSummary summary) {
        List<LogSource> toRead = new ArrayList<>(sources.size());
        for (int from = 0; from < sources.size(); from += STAMP_WINDOW) {
            List<LogSource> window = sources.subList(from, Math.min(sources.size(), from + STAMP_WINDOW));
            // each file's steps a method of their own, compiled after some hundreds of files (see LogFiles.expand)
            List<FileStamp> stamps = new ArrayList<>(window.size());
            for (LogSource source : window) {
                stamps.add(source.stamp());
            }
            long[] lines = writer.unchangedLines(stamps);
            for (int i = 0; i < lines.length; i++) {
                readOrSkip(window.get(i), lines[i], toRead, summary);
            }
        }
        return toRead;
    }

    /** Counts {@code source} unchanged when it is as recorded when it was read to its end ({@code lines} >= 0), else puts it in {@code toRead}. */
    private static void readOrSkip(LogSource source, long lines, List<LogSource> toRead, ImportSummary summary) {
        if (lines >= 0) {
            summary.add(SourceOutcome.unchanged(source.name(), lines));
        } else {
            toRead.add(source);
        }
    }

    /** The raw bytes the sources will read, for the progress bar; -1 when a stream makes it unknown. */
    private static long bytesToRead(List<LogSource> sources) {
        long total = 0;
        for (LogSource source : sources) {
            if (source.isStream()) {
                return -1;
            }
            total += Math.max(0, source.size());
        }
        return total;
    }

    /**
     * A log opened ahead of its turn: its first bytes (which identify it) and the fingerprints it is
     * looked up under (null when not worked out yet), or why it could not be opened.
     */
    private record Prepared(LogSource source, LogSource.Beginning beginning, Fingerprint fingerprint, Collection<String> candidates,
            IOException failure) {
    }

    /**
     * Opens a log ahead of its turn: loads it when it is small, reads its beginning, and works out
     * its fingerprint and, when {@code candidates}, every form it may have been recorded under.
     */
    private static Prepared prepare(LogSource source, boolean candidates) {
        try {
            source.load();
            LogSource.Beginning beginning = source.beginning(Fingerprint.PREFIX_BYTES);
            Fingerprint.Identity identity = Fingerprint.identify(beginning.bytes(), true, candidates);
            return new Prepared(source, beginning, identity.fingerprint(), candidates ? identity.candidates().keySet() : null, null);
        } catch (IOException e) {
            return new Prepared(source, null, null, List.of(), e);
        }
    }

    /** One run's reading: the logs in order, prepared a window ahead. */
    private final class Reading {

        private final LogReader reader;
        private final ImportListener listener;
        private final ExecutorService preparers;
        private final ImportSummary summary;
        /** What the store recorded of the logs of the window being read, by the fingerprint their key begins with. */
        private final Map<String, List<SourceProgress>> recorded = new HashMap<>();
        /**
         * Progress this run appended since the window was looked up (a log may be another's copy), by
         * the fingerprint its key begins with, then by key.
         */
        private final Map<String, Map<String, SourceProgress>> appended = new HashMap<>();
        private int index;
        /**
         * Whether a log may have been recorded under a shorter form of its beginning than it has now
         * (the {@linkplain Fingerprint#candidates candidates}, some twenty digests a small log): only
         * when the store records some log, or this run recorded a log shorter than a fingerprint covers.
         * An import of 50,000 logs into a new store spent a fifth of its time on them.
         */
        private volatile boolean candidates;
        /** Whether a compressed log is read only when whole (a followed directory's file may still be being written). */
        boolean wholeOnly;
        /** Says when to stop between logs. */
        BooleanSupplier stopping = () -> false;
        /** Whether the logs are read again after the store refused their last lines: each is counted once in the summary already. */
        boolean again;
        /** When read again: the logs whose last lines were refused at the commit, by their key, their tallies cut there. */
        Map<String, ReadLog> refusedLogs = Map.of();
        /**
         * The logs this reading stored lines of, by the key their progress is recorded under, when the
         * store may refuse them as it commits ({@link HitWriter#refusesAtCommit}).
         */
        final Map<String, ReadLog> read = new HashMap<>();
        /** Whether the store may refuse lines it took when it commits them: their counts are kept until then. */
        private final boolean refusesAtCommit = writer.refusesAtCommit();

        Reading(LogReader reader, ImportListener listener, ExecutorService preparers, ImportSummary summary) {
            this.reader = reader;
            this.listener = listener;
            this.preparers = preparers;
            this.summary = summary;
        }

        void readAll(List<LogSource> sources) throws Exception {
            candidates = writer.recordsProgress();
            ArrayDeque<Future<Prepared>> ahead = new ArrayDeque<>();
            int next = 0;
            while ((next < sources.size() || !ahead.isEmpty()) && !stopping.getAsBoolean()) {
                // a window: logs prepared on every core; a stream alone, on this thread, in its turn
                long held = 0;
                while (next < sources.size() && ahead.size() < READ_WINDOW && held < READ_WINDOW_BYTES) {
                    LogSource source = sources.get(next);
                    if (source.isStream() && !ahead.isEmpty()) {
                        break;
                    }
                    next++;
                    boolean all = candidates;
                    ahead.add(source.isStream() ? java.util.concurrent.CompletableFuture.completedFuture(prepare(source, all))
                            : preparers.submit(() -> prepare(source, all)));
                    held += Math.max(Fingerprint.PREFIX_BYTES, Math.min(source.size(), LogSource.SMALL_FILE_BYTES) * 4);
                    if (source.isStream()) {
                        break;
                    }
                }
                List<Prepared> window = new ArrayList<>(ahead.size());
                for (Future<Prepared> f : ahead) {
                    window.add(get(f));
                }
                ahead.clear();
                lookUp(window);
                for (Prepared prepared : window) {
                    try {
                        if (stopping.getAsBoolean()) {
                            continue; // what is not read now is read on the next start, from where the store says
                        }
                        read(prepared);
                    } finally {
                        prepared.source.release();
                    }
                }
            }
        }

        /** Asks the store, once, what it recorded of the logs {@code window} may be. */
        private void lookUp(List<Prepared> window) {
            Set<String> fingerprints = new LinkedHashSet<>();
            for (Prepared prepared : window) {
                if (prepared.candidates != null) {
                    fingerprints.addAll(prepared.candidates);
                } else if (prepared.fingerprint != null) {
                    fingerprints.add(prepared.fingerprint.value());
                }
            }
            recorded.clear();
            appended.clear();
            for (SourceProgress progress : writer.imported(fingerprints)) {
                recorded.computeIfAbsent(progress.prefix(), k -> new ArrayList<>()).add(progress);
            }
        }

        /** What is recorded of the logs whose key begins with one of {@code fingerprints}: the window's lookup and this run's since. */
        private List<SourceProgress> find(Collection<String> fingerprints) {
            Map<String, SourceProgress> found = new HashMap<>();
            for (String fingerprint : fingerprints) {
                for (SourceProgress progress : recorded.getOrDefault(fingerprint, List.of())) {
                    found.put(progress.fingerprint(), progress);
                }
                for (SourceProgress progress : appended.getOrDefault(fingerprint, Map.of()).values()) {
                    found.merge(progress.fingerprint(), progress, (a, b) -> b.bytes() > a.bytes() ? b : a);
                }
            }
            return new ArrayList<>(found.values());
        }

        private void read(Prepared prepared) throws Exception {
            LogSource source = prepared.source;
            if (prepared.failure != null) {
                summary.problem(problem(source, prepared.failure));
                return;
            }
            LogSource.Beginning beginning = prepared.beginning;
            if (beginning.bytes().length == 0 && beginning.damage() != null) {
                summary.problem(beginning.damage().getMessage() + ": nothing of it could be read");
                return;
            }
            ResumePoint resume = null;
            try {
                DamagedLogException damage = wholeOnly ? source.damage() : null;
                if (damage != null) {
                    summary.problem(damage.getMessage() + "; it is read once it is whole (when it changes)");
                    return;
                }
                // without candidates when the store records no log and this run recorded no short one (see candidates)
                Collection<String> lookedUp = prepared.candidates != null ? prepared.candidates
                        : prepared.fingerprint == null ? List.of()
                        : candidates ? Fingerprint.candidates(beginning.bytes(), true).keySet() : List.of(prepared.fingerprint.value());
                resume = prepared.fingerprint == null ? null
                        : ResumePoint.find(source.name(), prepared.fingerprint, lookedUp, this::find, source::before);
                if (resume != null && prepared.fingerprint.length() < Fingerprint.PREFIX_BYTES) {
                    candidates = true; // a log that grows past it is recorded under this shorter beginning
                }
                if (resume == null) {
                    counted(SourceOutcome.empty(source.name()));
                    return;
                }
                SourceProgress start = resume.start();
                ReadLog earlier = again ? refusedLogs.get(start.fingerprint()) : null;
                FileStamp stamp = source.stamp();
                LogReadTally tally;
                boolean readOn = true;
                if (earlier != null) {
                    // read again after its last lines were refused: another writer stored those, up to here
                    tally = earlier.tally;
                    tally.readOnFrom(resume);
                    readOn = !(resume.shorterThanRecorded() || source.endsBy(start.bytes()));
                } else if (resume.seenBefore() && (resume.shorterThanRecorded() || source.endsBy(start.bytes()))) {
                    alreadyImported(source, start);
                    return;
                } else {
                    tally = new LogReadTally(resume, summary.lines);
                }
                ReadProgress progress = listener.reading(source.name(), source::consumed, index++)::accept;
                ReadRequest.Counted counted = refusesAtCommit ? tally::counted : ReadRequest.Counted.NONE;
                boolean[] claimedElsewhere = {false};
                for (int refusals = 0; ; refusals++) {
                    if (readOn) {
                        tally.readEnded(reader.readOn(source, ReadRequest.of(resume.start(), identifier, (hits, from, through) -> {
                            try {
                                store(hits, from, through, summary);
                            } catch (PositionMovedException moved) {
                                for (PositionMovedException.Refused refused : moved.refused()) {
                                    tally.refused(refused.storedUpTo());
                                    uncount(refused.hits(), summary);
                                }
                                claimedElsewhere[0] = moved.refused().stream().allMatch(PositionMovedException.Refused::claimedElsewhere);
                                throw new SourceSink.Stop();
                            }
                            appended.computeIfAbsent(through.prefix(), k -> new HashMap<>()).put(through.fingerprint(), through);
                            tally.stored(through);
                        }).withResume(resume).withProgress(progress).withUnfinished(LogReader.UnfinishedLine.WAIT_WHILE_WRITTEN)
                                .withCounted(counted)));
                    }
                    ParseCounts lastRead = tally.lastRead();
                    if ((tally.last() != null || tally.otherWriterLines() > 0) && !tally.moved() && stamp != null
                            && lastRead.unfinishedLineBytes() == 0 && lastRead.sourceErrors().isEmpty()) {
                        // read to its end: a later import need not open it while it stays as it is (unless the stamp is refused)
                        recordReadToTheEnd(tally.reached(), stamp, tally);
                    }
                    if (!tally.moved()) {
                        break;
                    }
                    if (claimedElsewhere[0]) {
                        // nothing moved: another writer claims where the store has it, and commits there or its claim ends
                        claimedElsewhere[0] = false;
                        Thread.sleep(CLAIM_PAUSE_MS);
                    }
                    // another writer stored lines of it meanwhile: read on from where the store has it now
                    resume = readOnPoint(source, prepared, lookedUp, refusals);
                    if (resume == null) {
                        break;
                    }
                    tally.readOnFrom(resume);
                    // nothing to read when the other writer stored all there is
                    readOn = !(resume.shorterThanRecorded() || source.endsBy(resume.start().bytes()));
                }
                SourceOutcome outcome = outcome(source, tally);
                ReadLog log = earlier;
                if (earlier != null) {
                    earlier.amend(outcome, summary);
                } else {
                    counted(outcome);
                    log = new ReadLog(source, tally, outcome);
                }
                if (tally.last() != null && refusesAtCommit) {
                    read.put(tally.last().fingerprint(), log);
                }
            } catch (EOFException e) {
                // a compressed log that ends before the part imported before: nothing after it to read
                counted(SourceOutcome.alreadyImported(source.name(), resume == null ? 0 : resume.start().lines()));
            } catch (IOException e) {
                summary.problem(problem(source, e));
            }
        }

        /** Counts what was done with a log: once, though it is read again after its last lines were refused ({@link ReadLog#amend}). */
        private void counted(SourceOutcome outcome) {
            if (!again) {
                summary.add(outcome);
            }
        }

        /**
         * Where to read {@code source} on once another writer recorded it elsewhere: looked up in the
         * store again, as a log is when its reading starts; null when there is nothing more to read, or
         * it cannot be read again (a stream, said as a problem).
         */
        private ResumePoint readOnPoint(LogSource source, Prepared prepared, Collection<String> lookedUp, int refusals) throws IOException {
            if (source.isStream()) {
                summary.problem(source.name() + ": another writer stored lines of the same log while this import read it, and a stream"
                        + " cannot be read again: the lines after those are stored by the next import of it");
                return null;
            }
            if (refusals >= MAX_REFUSALS) {
                summary.problem(source.name() + ": other writers kept storing its lines while this import read it; the next import of it"
                        + " reads on from where they got");
                return null;
            }
            ResumePoint resume = ResumePoint.find(source.name(), prepared.fingerprint, lookedUp, writer::imported, source::before);
            if (resume == null) {
                return null;
            }
            SourceProgress start = resume.start();
            appended.computeIfAbsent(start.prefix(), k -> new HashMap<>()).put(start.fingerprint(), start);
            return resume;
        }

        /** A log that holds nothing past what was imported of it: said so, and its file recorded as read to its end. */
        private void alreadyImported(LogSource source, SourceProgress start) {
            counted(SourceOutcome.alreadyImported(source.name(), start.lines()));
            FileStamp stamp = source.stamp();
            if (stamp != null) {
                recordReadToTheEnd(start, stamp, null);
            }
        }

        /**
         * Records the file {@code stamp} as read to its end at {@code position}; not when another
         * writer moved the log on meanwhile (the next import opens the file, and finds what it holds).
         * A store that refuses as it commits may tell here that lines this import took of the log
         * were refused: their hits are taken back, and {@code tally} is cut where they start, so the
         * log is read on from where the store has it ({@link LogReadTally#moved}).
         */
        private void recordReadToTheEnd(SourceProgress position, FileStamp stamp, LogReadTally tally) {
            try {
                writer.append(List.of(), position, position.readToTheEndOf(stamp));
            } catch (PositionMovedException moved) {
                for (PositionMovedException.Refused refused : moved.refused()) {
                    uncount(refused.hits(), summary);
                    if (tally != null && (!refused.hits().isEmpty() || refused.storedUpTo().bytes() < position.bytes())) {
                        tally.refusedAtCommit(refused.storedUpTo());
                    }
                }
                // else the stamp is not worth a read of its own: what the other writer stored is recorded
            }
        }
    }

    private static Prepared get(Future<Prepared> prepared) throws Exception {
        return Futures.get(prepared);
    }

    private SourceOutcome outcome(LogSource source, LogReadTally tally) {
        ResumePoint resume = tally.first;
        ParseCounts counts = tally.counts;
        long previousLines = resume.seenBefore() ? resume.start().lines() : 0;
        if (counts.linesRead() == 0 && tally.otherWriterLines() == 0 && resume.seenBefore()) {
            return SourceOutcome.alreadyImported(source.name(), previousLines).waiting(tally.lastRead().unfinishedLineBytes());
        }
        SourceOutcome.Kind kind = resume.seenBefore() ? SourceOutcome.Kind.GROWN : SourceOutcome.Kind.NEW;
        String format = counts.format() == null ? null : counts.format() + (formats.detects() ? ", auto-detected" : "");
        return new SourceOutcome(source.name(), kind, format, counts.linesRead(), counts.linesParsed(), tally.bytes(), previousLines,
                tally.lastRead().unfinishedLineBytes(), tally.otherWriterLines());
    }

    private static String problem(LogSource source, IOException e) {
        String message = Failures.message(e);
        return message.startsWith(source.name()) ? message : source.name() + ": " + message;
    }

    private void store(List<Hit> hits, SourceProgress from, SourceProgress through, ImportSummary summary) {
        List<CrawlerHit> crawlerHits = recorder.record(hits, from, through);
        if (countClaims) {
            for (CrawlerHit crawlerHit : crawlerHits) {
                count(crawlerHit);
            }
        }
        summary.crawlerHits += crawlerHits.size();
        stored.accept(crawlerHits);
    }

    /**
     * Takes back what was counted of hits a store took and then refused as it committed them
     * (another writer had stored their lines): the summary counts what is stored.
     */
    private void uncount(List<CrawlerHit> refused, ImportSummary summary) {
        summary.crawlerHits -= refused.size();
        if (!countClaims) {
            return;
        }
        for (CrawlerHit crawlerHit : refused) {
            Claim claim = claims.get(crawlerHit.claim());
            if (claim != null) {
                claim.hits--;
                if (crawlerHit.hit().status() >= StatusRange.ERRORS.low()) {
                    claim.errorHits--;
                }
            }
        }
    }

    /** A method of its own, like every per-hit body on the import's path: inlined into its loop, the JIT compiled it twice. */
    private void count(CrawlerHit crawlerHit) {
        Hit hit = crawlerHit.hit();
        Crawler crawler = crawlerHit.crawler();
        // get and put, not computeIfAbsent: its lambda captured the hit, an allocation a hit
        Claim claim = claims.get(crawlerHit.claim());
        if (claim == null) {
            claim = new Claim(hit.ip(), crawler, crawlerHit.isSigned() ? crawlerHit.verdict() : null);
            claims.put(crawlerHit.claim(), claim);
        }
        claim.hits++;
        if (hit.status() >= StatusRange.ERRORS.low()) {
            claim.errorHits++;
        }
    }

    /** Counts hits by the verdict their address has at the end (DNS checks may have changed it). */
    private void countVerdicts(ImportSummary summary) {
        for (Map.Entry<String, Claim> entry : claims.entrySet()) {
            countVerdict(entry.getKey(), entry.getValue(), summary);
        }
    }

    /**
     * A method of its own: its loop runs once an import, so the JIT compiles the body alone, where
     * inlined it ran interpreted for each claim (a signed import has a claim a line).
     */
    private void countVerdict(String key, Claim claim, ImportSummary summary) {
        Verdict verdict = claim.signed == null ? verifier.verify(claim.ip, claim.crawler) : rechecked.getOrDefault(key, claim.signed);
        summary.verdicts.merge(verdict.verification(), claim.hits, Long::sum);
        if (verdict.verification() == Verification.spoofed) {
            summary.spoofedErrorHits += claim.errorHits;
        } else if (claim.crawler.botType().shownByDefault()) {
            summary.errorHits += claim.errorHits;
        } else {
            summary.hiddenErrorHits += claim.errorHits;
        }
    }

    /** The hits of one address claiming one crawler (or, signed, one group of its signatures). */
    private static final class Claim {
        final String ip;
        final Crawler crawler;
        /** A signed claim's verdict, as its signature gave it; null for an address's claim, which the verifier keeps. */
        final Verdict signed;
        long hits;
        long errorHits;

        Claim(String ip, Crawler crawler, Verdict signed) {
            this.ip = ip;
            this.crawler = crawler;
            this.signed = signed;
        }
    }

}
