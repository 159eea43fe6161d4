package dev.crawlerrors.store;

import dev.crawlerrors.sitemap.SitemapUrl;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The URLs one read of a sitemap has listed so far, as 64-bit hashes of host and target (some 10
 * bytes a URL at a million URLs, where a set of the URLs themselves held some 150): a read of a
 * million URLs keeps each once without holding them. Two URLs whose hashes collide (about one
 * chance in 30 million at a million URLs) count as one.
 *
 * <p>The hashes are kept in {@value #BUCKETS} buckets by their top bits, each a chain of blocks of
 * {@value #BLOCK_HASHES} hashes, the blocks cut from chunks of {@value #CHUNK_BLOCKS} blocks that are
 * kept until the read ends: the set grows without ever copying itself, so it leaves no garbage. A
 * table that doubles (as {@link LongSet} does) left every smaller copy of itself in the serial
 * collector's old generation, where nothing collects it during an import (2, 4, 8 and 16 MiB at a
 * million URLs: 30 MiB of an import's peak memory for a set of 16), and passed its 8 MiB copy
 * through the survivor spaces first. A URL new to the set is compared with every hash of its
 * bucket: some 60 at a million URLs, 120 at the default limit of two million
 * ({@code SitemapLimits#maxUrls}), in blocks read one after the other.
 *
 * <p>The chunks are direct buffers, outside the Java heap: chunks on the heap were copied by each
 * young collection from one survivor space to the other until they were old enough to be moved on,
 * so the set's 10 MiB at a million URLs passed through both survivor spaces and into the old
 * generation, and the pages of all three stayed in the import's peak memory (the heap 54 MiB
 * resident at the read's peak against 17 MiB in an import without a sitemap). Outside the heap each
 * chunk is written once where it stays; it is freed with the set, once a collection finds it
 * unreachable.
 */
public final class SitemapUrlsSeen {

    private static final int BUCKET_BITS = 14;
    private static final int BUCKETS = 1 << BUCKET_BITS;
    /** Longs a block takes: its hashes, then the number (plus one) of the bucket's block before it. */
    private static final int BLOCK_LONGS = 32;
    private static final int BLOCK_HASHES = BLOCK_LONGS - 1;
    private static final int CHUNK_BITS = 11;
    private static final int CHUNK_BLOCKS = 1 << CHUNK_BITS;

    /** Each bucket's newest block, plus one (0: an empty bucket). */
    private final int[] newest = new int[BUCKETS];
    /** How many hashes each bucket's newest block holds. */
    private final byte[] filled = new byte[BUCKETS];
    private ByteBuffer[] chunks = new ByteBuffer[8];
    private int blocks;
    private int size;

    /** Notes {@code url}; true when it was not seen before. */
    public boolean add(SitemapUrl url) {
        long hash = hash(url.host(), 0xcbf29ce484222325L);
        hash = hash(url.target(), (hash ^ ' ') * 0x100000001b3L);
        hash = (hash ^ (hash >>> 30)) * 0xbf58476d1ce4e5b9L;
        hash = (hash ^ (hash >>> 27)) * 0x94d049bb133111ebL;
        hash ^= hash >>> 31;
        return add(hash);
    }

    /** How many URLs were seen, each once. */
    public int size() {
        return size;
    }

    private boolean add(long hash) {
        int bucket = (int) (hash >>> (64 - BUCKET_BITS));
        int head = newest[bucket];
        int fill = filled[bucket];
        for (int block = head, hashes = fill; block != 0; hashes = BLOCK_HASHES) {
            ByteBuffer chunk = chunks[(block - 1) >>> CHUNK_BITS];
            int at = ((block - 1) & (CHUNK_BLOCKS - 1)) * BLOCK_LONGS;
            for (int i = at; i < at + hashes; i++) {
                if (chunk.getLong(i << 3) == hash) {
                    return false;
                }
            }
            block = (int) chunk.getLong((at + BLOCK_HASHES) << 3);
        }
        if (head == 0 || fill == BLOCK_HASHES) {
            int block = newBlock();
            ByteBuffer chunk = chunks[(block - 1) >>> CHUNK_BITS];
            chunk.putLong((((block - 1) & (CHUNK_BLOCKS - 1)) * BLOCK_LONGS + BLOCK_HASHES) << 3, head);
            newest[bucket] = head = block;
            fill = 0;
        }
        chunks[(head - 1) >>> CHUNK_BITS].putLong((((head - 1) & (CHUNK_BLOCKS - 1)) * BLOCK_LONGS + fill) << 3, hash);
        filled[bucket] = (byte) (fill + 1);
        size++;
        return true;
    }

    /** A block not used yet, numbered from 1; a chunk more when the last one is used up. */
    private int newBlock() {
        int chunk = blocks >>> CHUNK_BITS;
        if ((blocks & (CHUNK_BLOCKS - 1)) == 0) {
            if (chunk == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunk * 2);
            }
            chunks[chunk] = ByteBuffer.allocateDirect(CHUNK_BLOCKS * BLOCK_LONGS * Long.BYTES).order(ByteOrder.nativeOrder());
        }
        return ++blocks;
    }

    /** FNV-1a over {@code text}'s characters, from {@code h}. */
    private static long hash(String text, long h) {
        for (int i = 0; i < text.length(); i++) {
            h = (h ^ text.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }
}
