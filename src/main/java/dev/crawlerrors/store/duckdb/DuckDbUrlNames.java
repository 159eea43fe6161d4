package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.text.Threads;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The URLs' names by number, kept in memory up to a bound in bytes and read from {@code url_names}
 * for the numbers not kept. DuckDB reads {@code url_names} by a list of numbers with a scan of
 * every URL's number (the numbers are hashes: no row group can be skipped by its bounds), which
 * was most of a filtered URLs view's first read; a name never changes under its number, so a name
 * kept is right for as long as the store lives. The names are read into memory once, on a thread of
 * their own, after the first names are asked for (not at open: a store that serves no URLs page
 * pays nothing); each name read from the table is kept too, while there is room.
 */
final class DuckDbUrlNames {

    /** The memory the names may take unless told: some 50 bytes a URL over its name, a million URLs in about 90 MiB. */
    static final long DEFAULT_BYTES = 96L << 20;
    private static final int SLICES = DuckDbUrlFold.SLICES;

    private final DuckDbQuery query;
    private final long bound;
    private final AtomicBoolean filling = new AtomicBoolean();
    private volatile boolean filled;
    /** Open addressing by number: {@code at[slot]} is the name's place in {@link #arena}, -1 for an empty slot. */
    private long[] keys = new long[1024];
    private int[] at = emptySlots(1024);
    /** Each name as its host's index and its URL, each length first (a variable-length int), the URL in UTF-8. */
    private byte[] arena = new byte[1 << 16];
    private int used;
    private int count;
    private final List<String> hosts = new ArrayList<>();
    private final Map<String, Integer> hostIndex = new HashMap<>();
    /** Set once a name did not fit: the fill stops, and names beyond the bound are read from the table. */
    private boolean full;

    DuckDbUrlNames(DuckDbQuery query, long bound) {
        this.query = query;
        this.bound = bound;
    }

    /** The names of {@code keys} that the store has: from memory, the others from {@code url_names} (and kept, while there is room). */
    Map<Long, UrlKey> names(Collection<Long> keys) {
        startFill();
        Map<Long, UrlKey> found = new HashMap<>(keys.size() * 2);
        List<Long> missing = new ArrayList<>();
        synchronized (this) {
            for (long k : keys) {
                UrlKey key = get(k);
                if (key == null) {
                    missing.add(k);
                } else {
                    found.put(k, key);
                }
            }
        }
        if (missing.isEmpty()) {
            return found;
        }
        // one URL's number as a constant is a filter of the scan: no name but its own is read
        String which = missing.size() == 1 ? "k = ?" : "k IN (SELECT unnest(?))";
        Object keyParam = missing.size() == 1 ? missing.get(0) : new DuckDbQuery.Array("BIGINT", missing.toArray());
        query.run("SELECT k, host, url FROM url_names WHERE " + which, List.of(keyParam), rs -> keep(rs, found));
        return found;
    }

    /** How many names memory holds now. */
    synchronized int kept() {
        return count;
    }

    /** The bytes memory holds for the names now (its tables as allocated). */
    synchronized long bytes() {
        return (long) keys.length * Long.BYTES + (long) at.length * Integer.BYTES + arena.length;
    }

    private void startFill() {
        if (filling.compareAndSet(false, true)) {
            Threads.startDaemon("url-names", this::fill);
        }
    }

    /** Reads every name into memory, a slice of the numbers at a time, until they are all in or one does not fit. */
    private void fill() {
        long slice = Long.MAX_VALUE / SLICES + 1;
        try {
            for (int n = 0; n < SLICES && !isFull(); n++) {
                long low = n * slice;
                long high = n == SLICES - 1 ? Long.MAX_VALUE : low + slice;
                query.run("SELECT k, host, url FROM url_names WHERE k >= ? AND k < ?", List.of(low, high), rs -> keep(rs, null));
            }
        } catch (RuntimeException e) {
            // the names not read are read from the table when asked for: memory only makes it faster
        } finally {
            filled = true;
        }
    }

    /** Whether the names were read into memory, all of them or as many as fit. */
    boolean filled() {
        return filled;
    }

    private synchronized boolean isFull() {
        return full;
    }

    private Void keep(ResultSet rs, Map<Long, UrlKey> found) throws SQLException {
        while (rs.next()) {
            long k = rs.getLong(1);
            String host = rs.getString(2);
            String url = rs.getString(3);
            if (found != null) {
                found.put(k, new UrlKey(host, url));
            }
            synchronized (this) {
                if (!full && get(k) == null) {
                    put(k, host, url);
                }
            }
        }
        return null;
    }

    private UrlKey get(long k) {
        int mask = keys.length - 1;
        for (int slot = slot(k, mask); at[slot] >= 0; slot = (slot + 1) & mask) {
            if (keys[slot] == k) {
                return decode(at[slot]);
            }
        }
        return null;
    }

    private void put(long k, String host, String url) {
        Integer index = hostIndex.get(host);
        byte[] text = url.getBytes(StandardCharsets.UTF_8);
        int size = 10 + text.length;
        boolean grow = (count + 1) * 2 > keys.length;
        long slots = (long) (grow ? keys.length * 2 : keys.length) * (Long.BYTES + Integer.BYTES);
        long names = used + size <= arena.length ? arena.length : (long) arena.length * 2 + size;
        if (slots + names > bound || names > Integer.MAX_VALUE - 8) {
            full = true;
            return;
        }
        if (index == null) {
            index = hosts.size();
            hosts.add(host);
            hostIndex.put(host, index);
        }
        if (grow) {
            rehash(keys.length * 2);
        }
        if (used + size > arena.length) {
            arena = Arrays.copyOf(arena, arena.length * 2 + size);
        }
        int start = used;
        used = varint(index, used);
        used = varint(text.length, used);
        System.arraycopy(text, 0, arena, used, text.length);
        used += text.length;
        place(k, start);
        count++;
    }

    private void rehash(int capacity) {
        long[] oldKeys = keys;
        int[] oldAt = at;
        keys = new long[capacity];
        at = emptySlots(capacity);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldAt[i] >= 0) {
                place(oldKeys[i], oldAt[i]);
            }
        }
    }

    private void place(long k, int offset) {
        int mask = keys.length - 1;
        int slot = slot(k, mask);
        while (at[slot] >= 0) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = k;
        at[slot] = offset;
    }

    private UrlKey decode(int offset) {
        int[] position = {offset};
        int host = readVarint(position);
        int length = readVarint(position);
        return new UrlKey(hosts.get(host), new String(arena, position[0], length, StandardCharsets.UTF_8));
    }

    private int varint(int value, int position) {
        int v = value;
        while ((v & ~0x7F) != 0) {
            arena[position++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        arena[position++] = (byte) v;
        return position;
    }

    private int readVarint(int[] position) {
        int value = 0;
        for (int shift = 0;; shift += 7) {
            byte b = arena[position[0]++];
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    /** The numbers are hashes already: their low bits spread the slots. */
    private static int slot(long k, int mask) {
        return (int) (k ^ (k >>> 32)) & mask;
    }

    private static int[] emptySlots(int capacity) {
        int[] slots = new int[capacity];
        Arrays.fill(slots, -1);
        return slots;
    }
}
