package dev.crawlerrors.text;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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

    /** Whether an answer is kept, or being made, for any of {@code keys}. */
    public boolean holdsAny(Collection<K> keys) {
        return keys.stream().anyMatch(kept::containsKey);
    }

    /**
     * Answers to be made together, by one maker, for {@code keys}: their futures, kept now so that readers asking wait
     * for them (the maker completes each, or gives each its failure through {@link #fail}); null, and nothing kept, when
     * an answer is kept or being made for any of them already.
     */
    public Map<K, CompletableFuture<V>> reserve(List<K> keys) {
        Map<K, CompletableFuture<V>> mine = new LinkedHashMap<>();
        synchronized (kept) {
            if (holdsAny(keys)) {
                return null;
            }
            for (K key : keys) {
                CompletableFuture<V> future = new CompletableFuture<>();
                mine.put(key, future);
                kept.put(key, future);
            }
        }
        return mine;
    }

    /**
     * Lets go of answers {@link #reserve} kept: each given {@code answer} (to the readers waiting; not kept), or when
     * {@code failure} is not null, that failure.
     */
    public void fail(Map<K, CompletableFuture<V>> reserved, V answer, Throwable failure) {
        reserved.forEach((key, future) -> {
            kept.remove(key, future);
            if (failure != null) {
                future.completeExceptionally(failure);
            } else {
                future.complete(answer);
            }
        });
    }
}
