package dev.crawlerrors;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * The tests' one way to wait until something has happened: Awaitility, configured here once.
 * A wait is bounded (a minute unless the test says otherwise, enough for a loaded 2-core machine)
 * and polls in the test's own thread, so a store or browser is asked from the thread that opened it.
 */
public final class Waits {

    /** How long a wait lasts unless the test gives its own bound. */
    public static final Duration AT_MOST = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(50);

    private Waits() {
    }

    /** A wait for {@code what} (named in the failure): {@code await("three hits stored").until(...)}. */
    public static ConditionFactory await(String what) {
        return Awaitility.await(what).atMost(AT_MOST).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(POLL);
    }
}
