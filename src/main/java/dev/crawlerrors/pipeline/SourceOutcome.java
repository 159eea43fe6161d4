package dev.crawlerrors.pipeline;

import dev.crawlerrors.text.Figures;

/**
 * What an import did with one log, as the summary says it.
 *
 * @param name          the log as named on the command line (or found in a directory or glob)
 * @param kind          new, grown, already imported, unchanged or empty
 * @param format        the format its lines were read in, in words ({@code LineParser.describe()}), or
 *                      null when none were read
 * @param lines         lines read this time
 * @param parsed        of those, the lines that parsed
 * @param bytes         decompressed bytes read this time
 * @param previousLines lines imported before, for a log seen before
 * @param waitingBytes  the bytes of a last line left unread because it had no newline yet while the
 *                      log was being written (read by the next import once it is whole), or 0
 * @param otherWriterLines lines of it another writer stored while this import read it (another import
 *                      of it, or {@code serve --follow} of it), which this import read on after
 */
record SourceOutcome(String name, Kind kind, String format, long lines, long parsed, long bytes, long previousLines, long waitingBytes,
        long otherWriterLines) {

    enum Kind {
        NEW, GROWN,
        /** Opened, and found to hold nothing past what was imported of it. */
        ALREADY_IMPORTED,
        /** Not opened: its file is as it was when it was read to its end. */
        UNCHANGED,
        EMPTY
    }

    static SourceOutcome empty(String name) {
        return new SourceOutcome(name, Kind.EMPTY, null, 0, 0, 0, 0, 0, 0);
    }

    static SourceOutcome alreadyImported(String name, long previousLines) {
        return new SourceOutcome(name, Kind.ALREADY_IMPORTED, null, 0, 0, 0, previousLines, 0, 0);
    }

    static SourceOutcome unchanged(String name, long previousLines) {
        return new SourceOutcome(name, Kind.UNCHANGED, null, 0, 0, 0, previousLines, 0, 0);
    }

    /** This outcome with a last line of {@code bytes} left for the next import. */
    SourceOutcome waiting(long bytes) {
        return new SourceOutcome(name, kind, format, lines, parsed, this.bytes, previousLines, bytes, otherWriterLines);
    }

    /** Whether lines of it were read this time. */
    boolean read() {
        return kind == Kind.NEW || kind == Kind.GROWN;
    }

    @Override
    public String toString() {
        String none = lines > 0 && parsed == 0 ? ", none of which parsed (is it an access log in this format?)" : "";
        String said = switch (kind) {
            case NEW -> name + ": new, " + lines(lines) + none;
            case GROWN -> name + ": grown by " + lines(lines) + " (" + Figures.bytes(bytes) + ") since it was imported with "
                    + lines(previousLines) + none;
            case ALREADY_IMPORTED -> name + ": already imported (" + lines(previousLines) + "), nothing new";
            case UNCHANGED -> name + ": unchanged since it was imported (" + lines(previousLines) + "), not opened";
            case EMPTY -> name + ": empty, nothing to import";
        };
        if (otherWriterLines > 0) {
            said += "; " + otherWriterNote();
        }
        return waitingBytes == 0 ? said : said + "; " + waitingNote();
    }

    /** What is said of the lines another writer stored meanwhile. */
    String otherWriterNote() {
        return lines(otherWriterLines) + " already stored by another writer at the same time (stored once)";
    }

    /** What is said of a last line left for the next import. */
    String waitingNote() {
        return "its last line (" + Figures.bytes(waitingBytes) + ") has no newline yet while the log is being written:"
                + " left for the next import";
    }

    private static String lines(long n) {
        return Figures.counted(n, "line");
    }
}
