package dev.crawlerrors.text;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

/**
 * The worker threads behind readers, writers and timers: named for what they do (a thread dump
 * reads as a list of jobs) and daemons (a worker never keeps the process alive after its command
 * ends). Waiting for one to end when its owner closes keeps an interrupt for the caller.
 */
public final class Threads {

    private Threads() {
    }

    /** Starts {@code task} on a daemon thread named {@code name}. */
    public static Thread startDaemon(String name, Runnable task) {
        return Thread.ofPlatform().daemon().name(name).start(task);
    }

    /** Daemon threads each named {@code name}, for an executor. */
    public static ThreadFactory daemons(String name) {
        return Thread.ofPlatform().daemon().name(name).factory();
    }

    /** Daemon threads named {@code prefix} and a count from 1 ({@code dns-verifier-1}), for a pool. */
    public static ThreadFactory numberedDaemons(String prefix) {
        return Thread.ofPlatform().daemon().name(prefix, 1).factory();
    }

    /** Waits up to {@code limit} for {@code thread} to end; nothing to wait for when it is null. */
    public static void awaitEnd(Thread thread, Duration limit) {
        if (thread == null) {
            return;
        }
        try {
            thread.join(limit.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
