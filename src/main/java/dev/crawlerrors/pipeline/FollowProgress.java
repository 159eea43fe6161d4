package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.text.Threads;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Says how {@code serve --follow} is going: every {@link #EVERY} while lines flow, one line with the
 * lines read since the last one and their rate, the bad ones, the crawler hits among them and how
 * many were errors, and the totals since the start. Nothing while the logs are quiet, and never a
 * line per log line: a busy site's output stays readable, and a service log (off a terminal) shows
 * that following is alive.
 */
public final class FollowProgress implements AutoCloseable {

    /** Often enough to see traffic move, seldom enough to read; the same as import's rate line off a terminal. */
    public static final Duration EVERY = Duration.ofSeconds(5);

    private final Consumer<String> log;
    private final LongSupplier nanoTime;
    private ScheduledExecutorService timer;

    private long since;
    private long lines;
    private long bad;
    private long crawlerHits;
    private long errorHits;
    private long totalLines;
    private long totalCrawlerHits;

    FollowProgress(Consumer<String> log) {
        this(log, System::nanoTime);
    }

    FollowProgress(Consumer<String> log, LongSupplier nanoTime) {
        this.log = log;
        this.nanoTime = nanoTime;
        this.since = nanoTime.getAsLong();
    }

    /** Starts saying, every {@link #EVERY}, what was read since the last time. */
    synchronized void start() {
        timer = Executors.newSingleThreadScheduledExecutor(Threads.daemons("follow-progress"));
        timer.scheduleAtFixedRate(this::tick, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A batch of {@code lines} was read (and its hits stored), {@code bad} of them bad. */
    synchronized void read(long lines, long bad) {
        this.lines += lines;
        this.bad += bad;
    }

    /** Crawler hits were stored. */
    synchronized void stored(List<CrawlerHit> hits) {
        crawlerHits += hits.size();
        for (CrawlerHit hit : hits) {
            if (hit.hit().status() >= StatusRange.ERRORS.low()) {
                errorHits++;
            }
        }
    }

    /** {@code hits} crawler hits were committed, {@code errorHits} of them errors ({@link CommittedHits}). */
    synchronized void committed(long hits, long errorHits) {
        crawlerHits += hits;
        this.errorHits += errorHits;
    }

    /** The crawler hits stored since the start, those not said yet among them. */
    synchronized long crawlerHitsStored() {
        return totalCrawlerHits + crawlerHits;
    }

    /** Says what was read since the last tick, if anything was, and starts counting afresh. */
    synchronized void tick() {
        long now = nanoTime.getAsLong();
        double seconds = (now - since) / 1e9;
        since = now;
        if (lines == 0) {
            return;
        }
        totalLines += lines;
        totalCrawlerHits += crawlerHits;
        log.accept(String.format(Locale.ROOT, "%s in %.1f s (%,d lines/s%s), %s (%s); %s and %s since the start",
                count(lines, "line"), seconds, Math.round(lines / Math.max(seconds, 1e-3)),
                bad > 0 ? String.format(Locale.ROOT, ", %,d bad", bad) : "",
                count(crawlerHits, "crawler hit"), count(errorHits, "error"), count(totalLines, "line"),
                count(totalCrawlerHits, "crawler hit")));
        lines = 0;
        bad = 0;
        crawlerHits = 0;
        errorHits = 0;
    }

    /** {@code 1 line}, {@code 2 lines}: the number with the noun it counts. */
    private static String count(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s%s", n, noun, n == 1 ? "" : "s");
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
