package dev.crawlerrors.pipeline;

import dev.crawlerrors.sitemap.SitemapRead;
import dev.crawlerrors.sitemap.SitemapReader;
import dev.crawlerrors.sitemap.SitemapRefusedException;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.SitemapWrite;
import dev.crawlerrors.store.StoredSitemap;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.Threads;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The sitemaps given with {@code --sitemap}, read into the store: once ({@code import}), or now and
 * every {@code --sitemap-refresh} in the background ({@code serve}). A read refused (a limit, a
 * status, a timeout) leaves the store's last good copy in use and is said in one sentence; the
 * logs go on either way. What each sitemap's latest attempt came to is kept for the sitemaps page.
 */
public final class SitemapReads implements AutoCloseable {

    /** The latest attempt at one sitemap: when, and its refusal (null when it was read). */
    public record Attempt(Instant at, String refusal) {
    }

    private final List<String> given;
    private final SitemapReader reader;
    private final SitemapStore store;
    private final Consumer<String> notices;
    private final Map<String, Attempt> attempts = new ConcurrentHashMap<>();
    private ScheduledExecutorService schedule;

    /** @param notices where what was read, cut off or refused is said, a sentence each */
    public SitemapReads(List<String> given, SitemapReader reader, SitemapStore store, Consumer<String> notices) {
        this.given = List.copyOf(given);
        this.reader = reader;
        this.store = store;
        this.notices = notices;
    }

    /** Reads every sitemap once, now. @return whether each was read and kept */
    public boolean readAll() {
        boolean all = true;
        for (String sitemap : given) {
            all &= readOne(sitemap);
        }
        return all;
    }

    /** Reads every sitemap now and then every {@code every}, on a thread of its own, until closed. */
    public synchronized void start(Duration every) {
        start(every, () -> { });
    }

    /**
     * As {@link #start(Duration)}, with {@code afterReads} run after each round of reads (a report
     * counts what it keeps by sitemap again, before a view asks for it).
     */
    public synchronized void start(Duration every, Runnable afterReads) {
        if (given.isEmpty()) {
            return;
        }
        schedule = Executors.newSingleThreadScheduledExecutor(Threads.daemons("sitemaps"));
        schedule.scheduleWithFixedDelay(() -> {
            readAll();
            afterReads.run();
        }, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The latest attempt at {@code sitemap}, if any was made by this process. */
    public Optional<Attempt> attempt(String sitemap) {
        return Optional.ofNullable(attempts.get(sitemap));
    }

    /** The sitemaps given, as typed. */
    public List<String> given() {
        return given;
    }

    /** Reads {@code sitemap} and keeps it in the store; says what it came to. @return whether it was kept */
    boolean readOne(String sitemap) {
        Instant at = Instant.now();
        String refusal;
        try {
            SitemapRead read;
            try (SitemapWrite write = store.replacing(sitemap)) {
                read = reader.read(sitemap, write);
                write.commit(read.readAt());
            }
            attempts.put(sitemap, new Attempt(at, null));
            notices.accept("sitemap " + sitemap + ": " + Figures.counted(read.urls(), "URL") + " read from "
                    + Figures.counted(read.files(), "file"));
            read.warnings().forEach(warning -> notices.accept("sitemap: " + warning));
            return true;
        } catch (SitemapRefusedException e) {
            refusal = e.getMessage();
        } catch (RuntimeException e) {
            refusal = "sitemap " + sitemap + " was read but not kept: " + Failures.message(e);
        }
        attempts.put(sitemap, new Attempt(at, refusal));
        notices.accept(refusal + "; " + lastGood(sitemap));
        return false;
    }

    /** What stays in use when a read of {@code sitemap} fails. */
    private String lastGood(String sitemap) {
        try {
            for (StoredSitemap held : store.sitemaps()) {
                if (held.sitemap().equals(sitemap)) {
                    return "the copy read at " + held.readAt() + " (" + Figures.counted(held.urls(), "URL") + ") stays in use";
                }
            }
        } catch (RuntimeException e) {
            // the store says nothing: neither can this
        }
        return "no copy of it is held yet";
    }

    @Override
    public synchronized void close() {
        if (schedule != null) {
            schedule.shutdownNow();
            try {
                schedule.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
