package dev.crawlerrors.ingest.source;

import java.io.IOException;

/**
 * A stream (standard input, a pipe) that begins as a log imported before but holds other bytes
 * where that log was read to: another log that begins alike. A stream cannot be read twice, so
 * nothing of it is imported, and the message says how to import it.
 */
public final class OtherLogException extends IOException {

    OtherLogException(String name) {
        super(name + " begins as a log imported before but is another log, and " + (name.equals("-") ? "standard input" : "a pipe")
                + " cannot be read twice: nothing of it was imported; save it to a file and import the file");
    }
}
