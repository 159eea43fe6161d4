package dev.crawlerrors.store;

import dev.crawlerrors.sitemap.SitemapUrl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * How an engine answers {@link UrlStates}, the engine's own part left to it: it keeps each URL's
 * history and its state for the views that are asked most (every crawler the default view shows,
 * and each crawler alone, over all time and every verdict but spoofed: {@link UrlQuery#scope()}),
 * folded up to some snapshot. A read at any snapshot is exact:
 * <ul>
 * <li>a view of a kept scope reads the kept states, less the URLs whose kept state may not be
 *     theirs at the snapshot (hit since the fold, or hit only after the snapshot, or by a claim
 *     whose verdict went to or from spoofed in between), whose states are made from their
 *     histories as of the snapshot and merged into the kept ones in the view's order;</li>
 * <li>any other view (a bot type, a verdict, a time range, several crawlers) makes its states
 *     from the histories (the hits in its range) of the URLs it asks about.</li>
 * </ul>
 * A fold takes {@link #folding}'s write lock to publish, so no read sees two folds.
 */
public abstract class UrlStateReading implements UrlStates {

    /** URLs made from their histories at most, beside the kept states; beyond, the view is made whole and a fold asked for. */
    protected static final int MAX_CHANGED = 20_000;

    /** Held by every read; a fold publishes under the write lock. */
    protected final ReadWriteLock folding = new ReentrantReadWriteLock();

    /** The views' counts and first rows of the kept states, until the next fold. */
    private final KeptPages keptPages = new KeptPages();

    /** The views' counts and first rows made from the histories, each at its snapshot. */
    private final MadePages madePages = new MadePages();

    /**
     * The kept states of {@code scope} that {@code query} takes by URL and state, but those of
     * {@code excluded}, in its order, from {@code offset}, at most {@code limit}; with how many it takes.
     */
    protected abstract UrlPage kept(UrlQuery query, String scope, Set<Long> excluded, long offset, int limit);

    /** Every kept state of {@code scope} that {@code query} takes by URL and state, but those of {@code excluded}, in its order. */
    protected abstract void forEachKept(UrlQuery query, String scope, Set<Long> excluded, Consumer<UrlState> rows);

    /** The numbers of the URLs whose kept states may not be theirs at {@code at}; null when there are more than {@code max}. */
    protected abstract Set<Long> changed(Snapshot at, int max);

    /** The histories at {@code at} of the URLs numbered {@code keys} (those that have hits then); with each hit's address when {@code addresses}. */
    protected abstract void histories(Collection<Long> keys, Snapshot at, boolean addresses, Consumer<UrlHistory> each);

    /** The history at {@code at} of the URL {@code key}, if it has hits then, with each hit's address; an engine may skip reading its name. */
    protected void history(UrlKey key, Snapshot at, Consumer<UrlHistory> each) {
        histories(List.of(key.number()), at, true, each);
    }

    /** The numbers of the URLs with the request target {@code url}, on any host, that have hits at {@code at}. */
    protected abstract Set<Long> hostsOf(String url, Snapshot at);

    /** Whether a fold would bring the kept states up to {@code at} (it is not older than they are). */
    protected abstract boolean foldReaches(Snapshot at);

    /** The histories at {@code at} of every URL {@code query} asks about (host, prefix, shape, sitemap), of the hits in its time range. */
    protected abstract void histories(UrlQuery query, Snapshot at, Consumer<UrlHistory> each);

    /**
     * The histories at {@code at} of every URL {@code query} asks about (its host and its prefix,
     * one that {@link UrlHeads#decide heads decide}; no shape, no sitemap), of the hits in its time
     * range, each by its URL's number and not named, read from the hits kept in time order; false,
     * reading nothing, when the engine cannot (its hits in time order not ready, or, without a
     * time range, more of them than it reads at once).
     */
    protected boolean numberedHistories(UrlQuery query, Snapshot at, BiConsumer<Long, List<UrlHit>> each) {
        return false;
    }

    /**
     * Gathers hits read in order of their URLs' numbers into one list a URL, handed to {@code each}
     * as a URL's last hit is passed: how an engine's {@link #numberedHistories} groups its rows.
     */
    protected static final class ByNumber {
        private final BiConsumer<Long, List<UrlHit>> each;
        private long key;
        private List<UrlHit> hits;

        public ByNumber(BiConsumer<Long, List<UrlHit>> each) {
            this.each = each;
        }

        /** The next hit, of the URL numbered {@code k}: the same number as the hit before, or the next URL's. */
        public void add(long k, UrlHit hit) {
            if (hits != null && k != key) {
                each.accept(key, hits);
                hits = null;
            }
            if (hits == null) {
                key = k;
                hits = new ArrayList<>();
            }
            hits.add(hit);
        }

        /** Hands on the last URL's hits: after the last row. */
        public void end() {
            if (hits != null) {
                each.accept(key, hits);
                hits = null;
            }
        }
    }

    /** {@code states}, made by number, with their URLs' names. */
    protected List<UrlState> named(List<UrlState> states) {
        return states;
    }

    /** What names the fold whose states {@link #kept} reads now: equal for reads of the same fold, unequal after another. */
    protected abstract Object keptFold();

    /** The store's sitemaps, which the states made from histories are matched against for {@code in_sitemap}. */
    protected abstract SitemapStore sitemaps();

    /**
     * For a sitemap view, the sitemaps' reads the store holds now, which its kept first rows are
     * good for until one is read again; taken before the view is read. Null for any other view.
     */
    private Object sitemapReads(UrlQuery query) {
        return query.filter().inSitemap() == null ? null : sitemaps().sitemaps();
    }


    @Override
    public UrlPage page(UrlQuery query, Snapshot at, long offset, int limit) {
        folding.readLock().lock();
        try {
            String scope = query.scope();
            if (scope != null) {
                Set<Long> changed = changed(at, MAX_CHANGED);
                if (changed != null) {
                    return merged(query, scope, changed, at, offset, limit);
                }
                behind(at);
            }
            return made(query, at, offset, limit);
        } finally {
            folding.readLock().unlock();
        }
    }

    @Override
    public void forEach(UrlQuery query, Snapshot at, Consumer<UrlState> rows) {
        folding.readLock().lock();
        try {
            String scope = query.scope();
            Set<Long> changed = scope == null ? null : changed(at, MAX_CHANGED);
            if (changed == null) {
                if (scope != null) {
                    behind(at);
                }
                List<UrlState> all = new ArrayList<>();
                histories(query, at, history -> take(query, history, all::add));
                all.sort(query.sort().order());
                all.forEach(rows);
                return;
            }
            List<UrlState> made = made(query, changed, at);
            int[] next = {0};
            Comparator<UrlState> order = query.sort().order();
            forEachKept(query, scope, changed, kept -> {
                while (next[0] < made.size() && order.compare(made.get(next[0]), kept) < 0) {
                    rows.accept(made.get(next[0]++));
                }
                rows.accept(kept);
            });
            for (int i = next[0]; i < made.size(); i++) {
                rows.accept(made.get(i));
            }
        } finally {
            folding.readLock().unlock();
        }
    }

    @Override
    public Optional<UrlHistory> history(UrlKey key, Snapshot at) {
        folding.readLock().lock();
        try {
            List<UrlHistory> found = new ArrayList<>(1);
            history(key, at, found::add);
            return found.stream().filter(h -> !h.hits().isEmpty() && h.key().equals(key)).findFirst();
        } finally {
            folding.readLock().unlock();
        }
    }

    @Override
    public List<UrlHistory> histories(String url, Snapshot at) {
        folding.readLock().lock();
        try {
            List<UrlHistory> found = new ArrayList<>();
            Set<Long> keys = hostsOf(url, at);
            if (!keys.isEmpty()) {
                histories(keys, at, true, h -> {
                    if (!h.hits().isEmpty()) {
                        found.add(h);
                    }
                });
            }
            found.sort(Comparator.comparing(h -> h.key().host()));
            return found;
        } finally {
            folding.readLock().unlock();
        }
    }

    /** When the kept states are too far behind {@code at}: a fold is asked for, and the read told to come back, if it would help. */
    private void behind(Snapshot at) {
        if (foldReaches(at)) {
            catchUp();
            throw new UrlStatesBehindException();
        }
    }

    /**
     * The page merged from the kept states (less {@code changed}) and the states of {@code changed}
     * made from their histories. Of the kept ones only the rows from {@code offset - made} on are
     * read: no more than all the made ones can come before the page.
     */
    private UrlPage merged(UrlQuery query, String scope, Set<Long> changed, Snapshot at, long offset, int limit) {
        List<UrlState> made = made(query, changed, at);
        Comparator<UrlState> order = query.sort().order();
        long from = Math.max(0, offset - made.size());
        UrlPage kept = keptPages.page(keptFold(), sitemapReads(query), query, scope, changed, from, (int) Math.min(Integer.MAX_VALUE, offset + limit - from),
                this::kept);
        List<UrlState> rows = new ArrayList<>(limit);
        int m = 0;
        long position = from;
        List<UrlState> keptRows = kept.rows();
        if (from > 0 && !keptRows.isEmpty()) {
            // made states before the first kept row read are before the page (see above): only counted
            while (m < made.size() && order.compare(made.get(m), keptRows.get(0)) < 0) {
                m++;
                position++;
            }
        }
        boolean keptToTheEnd = from + keptRows.size() >= kept.total();
        int k = 0;
        while (rows.size() < limit) {
            UrlState next;
            boolean haveKept = k < keptRows.size();
            boolean haveMade = m < made.size();
            if (haveKept && (!haveMade || order.compare(keptRows.get(k), made.get(m)) < 0)) {
                next = keptRows.get(k++);
            } else if (haveMade && (haveKept || keptToTheEnd)) {
                next = made.get(m++);
            } else {
                break;
            }
            if (position++ >= offset) {
                rows.add(next);
            }
        }
        return new UrlPage(kept.total() + made.size(), rows);
    }

    /** The states at {@code at} of {@code keys} that {@code query} lists, in its order. */
    private List<UrlState> made(UrlQuery query, Collection<Long> keys, Snapshot at) {
        List<UrlState> made = new ArrayList<>();
        if (!keys.isEmpty()) {
            histories(keys, at, false, history -> take(query, history, made::add));
        }
        if (query.filter().inSitemap() != null && !made.isEmpty()) {
            // asked of the store at once for all of them, as the engine's own query asks of the kept states
            Set<SitemapUrl> listed = sitemaps().listed(made.stream().map(UrlStateReading::sitemapKey).toList());
            made.removeIf(state -> listed.contains(sitemapKey(state)) != query.filter().inSitemap());
        }
        made.sort(query.sort().order());
        return made;
    }

    /** A page of a view made whole from the histories, its first pages kept for the next reads at the same snapshot. */
    private UrlPage made(UrlQuery query, Snapshot at, long offset, int limit) {
        return madePages.page(query, at, sitemapReads(query), offset, limit, wanted -> first(query, at, wanted));
    }

    /** The first {@code wanted} rows of a view made whole from the histories, kept in a bounded heap, and its number. */
    private UrlPage first(UrlQuery query, Snapshot at, long wanted) {
        Comparator<UrlState> order = query.sort().order();
        PriorityQueue<UrlState> first = new PriorityQueue<>(order.reversed());
        long[] total = {0};
        Consumer<UrlState> offer = state -> {
            total[0]++;
            if (first.size() < wanted) {
                first.add(state);
            } else if (order.compare(state, first.peek()) < 0) {
                first.poll();
                first.add(state);
            }
        };
        // by number when the engine can: the names of the first rows alone are read, after
        HitFilter filter = query.filter();
        boolean numbered = filter.urlPattern() == null && filter.inSitemap() == null && UrlHeads.decide(filter.urlPrefix())
                && numberedHistories(query, at, (key, hits) -> {
            UrlState state = UrlHistory.state(key, hits, query);
            if (state != null && query.takesState(state)) {
                offer.accept(state);
            }
        });
        if (!numbered) {
            histories(query, at, history -> take(query, history, offer));
        }
        List<UrlState> sorted = new ArrayList<>(first);
        sorted.sort(order);
        return new UrlPage(total[0], numbered ? named(sorted) : sorted);
    }

    private static SitemapUrl sitemapKey(UrlState state) {
        return new SitemapUrl(state.host(), state.url());
    }

    private static void take(UrlQuery query, UrlHistory history, Consumer<UrlState> rows) {
        if (!query.takesUrl(history.key().host(), history.key().url())) {
            return;
        }
        UrlState state = history.state(query);
        if (state != null && query.takesState(state)) {
            rows.accept(state);
        }
    }
}
