package dev.crawlerrors.report;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The distinct URLs of the held rows' copy ({@link DefaultViewRows}), sorted by their UTF-8 bytes (as the stores compare them, so that the URLs a
 * prefix starts are one range of numbers) and front-coded in groups of {@value #GROUP}: each group's first
 * URL whole (its length as a varint, then its bytes), each next one as the bytes it shares with the one
 * before, and the rest (two varints and the rest's bytes).
 */
final class UrlDictionary {

    /** URLs a group: a URL is found by decoding at most this many from its group's first. */
    static final int GROUP = 16;
    private final byte[][] chunks;
    /** Where each group starts: chunk and offset. */
    private final long[] groups;
    private final int size;

    UrlDictionary(byte[][] chunks, long[] groups, int size) {
        this.chunks = chunks;
        this.groups = groups;
        this.size = size;
    }

    int size() {
        return size;
    }

    /** URL number {@code n} as a string, or null when {@code n} is negative (a row without one). */
    String text(int n) {
        if (n < 0) {
            return null;
        }
        byte[][] buffer = {new byte[128]};
        int length = bytes(n, buffer);
        return new String(buffer[0], 0, length, StandardCharsets.UTF_8);
    }

    /** Writes URL number {@code n}'s bytes into {@code buffer[0]} (a larger one when they do not fit) and returns their length. */
    private int bytes(int n, byte[][] buffer) {
        long start = groups[n / GROUP];
        byte[] chunk = chunks[(int) (start >>> 32)];
        int[] at = {(int) start};
        int length = 0;
        for (int k = 0; k <= n % GROUP; k++) {
            int shared = k == 0 ? 0 : varint(chunk, at);
            int rest = varint(chunk, at);
            if (shared + rest > buffer[0].length) {
                buffer[0] = Arrays.copyOf(buffer[0], Math.max(2 * buffer[0].length, shared + rest));
            }
            System.arraycopy(chunk, at[0], buffer[0], shared, rest);
            at[0] += rest;
            length = shared + rest;
        }
        return length;
    }

    private static int varint(byte[] chunk, int[] at) {
        int value = 0;
        for (int shift = 0;; shift += 7) {
            byte b = chunk[at[0]++];
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    /**
     * The first URL number whose bytes are not less than {@code prefix}'s; with {@code past}, the first whose
     * bytes neither start with {@code prefix} nor come before it: the URLs that start with it are the range between.
     */
    int lowerBound(byte[] prefix, boolean past) {
        int lo = 0;
        int hi = size;
        byte[][] buffer = {new byte[256]};
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int length = bytes(mid, buffer);
            if (compare(buffer[0], length, prefix, past) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** A URL's bytes against a prefix: below (-1) or not; with {@code past}, a URL that starts with it counts as below. */
    private static int compare(byte[] url, int length, byte[] prefix, boolean past) {
        int n = Math.min(length, prefix.length);
        for (int k = 0; k < n; k++) {
            int c = Integer.compare(url[k] & 0xFF, prefix[k] & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        if (length >= prefix.length) {
            return past ? -1 : (length == prefix.length ? 0 : 1);
        }
        return -1;
    }

    long bytes() {
        long sum = 8L * groups.length + 16;
        for (byte[] chunk : chunks) {
            sum += chunk.length + 16;
        }
        return sum;
    }

    /** {@code text}'s UTF-8 bytes, as the store compares them; null when it holds a lone surrogate (no UTF-8 says it). */
    static byte[] utf8(String text) {
        for (int k = 0; k < text.length(); k++) {
            char c = text.charAt(k);
            if (Character.isHighSurrogate(c)) {
                if (k + 1 == text.length() || !Character.isLowSurrogate(text.charAt(k + 1))) {
                    return null;
                }
                k++;
            } else if (Character.isLowSurrogate(c)) {
                return null;
            }
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The distinct URLs of a copy while it is made, numbered as they first come: their UTF-8 bytes written one
     * after another into chunks (a two-byte length, then the bytes), found again by an open-addressing table.
     */
    static final class Builder {
        private static final int CHUNK_BITS = 20;
        private static final int CHUNK_BYTES = 1 << CHUNK_BITS;
        private final List<byte[]> chunks = new ArrayList<>();
        private byte[] chunk;
        private int used;
        private int[] places = new int[1024];
        private int size;
        /** Numbers plus one by hash; 0 is an empty slot. */
        private int[] table = new int[2048];

        /** The distinct URLs so far. */
        int size() {
            return size;
        }

        /** The bytes the set's table takes (dropped first when it is sorted). */
        long tableBytes() {
            return 4L * table.length;
        }

        /** The bytes the set takes now. */
        long bytes() {
            return (long) chunks.size() * (CHUNK_BYTES + 16) + 4L * places.length + 4L * table.length;
        }

        /** {@code url}'s number, a new one when it is new; -1 for one that is not UTF-8 (a lone surrogate) or too long. */
        int number(String url) {
            byte[] bytes = utf8(url);
            if (bytes == null || bytes.length > 0xFFFF) {
                return -1; // a lone surrogate (no store holds one) or a URL of 64 KB: the pages are read from the store
            }
            int hash = hash(bytes, 0, bytes.length);
            int mask = table.length - 1;
            for (int slot = hash & mask;; slot = (slot + 1) & mask) {
                int entry = table[slot];
                if (entry == 0) {
                    break;
                }
                if (equal(entry - 1, bytes)) {
                    return entry - 1;
                }
            }
            if (chunk == null || used + 2 + bytes.length > chunk.length) {
                if (chunks.size() == 1 << (31 - CHUNK_BITS)) {
                    return -1;
                }
                chunk = new byte[CHUNK_BYTES];
                chunks.add(chunk);
                used = 0;
            }
            if (size == places.length) {
                places = Arrays.copyOf(places, 2 * size);
            }
            places[size] = (chunks.size() - 1) << CHUNK_BITS | used;
            chunk[used] = (byte) bytes.length;
            chunk[used + 1] = (byte) (bytes.length >>> 8);
            System.arraycopy(bytes, 0, chunk, used + 2, bytes.length);
            used += 2 + bytes.length;
            int number = size++;
            insert(number, hash);
            if (2 * size > table.length) {
                int[] old = table;
                table = new int[2 * old.length];
                for (int entry : old) {
                    if (entry != 0) {
                        byte[] c = chunks.get(places[entry - 1] >>> CHUNK_BITS);
                        int at = places[entry - 1] & (CHUNK_BYTES - 1);
                        insert(entry - 1, hash(c, at + 2, length(c, at)));
                    }
                }
            }
            return number;
        }

        private void insert(int number, int hash) {
            int mask = table.length - 1;
            int slot = hash & mask;
            while (table[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = number + 1;
        }

        private static int length(byte[] chunk, int at) {
            return (chunk[at] & 0xFF) | (chunk[at + 1] & 0xFF) << 8;
        }

        private static int hash(byte[] bytes, int from, int length) {
            int h = 0x811C9DC5;
            for (int k = from; k < from + length; k++) {
                h = (h ^ bytes[k]) * 0x01000193;
            }
            return h ^ (h >>> 16);
        }

        private boolean equal(int number, byte[] bytes) {
            byte[] c = chunks.get(places[number] >>> CHUNK_BITS);
            int at = places[number] & (CHUNK_BYTES - 1);
            return length(c, at) == bytes.length && Arrays.equals(c, at + 2, at + 2 + bytes.length, bytes, 0, bytes.length);
        }

        /** The byte at {@code depth} of URL {@code number}, or -1 past its end. */
        private int byteAt(int number, int depth) {
            byte[] c = chunks.get(places[number] >>> CHUNK_BITS);
            int at = places[number] & (CHUNK_BYTES - 1);
            return depth < length(c, at) ? c[at + 2 + depth] & 0xFF : -1;
        }

        /**
         * The dictionary of these URLs, sorted; {@code ranks} gets each number's place in it. Drops the table
         * first and the chunks after, so that the copy's peak is what {@link #bytes} said and the dictionary.
         */
        UrlDictionary sorted(int[] ranks, LongConsumer grow) {
            grow.accept(-4L * table.length);
            table = null;
            int[] order = new int[size];
            for (int k = 0; k < size; k++) {
                order[k] = k;
            }
            sort(order, 0, size, 0);
            List<byte[]> out = new ArrayList<>();
            long[] groups = new long[(size + GROUP - 1) / GROUP];
            byte[] current = new byte[CHUNK_BYTES];
            int at = 0;
            byte[] previous = new byte[0];
            int previousLength = 0;
            for (int k = 0; k < size; k++) {
                int number = order[k];
                ranks[number] = k;
                byte[] c = chunks.get(places[number] >>> CHUNK_BITS);
                int from = (places[number] & (CHUNK_BYTES - 1)) + 2;
                int length = length(c, from - 2);
                int shared = 0;
                if (k % GROUP != 0) {
                    int n = Math.min(previousLength, length);
                    while (shared < n && previous[shared] == c[from + shared]) {
                        shared++;
                    }
                }
                int need = 10 + length - shared;
                if (at + need > current.length) {
                    if (k % GROUP == 0) { // a group starts a chunk when the last one is full
                        out.add(Arrays.copyOf(current, at));
                        grow.accept(at + 16L);
                        current = new byte[Math.max(CHUNK_BYTES, need)];
                        at = 0;
                    } else {
                        current = Arrays.copyOf(current, Math.max(current.length + (current.length >> 1), at + need)); // no group spans two
                    }
                }
                if (k % GROUP == 0) {
                    groups[k / GROUP] = (long) out.size() << 32 | at;
                } else {
                    at = varint(current, at, shared);
                }
                at = varint(current, at, length - shared);
                System.arraycopy(c, from + shared, current, at, length - shared);
                at += length - shared;
                if (previous.length < length) {
                    previous = new byte[Math.max(length, 2 * previous.length)];
                }
                System.arraycopy(c, from, previous, 0, length);
                previousLength = length;
            }
            out.add(Arrays.copyOf(current, at));
            grow.accept(at + 16L);
            chunks.clear();
            places = null;
            return new UrlDictionary(out.toArray(byte[][]::new), groups, size);
        }

        private static int varint(byte[] into, int at, int value) {
            while ((value & ~0x7F) != 0) {
                into[at++] = (byte) ((value & 0x7F) | 0x80);
                value >>>= 7;
            }
            into[at++] = (byte) value;
            return at;
        }

        /** Multikey quicksort of {@code order[lo, hi)} by the URLs' bytes from {@code depth} on. */
        private void sort(int[] order, int lo, int hi, int depth) {
            while (hi - lo > 12) {
                int mid = (lo + hi) >>> 1;
                int a = byteAt(order[lo], depth);
                int b = byteAt(order[mid], depth);
                int c = byteAt(order[hi - 1], depth);
                int pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
                int lt = lo;
                int gt = hi - 1;
                int i = lo;
                while (i <= gt) {
                    int v = byteAt(order[i], depth);
                    if (v < pivot) {
                        swap(order, lt++, i++);
                    } else if (v > pivot) {
                        swap(order, i, gt--);
                    } else {
                        i++;
                    }
                }
                if (lt - lo < hi - gt - 1) {
                    sort(order, lo, lt, depth);
                    sort(order, gt + 1, hi, depth);
                } else {
                    sort(order, gt + 1, hi, depth);
                    sort(order, lo, lt, depth);
                }
                if (pivot < 0) {
                    return; // every URL of the middle ended here: equal, and URLs are distinct, so one at most
                }
                lo = lt;
                hi = gt + 1;
                depth++;
            }
            for (int i = lo + 1; i < hi; i++) {
                for (int j = i; j > lo && compare(order[j - 1], order[j], depth) > 0; j--) {
                    swap(order, j - 1, j);
                }
            }
        }

        private int compare(int x, int y, int depth) {
            for (int d = depth;; d++) {
                int a = byteAt(x, d);
                int b = byteAt(y, d);
                if (a != b || a < 0) {
                    return Integer.compare(a, b);
                }
            }
        }

        private static void swap(int[] order, int i, int j) {
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
}
