package dev.crawlerrors.pipeline;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.WritableStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real store as a test's importer or follower sees it, its writer's calls going through a hook that
 * chooses the moment a second writer runs, a commit is forced or the store stops answering: for the
 * tests of what two writers of one store, or a store that refuses or fails, leave counted.
 */
final class WatchedStores {

    /** What a call to the writer does: {@code on} hands it to the store's own writer, {@code real}. */
    @FunctionalInterface
    interface Hook {
        Object call(Method method, Object[] args, HitWriter real, Call on) throws Throwable;
    }

    /** The store's own writer's answer to the call. */
    @FunctionalInterface
    interface Call {
        Object call() throws Throwable;
    }

    private WatchedStores() {
    }

    /** {@code store} with every call to its writer going through {@code hook}; every other call as it is. */
    static WritableStore watched(HitStore store, Hook hook) {
        HitWriter real = store.writer();
        HitWriter writer = (HitWriter) Proxy.newProxyInstance(HitWriter.class.getClassLoader(), new Class<?>[] {HitWriter.class},
                (proxy, method, args) -> hook.call(method, args, real, () -> delegate(method, real, args)));
        return (WritableStore) Proxy.newProxyInstance(WritableStore.class.getClassLoader(), new Class<?>[] {WritableStore.class},
                (proxy, method, args) -> method.getName().equals("writer") ? writer : delegate(method, store, args));
    }

    /** {@code store} as a follower sees it: after its first chunk is appended, that is committed and {@code other} runs. */
    static WritableStore follower(HitStore store, Runnable other) {
        AtomicInteger appends = new AtomicInteger();
        return watched(store, (method, args, real, on) -> {
            Object result = on.call();
            if (chunk(method, args) && appends.incrementAndGet() == 1) {
                real.flush();
                other.run();
            }
            return result;
        });
    }

    /** Whether the call appends a chunk of a log's hits with how far the log was read. */
    static boolean chunk(Method method, Object[] args) {
        return positioned(method, args) && !((List<?>) args[0]).isEmpty();
    }

    /** Whether the call records a file as read to its end: a positioned append of no hits. */
    static boolean stamp(Method method, Object[] args) {
        return positioned(method, args) && ((List<?>) args[0]).isEmpty();
    }

    private static boolean positioned(Method method, Object[] args) {
        return method.getName().equals("append") && args != null && args.length == 3;
    }

    /** The error hits the store holds, by URL, after its writer's flush. */
    static Map<String, Integer> storedUrls(HitStore store) {
        store.writer().flush();
        Map<String, Integer> urls = new HashMap<>();
        store.reader().forEach(HitFilter.ERRORS, (StoredHit hit) -> urls.merge(hit.url(), 1, Integer::sum));
        return urls;
    }

    /** The summary as the import prints it. */
    static String printed(ImportSummary summary) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        summary.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Object delegate(Method method, Object to, Object[] args) throws Throwable {
        try {
            return method.invoke(to, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
