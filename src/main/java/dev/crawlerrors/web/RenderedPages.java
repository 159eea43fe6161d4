package dev.crawlerrors.web;

import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.text.Futures;
import dev.crawlerrors.text.Threads;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Report answers rendered once and shared by every reader: a page's bytes are the same for every
 * reader who asks the same address while the store's newest snapshot stays the same, so they are
 * kept under the address and that snapshot, within a bound in bytes. An answer is kept only when
 * the newest snapshot did not move while it was made, so a reader never gets an older snapshot's
 * answer than the one it would have got without the cache; readers asking the same address at once
 * share one rendering.
 *
 * <p>Each answer is kept gzipped ({@link GzipAnswer}: a page of the report shrinks ten times or more,
 * so ten times the pages fit) and sent so to a reader who accepts gzip, the server compressing
 * nothing; the answers most recently sent to readers who do not are kept as they are too, within a
 * quarter of the bound, so a page most readers open is neither rendered nor unzipped again. The least
 * recently asked go first: the plain copy, then the answer.
 */
final class RenderedPages {

    /** What is kept by default: thousands of pages, gzipped. */
    static final long DEFAULT_BYTES = 64L << 20;
    /** The share of the bound the plain copies may take. */
    private static final int PLAIN_SHARE = 4;
    /** Addresses asked whose answers were not kept ({@link Rendered#whenAskedAgain}), by their keys' hashes, the eldest forgotten. */
    static final int ASKED = 4096;

    /**
     * An answer and whether it may be kept (a page shown without its summary, still being counted, may not); one
     * {@code whenAskedAgain} is kept only when its address was asked before at the same newest snapshot (among the
     * last {@value #ASKED} addresses asked): a page made again in about a millisecond, as a filtered page of the rows
     * held in memory is, that most readers ask once (a view of their own), is then neither gzipped nor kept for
     * nothing, whose kept bytes, each soon let go, kept G1 marking the heap. When kept, {@code stale} (null: never)
     * says when it may no longer be answered: looked at each time it is found kept, and then rendered again and kept in its
     * place, the stale answer answered until then (serve's warm-up keeps a page still counting so, until its count is
     * done: no reader waits for the counted page's rendering).
     */
    record Rendered(byte[] body, boolean keep, boolean whenAskedAgain, BooleanSupplier stale) {

        Rendered(byte[] body, boolean keep) {
            this(body, keep, false, null);
        }

        Rendered(byte[] body, boolean keep, boolean whenAskedAgain) {
            this(body, keep, whenAskedAgain, null);
        }
    }

    /** The bytes to send, and whether they are gzipped (then the response says so). */
    record Answer(byte[] body, boolean gzipped) {
    }

    private record Key(String kind, String address, Snapshot newest) {
    }

    private final long budgetBytes;
    private final LinkedHashMap<Key, GzipAnswer> zipped = new LinkedHashMap<>(256, 0.75f, true);
    private final LinkedHashMap<Key, byte[]> plain = new LinkedHashMap<>(64, 0.75f, true);
    private final Map<Key, CompletableFuture<byte[]>> rendering = new HashMap<>();
    /** The hashes of the keys of the last {@value #ASKED} answers made but not kept until asked again; guarded by this. */
    private final LinkedHashMap<Integer, Boolean> asked = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
            return size() > ASKED;
        }
    };
    /** What says when a kept answer may no longer be answered, of the few kept so ({@link Rendered#stale}). */
    private final Map<Key, BooleanSupplier> stale = new HashMap<>();
    private long zippedBytes;
    private long plainBytes;
    private long hits;
    private long misses;
    private long renders;
    private long ahead;

    /** @param budgetBytes the bytes the kept answers may take; 0 keeps none */
    RenderedPages(long budgetBytes) {
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("a cache of " + budgetBytes + " bytes");
        }
        this.budgetBytes = budgetBytes;
    }

    /** The answer, as {@link #answer(String, String, Supplier, Supplier, boolean)} gives it to a reader who does not accept gzip. */
    byte[] answer(String kind, String address, Supplier<Snapshot> newest, Supplier<Rendered> render) {
        return answer(kind, address, newest, render, false).body();
    }

    /**
     * The answer of {@code kind} to {@code address} (every input of the answer but the snapshot),
     * as kept for the store's newest snapshot, else rendered now; gzipped when {@code gzip} (the
     * reader accepts it) and it is kept.
     *
     * @param newest the store's newest snapshot, asked before and after rendering
     */
    Answer answer(String kind, String address, Supplier<Snapshot> newest, Supplier<Rendered> render, boolean gzip) {
        return answer(kind, address, newest, render, gzip, false);
    }

    /**
     * The answer as {@link #answer(String, String, Supplier, Supplier, boolean)} gives it; {@code ahead}: asked
     * before any reader (serve renders the first page of each new snapshot so), then kept in both forms (gzipped,
     * and as it is, for the readers who do not accept gzip), and counted as rendered ahead. A reader who asks
     * meanwhile waits for that rendering, as for another reader's.
     */
    Answer answer(String kind, String address, Supplier<Snapshot> newest, Supplier<Rendered> render, boolean gzip, boolean ahead) {
        Snapshot before = newest.get();
        Key key = new Key(kind, address, before);
        GzipAnswer unzip;
        CompletableFuture<byte[]> mine;
        CompletableFuture<byte[]> theirs;
        CompletableFuture<byte[]> replaceNow = null;
        synchronized (this) {
            GzipAnswer kept = zipped.get(key);
            if (kept != null && !rendering.containsKey(key) && isStale(key)) {
                // its replacement rendered first, then kept in its place: the stale answer is answered until then, so
                // no reader waits for it; serve's own look renders it now, a reader's look has it rendered behind it
                CompletableFuture<byte[]> replacement = new CompletableFuture<>();
                rendering.put(key, replacement);
                if (ahead) {
                    replaceNow = replacement;
                } else {
                    Threads.startDaemon("page-replacement", () -> {
                        try {
                            rendered(key, before, newest, render, true, false, replacement);
                        } catch (RuntimeException | Error e) {
                            // the stale answer stays until its next reader's look has it rendered again
                        }
                    });
                }
            }
            if (kept != null && replaceNow == null) {
                if (!ahead) { // serve's own look is no reader's answer
                    hits++;
                }
                byte[] body = gzip ? null : plain.get(key);
                if (gzip || body != null) {
                    return gzip ? new Answer(kept.gzipped(), true) : new Answer(body, false);
                }
            }
            if (replaceNow != null) {
                unzip = null;
                theirs = null;
                mine = replaceNow;
            } else {
                unzip = kept;
                if (kept == null) {
                    misses++;
                }
                theirs = kept == null ? rendering.get(key) : null;
                mine = kept == null && theirs == null ? new CompletableFuture<>() : null;
                if (mine != null) {
                    rendering.put(key, mine);
                }
            }
        }
        if (unzip != null) {
            byte[] body = unzip.unzipped(); // outside the lock: a few tens of microseconds
            synchronized (this) {
                if (zipped.get(key) == unzip) {
                    keepPlain(key, body);
                    trim();
                }
            }
            return new Answer(body, false);
        }
        if (theirs != null) {
            return new Answer(Futures.join(theirs), false);
        }
        return rendered(key, before, newest, render, gzip, ahead, mine);
    }

    /**
     * Renders the answer under {@code key} (registered as being rendered, {@code mine}), keeps it if it may be kept and the
     * newest snapshot is still {@code before} (in the place of one kept before: a stale answer is replaced so), completes
     * {@code mine} for the readers waiting on it, and returns it.
     */
    private Answer rendered(Key key, Snapshot before, Supplier<Snapshot> newest, Supplier<Rendered> render, boolean gzip, boolean ahead,
            CompletableFuture<byte[]> mine) {
        try {
            Rendered rendered = render.get();
            boolean keep = rendered.keep() && newest.get().equals(before) && budgetBytes > 0 && (!rendered.whenAskedAgain() || askedBefore(key));
            GzipAnswer zip = keep ? GzipAnswer.of(rendered.body()) : null;
            synchronized (this) {
                rendering.remove(key);
                renders++;
                if (ahead) {
                    this.ahead++;
                }
                if (keep) {
                    keep(key, zip, gzip && !ahead ? null : rendered.body());
                    if (rendered.stale() != null && zipped.containsKey(key)) {
                        stale.put(key, rendered.stale());
                    }
                }
            }
            mine.complete(rendered.body());
            return keep && gzip ? new Answer(zip.gzipped(), true) : new Answer(rendered.body(), false);
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                rendering.remove(key);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** Whether {@code key} was asked before among the answers not kept until asked again; it is remembered as asked now. */
    private synchronized boolean askedBefore(Key key) {
        return asked.put(key.hashCode(), Boolean.TRUE) != null; // a hash shared by two keys keeps one the first time, as before
    }

    /** Keeps an answer gzipped, and as it is when {@code body} is not null (a reader who does not accept gzip asked it). */
    private void keep(Key key, GzipAnswer zip, byte[] body) {
        long size = size(key, zip.gzipped().length);
        if (size > budgetBytes) {
            return;
        }
        GzipAnswer before = zipped.put(key, zip);
        stale.remove(key);
        zippedBytes += size - (before == null ? 0 : size(key, before.gzipped().length));
        dropPlain(key);
        if (body != null) {
            keepPlain(key, body);
        }
        trim();
    }

    private void keepPlain(Key key, byte[] body) {
        byte[] before = plain.put(key, body);
        plainBytes += body.length - (before == null ? 0 : before.length);
    }

    /** Lets the least recently sent plain copies go past their share, then the least recently asked answers past the bound. */
    private void trim() {
        var plainEldest = plain.entrySet().iterator();
        while (plainBytes > budgetBytes / PLAIN_SHARE && plainEldest.hasNext()) {
            plainBytes -= plainEldest.next().getValue().length;
            plainEldest.remove();
        }
        var eldest = zipped.entrySet().iterator();
        while (zippedBytes + plainBytes > budgetBytes && eldest.hasNext()) {
            Map.Entry<Key, GzipAnswer> entry = eldest.next();
            zippedBytes -= size(entry.getKey(), entry.getValue().gzipped().length);
            dropPlain(entry.getKey());
            stale.remove(entry.getKey());
            eldest.remove();
        }
    }

    /** Whether the answer kept under {@code key} may no longer be answered; one whose check fails may not. */
    private boolean isStale(Key key) {
        BooleanSupplier check = stale.get(key);
        if (check == null) {
            return false;
        }
        try {
            return check.getAsBoolean();
        } catch (RuntimeException e) {
            return true;
        }
    }

    private void dropPlain(Key key) {
        byte[] body = plain.remove(key);
        if (body != null) {
            plainBytes -= body.length;
        }
    }

    /** An entry's bytes but its plain copy: the gzipped answer, its address and the map's own, roughly. */
    private static long size(Key key, int gzipped) {
        return gzipped + 2L * (key.address().length() + key.kind().length()) + 300;
    }

    /**
     * Lets go the answers kept for snapshots older than {@code newest} (which it covers): no reader is answered them
     * again (an answer is looked for under the newest snapshot), so they would only hold bytes until the bound pushed
     * them out. Serve calls it once the first page of a new snapshot is kept.
     */
    synchronized void forgetOlderThan(Snapshot newest) {
        var entries = zipped.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<Key, GzipAnswer> entry = entries.next();
            Snapshot at = entry.getKey().newest();
            if (!at.equals(newest) && newest.covers(at)) {
                zippedBytes -= size(entry.getKey(), entry.getValue().gzipped().length);
                dropPlain(entry.getKey());
                stale.remove(entry.getKey());
                entries.remove();
            }
        }
    }

    /**
     * The answers kept, their bytes (gzipped and plain copies), the answers found kept and not, the renderings
     * made (each address and snapshot once while its answer is kept), and those made ahead of any reader, for
     * metrics and tests.
     */
    synchronized long[] footprint() {
        return new long[] {zipped.size(), zippedBytes + plainBytes, hits, misses, renders, ahead};
    }
}
