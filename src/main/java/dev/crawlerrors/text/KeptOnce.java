package dev.crawlerrors.text;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Answers kept by what they were made of, each made once: a reader asking while one is being made
 * waits for it rather than making it again (readers of a fresh page at once, each a walk or a count
 * of seconds at 10M hits, made it as many times). At most {@code size} are kept, the least lately
 * asked let go first. An answer its maker says not to keep, or a failure, is given to the readers
 * who waited for it and is not kept: the next reader makes it again.
 */
public final class KeptOnce<K, V> {

    private final Map<K, CompletableFuture<V>> kept;

    public KeptOnce(int size) {
        kept = Collections.synchronizedMap(new LinkedHashMap<>(2 * size, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, CompletableFuture<V>> eldest) {
                return size() > size;
            }
        });
    }

    /**
     * The answer kept for {@code key}, or the one being made, waited for; else {@code make}'s,
     * kept when {@code keep} says so. A failure of {@code make} is thrown as itself to its reader
     * and to those who waited.
     */
    public V get(K key, Supplier<V> make, Predicate<V> keep) {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> theirs = kept.putIfAbsent(key, mine);
        if (theirs != null) {
            return Futures.join(theirs);
        }
        V made = null;
        try {
            made = make.get();
            if (!keep.test(made)) {
                kept.remove(key, mine);
            }
            return made;
        } catch (RuntimeException | Error e) {
            kept.remove(key, mine);
            mine.completeExceptionally(e);
            throw e;
        } finally {
            mine.complete(made); // no-op when failed above: a reader waiting for it gets the failure
        }
    }
}
