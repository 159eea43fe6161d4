package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.SourceProgress;

/**
 * Where reading a log starts: right after what was imported of the same content before, under
 * whatever name it had then.
 *
 * @param fingerprint what identifies the log now
 * @param start       the position to read from, carrying the fingerprint progress is recorded under from now on
 * @param previous    the progress recorded before, or null when the content was never imported
 */
public record ResumePoint(Fingerprint fingerprint, SourceProgress start, SourceProgress previous) {

    /**
     * Looks the log up by its beginning.
     *
     * @param complete see {@link Fingerprint#of}
     * @return where to start, or null when the log cannot be identified yet (empty, or its first line is unfinished)
     */
    public static ResumePoint find(String name, byte[] beginning, boolean complete, ImportedSources imported) {
        Fingerprint fingerprint = Fingerprint.of(beginning, complete);
        if (fingerprint == null) {
            return null;
        }
        SourceProgress previous = null;
        for (SourceProgress recorded : imported.find(Fingerprint.candidates(beginning, complete).keySet())) {
            // every match is a prefix of this content; the one read furthest is the latest
            if (previous == null || recorded.bytes() > previous.bytes()) {
                previous = recorded;
            }
        }
        SourceProgress start = previous == null
                ? new SourceProgress(fingerprint.value(), name, 0, 0)
                : new SourceProgress(fingerprint.value(), name, previous.bytes(), previous.lines());
        return new ResumePoint(fingerprint, start, previous);
    }

    public boolean seenBefore() {
        return previous != null;
    }
}
