package dev.crawlerrors.crawler.dns;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * DNS answers by question, each kept for its TTL. Positive and negative answers are held apart, each
 * with its own bound, so a flood of spoofed addresses without PTR records cannot push out the
 * answers for genuine crawlers. Failures are never stored.
 *
 * <p>When a side reaches its bound, one caller sweeps it: expired answers go first, then arbitrary
 * ones (a hash table's order) until a quarter of the room is free. Answers are few bytes and
 * evicting one costs one query, so this is cheaper than keeping an order for LRU on every hit.
 */
final class DnsAnswerCache {

    private final Side positive;
    private final Side negative;
    private final LongSupplier nanoTime;

    /**
     * @param maxPositive answers with records (and CNAMEs) to keep, at least 1
     * @param maxNegative NXDOMAIN and empty answers to keep, at least 1
     * @param nanoTime    the clock TTLs are measured on, {@link System#nanoTime} outside tests
     */
    DnsAnswerCache(int maxPositive, int maxNegative, LongSupplier nanoTime) {
        if (maxPositive < 1 || maxNegative < 1) {
            throw new IllegalArgumentException("cache sizes must be at least 1, not " + maxPositive + " and " + maxNegative);
        }
        this.positive = new Side(maxPositive);
        this.negative = new Side(maxNegative);
        this.nanoTime = nanoTime;
    }

    /** The unexpired answer to {@code question}, or null. */
    DnsAnswer get(DnsQuestion question) {
        long now = nanoTime.getAsLong();
        DnsAnswer answer = positive.get(question, now);
        return answer != null ? answer : negative.get(question, now);
    }

    /** Keeps {@code answer} for its TTL; does nothing for failures and zero TTLs. */
    void put(DnsQuestion question, DnsAnswer answer) {
        if (!answer.cacheable()) {
            return;
        }
        long now = nanoTime.getAsLong();
        Entry entry = new Entry(answer, now + answer.ttlSeconds() * 1_000_000_000L);
        Side to = answer.negative() ? negative : positive;
        (to == positive ? negative : positive).entries.remove(question);
        to.put(question, entry, now);
    }

    /** Forgets every answer. */
    void clear() {
        positive.entries.clear();
        negative.entries.clear();
    }

    int size() {
        return positive.entries.size() + negative.entries.size();
    }

    private record Entry(DnsAnswer answer, long expiresAt) {
    }

    private static final class Side {

        final Map<DnsQuestion, Entry> entries = new ConcurrentHashMap<>();
        private final int max;
        private final AtomicBoolean sweeping = new AtomicBoolean();

        Side(int max) {
            this.max = max;
        }

        DnsAnswer get(DnsQuestion question, long now) {
            Entry entry = entries.get(question);
            if (entry == null) {
                return null;
            }
            if (entry.expiresAt - now <= 0) {
                entries.remove(question, entry);
                return null;
            }
            return entry.answer;
        }

        void put(DnsQuestion question, Entry entry, long now) {
            if (entries.size() >= max && sweeping.compareAndSet(false, true)) {
                try {
                    sweep(now);
                } finally {
                    sweeping.set(false);
                }
            }
            entries.put(question, entry);
        }

        private void sweep(long now) {
            entries.values().removeIf(e -> e.expiresAt - now <= 0);
            int target = max - Math.max(1, max / 4);
            for (Iterator<Entry> it = entries.values().iterator(); entries.size() > target && it.hasNext(); ) {
                it.next();
                it.remove();
            }
        }
    }
}
