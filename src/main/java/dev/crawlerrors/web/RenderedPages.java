package dev.crawlerrors.web;

import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.text.Futures;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Report answers rendered once and shared by every reader: a page's bytes are the same for every
 * reader who asks the same address while the store's newest snapshot stays the same, so they are
 * kept under the address and that snapshot, the least recently used out first within a bound in
 * bytes. An answer is kept only when the newest snapshot did not move while it was made, so a
 * reader never gets an older snapshot's answer than the one it would have got without the cache;
 * readers asking the same address at once share one rendering.
 */
final class RenderedPages {

    /** What is kept by default: some 300 HTML pages of 100 rows, or thousands of JSON ones. */
    static final long DEFAULT_BYTES = 64L << 20;

    /** An answer and whether it may be kept (a page shown without its summary, still being counted, may not). */
    record Rendered(byte[] body, boolean keep) {
    }

    private record Key(String kind, String address, String newest) {
    }

    private final long budgetBytes;
    private final LinkedHashMap<Key, byte[]> kept = new LinkedHashMap<>(256, 0.75f, true);
    private final Map<Key, CompletableFuture<byte[]>> rendering = new HashMap<>();
    private long bytes;
    private long hits;
    private long misses;

    /** @param budgetBytes the bytes the kept answers may take; 0 keeps none */
    RenderedPages(long budgetBytes) {
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("a cache of " + budgetBytes + " bytes");
        }
        this.budgetBytes = budgetBytes;
    }

    /**
     * The answer of {@code kind} to {@code address} (every input of the answer but the snapshot),
     * as kept for the store's newest snapshot, else rendered now.
     *
     * @param newest the store's newest snapshot, asked before and after rendering
     */
    byte[] answer(String kind, String address, Supplier<Snapshot> newest, Supplier<Rendered> render) {
        Snapshot before = newest.get();
        Key key = new Key(kind, address, before.token());
        CompletableFuture<byte[]> mine;
        CompletableFuture<byte[]> theirs;
        synchronized (this) {
            byte[] body = kept.get(key);
            if (body != null) {
                hits++;
                return body;
            }
            misses++;
            theirs = rendering.get(key);
            mine = theirs == null ? new CompletableFuture<>() : null;
            if (mine != null) {
                rendering.put(key, mine);
            }
        }
        if (theirs != null) {
            return Futures.join(theirs);
        }
        try {
            Rendered rendered = render.get();
            boolean keep = rendered.keep() && newest.get().equals(before);
            synchronized (this) {
                rendering.remove(key);
                if (keep) {
                    keep(key, rendered.body());
                }
            }
            mine.complete(rendered.body());
            return rendered.body();
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                rendering.remove(key);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    private void keep(Key key, byte[] body) {
        long size = size(key, body);
        if (size > budgetBytes) {
            return;
        }
        byte[] before = kept.put(key, body);
        bytes += size - (before == null ? 0 : size(key, before));
        Iterator<Map.Entry<Key, byte[]>> eldest = kept.entrySet().iterator();
        while (bytes > budgetBytes && eldest.hasNext()) {
            Map.Entry<Key, byte[]> entry = eldest.next();
            bytes -= size(entry.getKey(), entry.getValue());
            eldest.remove();
        }
    }

    /** An entry's bytes: the answer, its address and the map's own, roughly. */
    private static long size(Key key, byte[] body) {
        return body.length + 2L * (key.address().length() + key.kind().length() + key.newest().length()) + 160;
    }

    /** The answers kept, their bytes, and the answers found kept and not, for metrics and tests. */
    synchronized long[] footprint() {
        return new long[] {kept.size(), bytes, hits, misses};
    }
}
