package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.source.LogFiles;
import dev.crawlerrors.ingest.source.LogFollower;
import dev.crawlerrors.ingest.source.LogReader;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code serve --follow}: tails logs into the store while the report is served. Each batch of new
 * lines is stored with its position and flushed at once, so it is in the report well within a
 * second and a restart reads on exactly where this stopped. A directory or a glob is looked at every
 * {@link FollowedPattern#LOOK} and its new files read once each ({@link FollowedPattern}). While
 * lines flow, a line every few seconds says how many and how many crawler hits they held ({@link FollowProgress}).
 *
 * <p>Everything runs on one thread, so a file is never read by two readers at once (a followed log's
 * rotated copy may also match a glob): a directory's backlog at the start delays the followed files
 * until it is read.
 */
public final class FollowedLogs implements LiveSource {

    /** Parsing a poll's few lines needs no more; a backlog after a restart gets two cores. */
    private static final int PARSER_THREADS = 2;

    private final LogReader reader;
    private final LogFollower follower;
    /** Records the followed files' hits; its signature checks are stopped on close. */
    private final HitRecorder recorder;
    private final List<FollowedPattern> patterns = new ArrayList<>();
    private final List<LogReader> patternReaders = new ArrayList<>();
    /** When each directory or glob last gave lines (its start until then), for /metrics. */
    private final java.util.Map<String, Long> patternsLastRead = new java.util.concurrent.ConcurrentHashMap<>();
    private final FollowProgress progress;
    private final Consumer<String> notices;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private Thread thread;

    /**
     * @param paths    files to tail, and directories or globs whose files are read as they come
     * @param formats  each followed file's format ({@code --format}; auto detects it per file, once per family in a directory)
     * @param notices  told what happened to a file, and every few seconds how following is going
     */
    public FollowedLogs(List<Path> paths, FormatChooser formats, WritableStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier,
            Consumer<String> notices) {
        this(paths, formats, store, identifier, verifier, null, notices);
    }

    /** As above, the hits of logs that record no host stored on {@code siteHost} ({@code --host}; null: hostless). */
    public FollowedLogs(List<Path> paths, FormatChooser formats, WritableStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier,
            String siteHost, Consumer<String> notices) {
        this.notices = notices;
        this.progress = new FollowProgress(notices);
        // the hits progress says are stored are those the store committed, not those it took and then refused
        HitWriter writer = new CommittedHits(store.writer(), progress::committed);
        this.recorder = new HitRecorder(writer, store.signatures(), store.verdicts(), identifier, verifier);
        recorder.siteHost(siteHost);
        WritableStore counted = WritableStore.writingThrough(store, writer);
        this.reader = new LogReader(formats, PARSER_THREADS);
        List<Path> files = new ArrayList<>();
        List<String> named = new ArrayList<>();
        for (Path path : paths) {
            if (LogFiles.isPattern(path.toString())) {
                named.add(path.toString());
            } else {
                files.add(path);
            }
        }
        Set<Path> alone = new HashSet<>();
        files.forEach(file -> alone.add(file.toAbsolutePath().normalize()));
        for (String pattern : named) {
            // an import's reading of its own (formats detected once per family), telling progress what it stored
            LogImport importer = new LogImport(counted, identifier, verifier, formats).onHost(siteHost);
            LogReader patternReader = importer.reader(PARSER_THREADS);
            patternReaders.add(patternReader);
            patternsLastRead.put(pattern, System.currentTimeMillis());
            patterns.add(new FollowedPattern(pattern, importer, patternReader, alone, summary -> {
                progress.read(summary.lines().linesRead(), summary.lines().linesBad());
                if (summary.lines().linesRead() > 0) {
                    patternsLastRead.put(pattern, System.currentTimeMillis());
                }
            }, notices));
        }
        this.follower = new LogFollower(files, reader, formats, identifier, store.writer()::imported,
                (hits, from, through) -> {
                    try {
                        recorder.record(hits, from, through);
                    } catch (PositionMovedException refused) {
                        // what was appended before the refused lines stands: committed now, so that
                        // progress says it now rather than with the file's next lines
                        try {
                            writer.flush();
                        } catch (RuntimeException e) {
                            refused.addSuppressed(e);
                        }
                        throw refused;
                    }
                },
                counts -> {
                    writer.flush();
                    progress.read(counts.linesRead(), counts.linesBad());
                }, notices);
    }

    @Override
    public synchronized void start() {
        thread = Threads.startDaemon("log-follower", this::run);
        progress.start();
    }

    private void run() {
        long nextLook = System.nanoTime();
        try {
            do {
                follower.pollOnce();
                if (System.nanoTime() - nextLook >= 0) {
                    lookAtPatterns();
                    nextLook = System.nanoTime() + FollowedPattern.LOOK.toNanos();
                }
            } while (!stopped.await(LogFollower.POLL.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void lookAtPatterns() {
        for (FollowedPattern pattern : patterns) {
            try {
                pattern.poll(() -> stopped.getCount() == 0);
            } catch (Exception e) {
                // the store's checkpoints are the truth: the next look reads on from them
                notices.accept(pattern.pattern() + ": reading stopped (" + Failures.message(e) + "); trying again");
            }
        }
    }

    /**
     * Registers how far behind each followed source is, by the name {@code --follow} gave it: when
     * it last grew ({@code crawl_errors_follow_last_growth_timestamp_seconds}; a directory or glob:
     * when it last gave lines), and for a file the bytes written and not read yet and how long the
     * reader has been behind ({@code crawl_errors_follow_behind_bytes}, {@code crawl_errors_follow_lag_seconds}).
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        for (LogFollower.FollowStatus file : follower.status()) {
            String name = file.name();
            Gauge.builder("crawl_errors_follow_last_growth_timestamp_seconds", follower, f -> status(f, name).lastGrowthMillis() / 1000.0)
                    .description("when a followed log last grew (Unix time; its modification time until it is seen growing)")
                    .tag("source", name).register(registry);
            Gauge.builder("crawl_errors_follow_behind_bytes", follower, f -> status(f, name).behindBytes())
                    .description("bytes written to a followed log and not read yet").tag("source", name).register(registry);
            Gauge.builder("crawl_errors_follow_lag_seconds", follower, f -> {
                long since = status(f, name).behindSinceMillis();
                return since == 0 ? 0 : (System.currentTimeMillis() - since) / 1000.0;
            }).description("how long the reader of a followed log has been behind its end (0 while it keeps up)").tag("source", name)
                    .register(registry);
        }
        patternsLastRead.keySet().forEach(pattern -> Gauge.builder("crawl_errors_follow_last_growth_timestamp_seconds",
                patternsLastRead, m -> m.getOrDefault(pattern, 0L) / 1000.0)
                .description("when a followed log last grew (Unix time; its modification time until it is seen growing)")
                .tag("source", pattern).register(registry));
    }

    private static LogFollower.FollowStatus status(LogFollower follower, String name) {
        for (LogFollower.FollowStatus status : follower.status()) {
            if (status.name().equals(name)) {
                return status;
            }
        }
        return new LogFollower.FollowStatus(name, 0, 0, 0);
    }

    /** What says how following is going (tests). */
    FollowProgress progress() {
        return progress;
    }

    /** Looks at every file, directory and glob once, on the caller's thread (tests). */
    void pollOnce() {
        follower.pollOnce();
        lookAtPatterns();
    }

    /** Stops following; what was read is stored by the time this returns. */
    @Override
    public void close() {
        stopped.countDown();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        Threads.awaitEnd(t, Duration.ofSeconds(30));
        recorder.close();
        follower.close();
        reader.close();
        patternReaders.forEach(LogReader::close);
        progress.close();
    }
}
