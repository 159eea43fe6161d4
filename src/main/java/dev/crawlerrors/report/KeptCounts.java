package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Counts of the store's hits, kept per filter and brought up to date as hits arrive, so that the
 * patterns, the overview and the report's summary do not read every hit for every request.
 *
 * <p>Counts are taken at a {@link Snapshot} of the store, as the report's pages are read. A filter's
 * counts are made once, on a thread of their own, at the newest snapshot; a request at a later
 * snapshot of the same verdicts counts only the hits numbered after the counted snapshot's
 * ({@link HitWindow}), which a followed log makes a few hundred; so does one whose verdicts since
 * are only the first verdicts of new claims ({@link HitReader#sameVerdicts}: a new address's hits
 * are all in the window). A verdict that changed may move hits between verdicts, which a window of
 * new hits cannot account for: the filter is counted again
 * at the newest snapshot, in the background, and until that is done a request is answered from the
 * counts before, marked as being recounted (a verdict changes the shown figures by a few hits; a
 * recount of 10 million hits takes seconds). A request at a snapshot older than the counts' is
 * answered from them as they are: each answer says the snapshot it was counted at.
 *
 * <p>Bounded: at most {@code capacity} filters are kept (the least recently asked is dropped), each
 * with at most one count running, on one thread per kind of count.
 *
 * @param <S> what is counted (mutable; touched only under its entry's lock)
 */
final class KeptCounts<S> {

    /** How a kind of count is made. */
    interface Counting<S> {
        /** Nothing counted yet. */
        S start();

        /** Adds the hits of {@code window} that {@code filter} matches. */
        void count(S state, HitFilter filter, HitWindow window);
    }

    /** What was counted, the snapshot it was counted at, and whether it predates a verdict change being recounted. */
    record Counted<R>(R value, Snapshot at, boolean recounting) {
    }

    /** How long closing waits for a count that is running. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(60);

    private final HitReader store;
    private final Counting<S> counting;
    private final Map<HitFilter, Kept<S>> entries;
    private final ExecutorService counter;

    private static final class Kept<S> {
        S state;
        /** The snapshot {@link #state} was counted at. */
        Snapshot at;
        Future<?> recount;
        /** What was read from the state since it last changed, by what was asked. */
        final Map<Object, Object> views = new HashMap<>();
    }

    KeptCounts(HitReader store, Counting<S> counting, int capacity, String name) {
        this.store = store;
        this.counting = counting;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<HitFilter, Kept<S>> eldest) {
                return size() > capacity;
            }
        };
        this.counter = Executors.newSingleThreadExecutor(Threads.daemons(name));
    }

    /**
     * What {@code view} reads from the counts of {@code filter}, brought up to snapshot {@code now}
     * (one of the store's); empty when they are being made for the first time and {@code wait}
     * passed first (the count goes on). {@code view}'s answers are kept until the counts change,
     * under {@code viewKey}.
     */
    <R> Optional<Counted<R>> read(HitFilter filter, Snapshot now, Duration wait, Object viewKey, Function<S, R> view) {
        Kept<S> entry;
        synchronized (entries) {
            entry = entries.computeIfAbsent(filter, f -> new Kept<>());
        }
        Future<?> pending;
        synchronized (entry) {
            // the store's snapshots are ordered: a later one holds every hit and verdict of an earlier one
            if (entry.state != null && (entry.at.covers(now) || store.sameVerdicts(entry.at, now))) {
                if (!entry.at.covers(now)) {
                    counting.count(entry.state, filter, HitWindow.since(entry.at, now));
                    entry.at = now;
                    entry.views.clear();
                }
                return Optional.of(new Counted<>(view(entry, viewKey, view), entry.at, false));
            }
            if (entry.recount == null) {
                Kept<S> counted = entry;
                entry.recount = counter.submit(() -> recount(counted, filter));
            }
            if (entry.state != null) {
                return Optional.of(new Counted<>(view(entry, viewKey, view), entry.at, true));
            }
            pending = entry.recount;
        }
        try {
            pending.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (CancellationException e) {
            return Optional.empty(); // dropped by close: the report stops
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure
                    : new StoreException("counting failed: " + Failures.message(e.getCause()), e.getCause());
        }
        synchronized (entry) {
            return Optional.of(new Counted<>(view(entry, viewKey, view), entry.at, false));
        }
    }

    /**
     * Drops the counts of the filters {@code which} says: counted again when next asked. For what a snapshot
     * does not say, such as which URLs a sitemap lists (a sitemap read again makes no new snapshot).
     */
    void forget(java.util.function.Predicate<HitFilter> which) {
        synchronized (entries) {
            entries.keySet().removeIf(which);
        }
    }

    /** Stops counting: the count that is running is interrupted (its store read cancelled) and waited for (a store must not close under it); later reads fail. */
    void close() {
        for (Runnable waiting : counter.shutdownNow()) {
            if (waiting instanceof Future<?> count) {
                count.cancel(false); // its readers are told
            }
        }
        try {
            counter.awaitTermination(CLOSE_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @SuppressWarnings("unchecked")
    private <R> R view(Kept<S> entry, Object key, Function<S, R> view) {
        return (R) entry.views.computeIfAbsent(key, k -> view.apply(entry.state));
    }

    private void recount(Kept<S> entry, HitFilter filter) {
        try {
            Snapshot at = store.snapshot();
            S fresh = counting.start();
            counting.count(fresh, filter, HitWindow.at(at));
            synchronized (entry) {
                entry.state = fresh;
                entry.at = at;
                entry.views.clear();
            }
        } finally {
            synchronized (entry) {
                entry.recount = null;
            }
        }
    }
}
