package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.text.Threads;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The store's URLs in the order of their text, kept in memory, so that the URLs a prefix matches at
 * any depth ({@code /gent/straten/k}, {@code /gent/straat-12}) are found by a binary search
 * instead of a read of every hit's URL; their hits are then read by number from the URL histories
 * ({@code url_log}, sorted by number, and {@code url_tail}), which DuckDB reads only the row groups
 * of. The URLs are read from {@code url_names} sorted by their text, on a thread of their own, when
 * a prefix is first asked for (a store that serves no prefix pays nothing), and cover the hits
 * stored by then; the hits stored after are matched as before, by their text. Front-coded: each URL
 * keeps only what differs from the one before it, a block of {@link #BLOCK} at a time, some 8 bytes
 * a URL over its 8-byte number. Past the bound in bytes the URLs are not kept and prefixes are
 * matched as before.
 *
 * <p>Used only where the histories say of each hit what the hits table does: every hit up to the
 * covered one is in them, each with a claim (the crawler filter is a filter on claims) and a bot type
 * of {@link BotType} (the histories keep its place). Two URLs of one number (a 63-bit hash, one
 * chance in some 10^13 for a million URLs) would share their hits here, as they share a history.
 */
final class DuckDbUrlPrefixes {

    /** The memory the URLs may take unless told: some 16 bytes a URL (1,404,239 in 22.3 MB), four million in about 65 MiB. */
    static final long DEFAULT_BYTES = 128L << 20;
    /**
     * URLs a prefix may match for its hits to be read by number; beyond, the hits are matched by their
     * text. A long list of numbers is a hash join over every number of {@code url_log} (hashes: no row
     * group skipped): on 3,000,000 hits 2,394 URLs counted in 87-95 ms against some 490 ms by text,
     * 88,000 (a first folder's) in 530-610 ms, slower than by text.
     */
    static final int MOST_NUMBERS = 10_000;
    /** Hits stored after the covered ones beyond which the URLs are read again (those after are matched by text). */
    static final long READ_AGAIN_AFTER = 500_000;
    /** How long after a failed read or check the URLs are read again. */
    private static final long RETRY_NANOS = 60_000_000_000L;
    private static final int BLOCK = 16;

    /** The URL numbers a prefix matches, and the hits (numbered up to {@code coveredHits}) whose URLs they cover. */
    record Matches(long[] numbers, long coveredHits) {
    }

    private final DuckDbQuery query;
    private final long bound;
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile Sorted sorted;
    /** Set when the URLs did not fit: not read again. */
    private volatile boolean tooMany;
    /** When the last read failed or found the histories short ({@link System#nanoTime}); null when none did. */
    private volatile Long failedAt;

    DuckDbUrlPrefixes(DuckDbQuery query, long bound) {
        this.query = query;
        this.bound = bound;
    }

    /**
     * The numbers of the URLs (of {@code host}, of any host when null) starting with {@code prefix},
     * or null when they are not known here: not read yet (the read starts), too many, or a prefix
     * compared otherwise than by its UTF-8 bytes. {@code snapshotHits} is the asking snapshot's newest
     * hit: committed, so the names of the hits up to it are too, and a read started now covers them.
     */
    Matches find(String host, String prefix, long snapshotHits) {
        if (prefix == null || prefix.isEmpty() || prefix.indexOf('\0') >= 0 || (host != null && host.isEmpty())
                || !StandardCharsets.UTF_8.newEncoder().canEncode(prefix)) {
            return null;
        }
        Sorted kept = sorted;
        if (kept == null || snapshotHits - kept.coveredHits > READ_AGAIN_AFTER) {
            startReading(snapshotHits);
        }
        return kept == null ? null : kept.find(host, prefix.getBytes(StandardCharsets.UTF_8));
    }

    /** The URLs kept, and the bytes they take. */
    List<Long> footprint() {
        Sorted kept = sorted;
        return kept == null ? List.of(0L, 0L) : List.of((long) kept.count, kept.bytes());
    }

    private void startReading(long covered) {
        Long failed = failedAt;
        if (tooMany || (failed != null && System.nanoTime() - failed < RETRY_NANOS)) {
            return;
        }
        if (reading.compareAndSet(false, true)) {
            Threads.startDaemon("url-prefixes", () -> read(covered));
        }
    }

    /** Reads every URL's name in order, after checking that the histories hold every hit the names will cover. */
    private void read(long covered) {
        try {
            if (!historiesHoldEveryHit(covered)) {
                failedAt = System.nanoTime();
                return;
            }
            long urls = query.run("SELECT count(*) FROM url_names", List.of(), rs -> rs.next() ? rs.getLong(1) : 0L);
            if (urls * (Long.BYTES + 9) > bound) {
                tooMany = true; // some 8 bytes of text a URL at least beside its number: not read to find it out
                return;
            }
            Builder builder = new Builder(bound, (int) urls);
            Boolean done = query.run("SELECT url, host, k FROM url_names ORDER BY url, host", List.of(), rs -> {
                while (rs.next()) {
                    if (!builder.add(rs.getString(1), rs.getString(2), rs.getLong(3))) {
                        return false;
                    }
                }
                return true;
            });
            if (!done) {
                tooMany = builder.full;
                failedAt = System.nanoTime();
                return;
            }
            sorted = builder.finish(covered);
        } catch (RuntimeException e) {
            failedAt = System.nanoTime(); // prefixes are matched by text meanwhile: memory only makes them faster
        } finally {
            reading.set(false);
        }
    }

    /**
     * Whether the histories hold every hit up to {@code covered} with what the hits table says of it:
     * as many rows (none of a store's older hits still waiting for their history), each hit a claim
     * and a bot type the histories can keep by its place.
     */
    private boolean historiesHoldEveryHit(long covered) {
        String types = Arrays.stream(BotType.values()).map(t -> "'" + t.name() + "'").collect(Collectors.joining(", "));
        return query.run("SELECT (SELECT count(*) FROM hits WHERE id <= ?), (SELECT count(*) FROM url_log WHERE i <= ?)"
                + " + (SELECT count(*) FROM url_tail WHERE i <= ?), (SELECT count(*) FROM hits WHERE id <= ? AND (claim_id IS NULL"
                + " OR bot_type NOT IN (" + types + ")))", List.of(covered, covered, covered, covered),
                rs -> rs.next() && rs.getLong(1) == rs.getLong(2) && rs.getLong(3) == 0);
    }

    /** The URLs in order, front-coded; immutable once made. */
    private static final class Sorted {

        private final byte[] arena;
        private final int[] blockStarts;
        private final long[] numbers;
        private final String[] hosts;
        private final int count;
        private final long coveredHits;

        Sorted(byte[] arena, int[] blockStarts, long[] numbers, String[] hosts, int count, long coveredHits) {
            this.arena = arena;
            this.blockStarts = blockStarts;
            this.numbers = numbers;
            this.hosts = hosts;
            this.count = count;
            this.coveredHits = coveredHits;
        }

        long bytes() {
            return arena.length + 4L * blockStarts.length + 8L * numbers.length;
        }

        /** The numbers of the URLs of {@code host} (any when null) starting with {@code prefix}; null past {@link #MOST_NUMBERS}. */
        Matches find(String host, byte[] prefix) {
            int hostIndex = -1;
            if (count == 0) {
                return new Matches(new long[0], coveredHits);
            }
            if (host != null) {
                hostIndex = Arrays.asList(hosts).indexOf(host);
                if (hostIndex < 0) {
                    return new Matches(new long[0], coveredHits);
                }
            }
            // the last block whose first URL sorts before the prefix: the first URL at or after the prefix is in it or starts the next
            int lo = 0;
            int hi = blocks() - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (compareFirst(mid, prefix) < 0) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            long[] found = new long[16];
            int n = 0;
            Cursor cursor = new Cursor();
            cursor.at(lo);
            while (cursor.next()) {
                int c = cursor.compareStart(prefix);
                if (c < 0) {
                    continue; // before the prefix's URLs
                }
                if (c > 0) {
                    break; // after them: the URLs are in order
                }
                if (hostIndex >= 0 && cursor.host != hostIndex) {
                    continue;
                }
                if (n == MOST_NUMBERS) {
                    return null;
                }
                if (n == found.length) {
                    found = Arrays.copyOf(found, n * 2);
                }
                found[n++] = numbers[cursor.index];
            }
            return new Matches(Arrays.copyOf(found, n), coveredHits);
        }

        private int blocks() {
            return blockStarts.length;
        }

        /** The first URL of block {@code b} against {@code prefix}, unsigned bytes. */
        private int compareFirst(int b, byte[] prefix) {
            int[] at = {blockStarts[b]};
            readVarint(arena, at); // shared: 0 at a block's start
            int length = readVarint(arena, at);
            return Arrays.compareUnsigned(arena, at[0], at[0] + length, prefix, 0, prefix.length);
        }

        /** Decodes the URLs one after the other from a block's start. */
        private final class Cursor {
            private byte[] url = new byte[256];
            private int length;
            private int host;
            private int index;
            private final int[] at = new int[1];

            void at(int block) {
                at[0] = blockStarts[block];
                index = block * BLOCK - 1;
            }

            boolean next() {
                if (index + 1 >= count) {
                    return false;
                }
                index++;
                int shared = readVarint(arena, at);
                int suffix = readVarint(arena, at);
                if (shared + suffix > url.length) {
                    url = Arrays.copyOf(url, Math.max(url.length * 2, shared + suffix));
                }
                System.arraycopy(arena, at[0], url, shared, suffix);
                at[0] += suffix;
                length = shared + suffix;
                host = readVarint(arena, at);
                return true;
            }

            /** 0 when the URL starts with {@code prefix}, else how it sorts against it. */
            int compareStart(byte[] prefix) {
                if (length >= prefix.length && Arrays.equals(url, 0, prefix.length, prefix, 0, prefix.length)) {
                    return 0;
                }
                return Arrays.compareUnsigned(url, 0, length, prefix, 0, prefix.length);
            }
        }
    }

    /** Makes a {@link Sorted} of URLs given in order; stops when they pass the bound. */
    private static final class Builder {

        private final long bound;
        private byte[] arena;
        private int used;
        private int[] blockStarts;
        private long[] numbers;
        private int count;
        private byte[] previous = new byte[0];
        private final List<String> hosts = new ArrayList<>();
        private final Map<String, Integer> hostIndex = new HashMap<>();
        boolean full;

        /** @param expected the URLs the table holds: the arrays are made that size at once, not doubled to it (peak memory) */
        Builder(long bound, int expected) {
            this.bound = bound;
            this.numbers = new long[Math.max(1024, expected)];
            this.blockStarts = new int[Math.max(256, expected / BLOCK + 1)];
            this.arena = new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(1 << 16, 9L * expected))];
        }

        /** Adds the next URL; false when it does not fit, or is out of order (then no prefix is found here). */
        boolean add(String url, String host, long number) {
            byte[] text = url.getBytes(StandardCharsets.UTF_8);
            if (Arrays.compareUnsigned(text, previous) < 0) {
                return false; // not sorted by bytes: a collation other than the binary one
            }
            Integer h = hostIndex.get(host);
            if (h == null) {
                h = hosts.size();
                hosts.add(host);
                hostIndex.put(host, h);
            }
            boolean starts = count % BLOCK == 0;
            int shared = 0;
            if (!starts) {
                int most = Math.min(text.length, previous.length);
                while (shared < most && text[shared] == previous[shared]) {
                    shared++;
                }
            }
            int size = 15 + text.length - shared;
            if (used + size > arena.length || count == numbers.length || count / BLOCK + 1 > blockStarts.length) {
                long grown = (used + size > arena.length ? arena.length + arena.length / 2L : arena.length) + size
                        + 8L * numbers.length * (count == numbers.length ? 2 : 1) + 4L * blockStarts.length * 2;
                if (grown > bound || grown > Integer.MAX_VALUE - 8) {
                    full = true;
                    return false;
                }
                if (used + size > arena.length) {
                    arena = Arrays.copyOf(arena, arena.length + arena.length / 2 + size);
                }
                if (count == numbers.length) {
                    numbers = Arrays.copyOf(numbers, count * 2);
                }
                if (count / BLOCK + 1 > blockStarts.length) {
                    blockStarts = Arrays.copyOf(blockStarts, blockStarts.length * 2);
                }
            }
            if (starts) {
                blockStarts[count / BLOCK] = used;
            }
            used = writeVarint(shared, used);
            used = writeVarint(text.length - shared, used);
            System.arraycopy(text, shared, arena, used, text.length - shared);
            used += text.length - shared;
            used = writeVarint(h, used);
            numbers[count++] = number;
            previous = text;
            return true;
        }

        Sorted finish(long coveredHits) {
            int blocks = (count + BLOCK - 1) / BLOCK;
            // trimmed only where it saves a tenth: a copy of the arena is a second one at the peak
            byte[] text = used < arena.length - arena.length / 10 ? Arrays.copyOf(arena, used) : arena;
            long[] kept = count < numbers.length - numbers.length / 10 ? Arrays.copyOf(numbers, count) : numbers;
            return new Sorted(text, Arrays.copyOf(blockStarts, blocks), kept, hosts.toArray(String[]::new), count, coveredHits);
        }

        private int writeVarint(int value, int at) {
            int v = value;
            while ((v & ~0x7F) != 0) {
                arena[at++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            arena[at++] = (byte) v;
            return at;
        }
    }

    private static int readVarint(byte[] arena, int[] at) {
        int value = 0;
        int shift = 0;
        while (true) {
            byte b = arena[at[0]++];
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
            shift += 7;
        }
    }
}
