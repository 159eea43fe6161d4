package dev.crawlerrors.ingest.source;

import java.io.EOFException;
import java.io.IOException;

/**
 * A compressed log whose compressed data breaks off or is damaged: a copy cut short, a disk error.
 * What was decompressed before the damage is read; the message says what is wrong, and the reader
 * that met it says how much of the log was read.
 */
public final class DamagedLogException extends IOException {

    private final String log;

    DamagedLogException(String log, String compression, IOException cause) {
        super(log + " is damaged: its " + compression + " data " + (cause instanceof EOFException
                || String.valueOf(cause.getMessage()).contains("Truncated") ? "ends early (the file was cut short)"
                : "cannot be decompressed (" + cause.getMessage() + ")"), cause);
        this.log = log;
    }

    /** What is wrong, without the log's name: {@code its gzip data ends early (the file was cut short)}. */
    public String what() {
        return getMessage().substring(log.length() + " is damaged: ".length());
    }
}
