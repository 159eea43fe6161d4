package dev.crawlerrors.pipeline;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * What an import tells while it reads: each log as it starts on it, and how far it got in that log.
 * The command line draws a progress bar or logs a rate from it; the pipeline knows neither.
 */
public interface ImportListener extends AutoCloseable {

    /** Hears nothing. */
    ImportListener NONE = new ImportListener() {
        @Override
        public LongConsumer reading(String name, LongSupplier bytesRead, int index) {
            return lines -> { };
        }

        @Override
        public void close() {
        }
    };

    /**
     * Starts on the {@code index}-th (from 0) log, named {@code name}, whose raw bytes read so far
     * {@code bytesRead} tells; what is returned hears the lines of that log read so far.
     */
    LongConsumer reading(String name, LongSupplier bytesRead, int index);

    /** The import read its last log. */
    @Override
    void close();

    /** Makes the listener once the import knows what it will read. */
    @FunctionalInterface
    interface Factory {

        /** Hears nothing. */
        Factory NONE = (totalBytes, sources) -> ImportListener.NONE;

        /**
         * @param totalBytes the raw bytes all logs will read, or -1 when unknown (standard input)
         * @param sources    how many logs will be read
         */
        ImportListener start(long totalBytes, int sources);
    }
}
