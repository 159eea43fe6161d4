package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.text.Futures;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The rows of the report's pages, kept packed ({@link PackedHits}) per view, snapshot and page,
 * the least recently used out first within a bound in bytes: a snapshot's page never changes, and
 * a store read costs a page its most (the store decompresses the text columns of the rows' blocks
 * for each read, whether it returns 100 rows or 1,000). The first page asked of a block of
 * {@link #BLOCK_PAGES} pages is read alone; a second page asked of the same block reads the whole
 * block at once, so readers paging through a view, or many readers on random pages, pay one read
 * for ten pages, and a view asked once pays no more than before. Readers asking for the same
 * block at once share its read. Views filtered by the sitemaps are not kept (a sitemap's read
 * changes them and makes no new snapshot).
 */
final class KeptPageRows {

    /** Pages read at once when a second page of the same block is asked. */
    static final int BLOCK_PAGES = 10;
    /** Blocks remembered as asked once, the least recently asked forgotten first. */
    private static final int TOUCHED_BLOCKS = 8_192;

    private record Block(HitFilter filter, Snapshot at, int block) {
    }

    private record Page(Block block, int page) {
    }

    private final HitReader store;
    private final long budgetBytes;
    private final LinkedHashMap<Page, byte[]> kept = new LinkedHashMap<>(1024, 0.75f, true);
    private final LinkedHashMap<Block, Boolean> touched = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Block, Boolean> eldest) {
            return size() > TOUCHED_BLOCKS;
        }
    };
    private final Map<Block, CompletableFuture<List<StoredHit>>> reading = new java.util.HashMap<>();
    private long bytes;

    /** @param budgetBytes the bytes the kept pages may take; 0 keeps none */
    KeptPageRows(HitReader store, long budgetBytes) {
        this.store = store;
        this.budgetBytes = budgetBytes;
    }

    /**
     * The rows of page {@code page} (from 1) of the view {@code filter} at {@code at}, whose minute
     * counts are {@code counts}: the store's hits of that page, newest first.
     */
    List<StoredHit> page(HitFilter filter, Snapshot at, MinuteCounts counts, int page) {
        if (budgetBytes == 0 || filter.inSitemap() != null) {
            return read(filter, at, counts, Paging.offset(page), Paging.PAGE_SIZE);
        }
        Block block = new Block(filter, at, (page - 1) / BLOCK_PAGES);
        Page key = new Page(block, page);
        CompletableFuture<List<StoredHit>> mine = null;
        CompletableFuture<List<StoredHit>> theirs;
        boolean whole;
        synchronized (this) {
            byte[] packed = kept.get(key);
            if (packed != null) {
                return PackedHits.unpack(packed);
            }
            theirs = reading.get(block);
            whole = theirs == null && touched.put(block, Boolean.TRUE) != null;
            if (whole) {
                mine = new CompletableFuture<>();
                reading.put(block, mine);
            }
        }
        if (theirs != null) {
            return slice(Futures.join(theirs), block, page);
        }
        if (!whole) {
            List<StoredHit> rows = read(filter, at, counts, Paging.offset(page), Paging.PAGE_SIZE);
            synchronized (this) {
                keep(key, PackedHits.pack(rows));
            }
            return rows;
        }
        try {
            int first = block.block() * BLOCK_PAGES + 1;
            long offset = Paging.offset(first);
            int wanted = (int) Math.max(0, Math.min((long) BLOCK_PAGES * Paging.PAGE_SIZE, counts.total() - offset));
            List<StoredHit> rows = read(filter, at, counts, offset, wanted);
            synchronized (this) {
                reading.remove(block);
                if (rows.size() == wanted) { // else the store and the counts disagree: nothing is kept
                    for (int p = first; (long) (p - first) * Paging.PAGE_SIZE < rows.size(); p++) {
                        keep(new Page(block, p), PackedHits.pack(slice(rows, block, p)));
                    }
                }
            }
            mine.complete(rows);
            return slice(rows, block, page);
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                reading.remove(block);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** Page {@code page}'s rows of its block's rows. */
    private static List<StoredHit> slice(List<StoredHit> rows, Block block, int page) {
        int from = (page - 1 - block.block() * BLOCK_PAGES) * Paging.PAGE_SIZE;
        return rows.subList(Math.min(from, rows.size()), Math.min(from + Paging.PAGE_SIZE, rows.size()));
    }

    /** The view's hits numbered {@code offset} on (from 0, newest first), {@code rows} of them, read from the store. */
    private List<StoredHit> read(HitFilter filter, Snapshot at, MinuteCounts counts, long offset, int rows) {
        MinuteCounts.Range range = counts.locate(offset, rows);
        return range == null ? List.of() : store.rows(filter, at, range.fromMillis(), range.toMillis(), range.skip(), rows);
    }

    private void keep(Page key, byte[] packed) {
        long size = size(packed);
        if (size > budgetBytes) {
            return;
        }
        byte[] before = kept.put(key, packed);
        bytes += size - (before == null ? 0 : size(before));
        Iterator<Map.Entry<Page, byte[]>> eldest = kept.entrySet().iterator();
        while (bytes > budgetBytes && eldest.hasNext()) {
            bytes -= size(eldest.next().getValue());
            eldest.remove();
        }
    }

    /** An entry's bytes: the packed rows, its key and the map's own, roughly (the filter is shared with the view's other pages). */
    private static long size(byte[] packed) {
        return packed.length + 16 + 120L;
    }

    /** The pages kept and the bytes they take, for metrics and tests. */
    synchronized long[] footprint() {
        return new long[] {kept.size(), bytes};
    }
}
