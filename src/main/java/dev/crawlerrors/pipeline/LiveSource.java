package dev.crawlerrors.pipeline;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;

/**
 * A source that feeds the store while {@code serve} runs: followed logs ({@link FollowedLogs}), a
 * syslog listener ({@link SyslogSource}), the log drain ({@link DrainSource}). {@code serve} starts
 * its sources in order and closes them in reverse, before the store; adding a source is writing
 * one of these and one line where {@code serve} lists them.
 */
public interface LiveSource extends AutoCloseable, MeterBinder {

    /**
     * Starts taking lines. A source that cannot start (a port in use) throws, saying what to
     * change in the user's own terms (the option that names it).
     */
    void start() throws IOException;

    /** Stops taking lines; what it took is stored by the time this returns. */
    @Override
    void close();

    /** Registers what the source counts (served at {@code /metrics}); once started. A source that counts nothing of its own registers nothing. */
    @Override
    default void bindTo(MeterRegistry registry) {
    }

    /** Starts {@code sources} in order; when one fails, those started are closed again and the failure is thrown. */
    static void startAll(java.util.List<? extends LiveSource> sources) throws IOException {
        java.util.List<LiveSource> started = new java.util.ArrayList<>();
        try {
            for (LiveSource source : sources) {
                source.start();
                started.add(source);
            }
        } catch (IOException | RuntimeException e) {
            for (LiveSource source : started.reversed()) {
                try {
                    source.close();
                } catch (RuntimeException ignored) {
                    // already failing; the first error is the one to tell
                }
            }
            throw e;
        }
    }
}
