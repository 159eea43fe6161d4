package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.SourceProgress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Where reading a log starts: right after what was imported of the same content before, under
 * whatever name it had then.
 *
 * <p>A log is looked up by its beginning ({@link Fingerprint}), and a log recorded under that
 * beginning is taken for this one only when this content also holds, just before where that one was
 * read to, the bytes that were there ({@link TailCheck}): two sites' logs that begin with the same
 * lines are two logs, and the second is read from its start, under a key of its own. Progress
 * recorded by an older version has no check, and is trusted on its beginning as it was then. A
 * content shorter than what was recorded is taken for an earlier copy of that log when they begin
 * alike (a copy made before the log grew further, as copytruncate's is): there is nothing at the
 * recorded position to check it by.
 *
 * @param fingerprint what identifies the log now
 * @param start       the position to read from, carrying the key that progress is recorded under from now on
 * @param previous    the progress recorded before, or null when the content was never imported
 * @param before      the bytes just before {@code start} (at most {@value TailCheck#BYTES}): where the
 *                    check of the next positions starts from; empty at the start, null when they
 *                    could not be read (a stream, checked as it is read; see {@link #unverified})
 * @param unverified  the check that the bytes before {@code start} must have, when they could not be
 *                    looked at yet (standard input or a pipe, which cannot be read twice); else null
 */
public record ResumePoint(Fingerprint fingerprint, SourceProgress start, SourceProgress previous, byte[] before, String unverified) {

    /** A log's content, where it may hold what was recorded of another. */
    @FunctionalInterface
    public interface Content {

        /**
         * The (at most {@value TailCheck#BYTES}) bytes just before {@code position}; null when the
         * content ends before it.
         *
         * @throws IOException when they cannot be read
         * @throws UnsupportedOperationException when the content cannot be read twice (a stream)
         */
        byte[] before(long position) throws IOException;
    }

    /** A content that can only be checked as it is read (standard input, a pipe). */
    public static final Content STREAM = position -> {
        throw new UnsupportedOperationException("a stream is checked as it is read");
    };

    /**
     * Looks the log up by its beginning and checks what it finds against its content.
     *
     * @param complete see {@link Fingerprint#of}
     * @return where to start, or null when the log cannot be identified yet (empty, or its first line is unfinished)
     * @throws IOException when the content cannot be read to check it
     */
    public static ResumePoint find(String name, byte[] beginning, boolean complete, ImportedSources imported, Content content)
            throws IOException {
        Fingerprint fingerprint = Fingerprint.of(beginning, complete);
        return fingerprint == null ? null
                : find(name, fingerprint, Fingerprint.candidates(beginning, complete).keySet(), imported, content);
    }

    /**
     * {@link #find(String, byte[], boolean, ImportedSources, Content)} for a log whose fingerprint and
     * {@linkplain Fingerprint#candidates candidates} were worked out already (on another thread).
     */
    public static ResumePoint find(String name, Fingerprint fingerprint, Collection<String> candidates, ImportedSources imported,
            Content content) throws IOException {
        List<SourceProgress> recorded = new ArrayList<>(imported.find(candidates));
        // every one of them begins as this content does; the one read furthest that this content holds is the latest
        recorded.sort(Comparator.comparingLong(SourceProgress::bytes).reversed());
        int sameKey = 0;
        for (SourceProgress previous : recorded) {
            if (previous.prefix().equals(fingerprint.value())) {
                sameKey++;
            }
        }
        ResumePoint longer = null;
        for (SourceProgress previous : recorded) {
            SourceProgress start = new SourceProgress(previous.fingerprint(), name, previous.bytes(), previous.lines(),
                    previous.check(), null);
            if (previous.bytes() == 0) {
                return new ResumePoint(fingerprint, start, previous, new byte[0], null);
            }
            byte[] before;
            try {
                before = content.before(previous.bytes());
            } catch (UnsupportedOperationException stream) {
                // checked as it is skipped: the log read furthest, the one a stream fed again is most likely to be
                return new ResumePoint(fingerprint, start, previous, null, previous.check());
            }
            if (before == null) {
                // shorter than what was read of that log: an earlier copy of it, unless a log read less far is this one
                longer = longer == null ? new ResumePoint(fingerprint, start, previous, null, null) : longer;
            } else if (previous.check() == null || previous.check().equals(TailCheck.of(before, 0, before.length))) {
                return new ResumePoint(fingerprint, start, previous, before, null);
            }
        }
        if (longer != null) {
            return longer;
        }
        // never imported; a key of its own when another log that begins alike was recorded under its fingerprint
        String key = sameKey == 0 ? fingerprint.value() : fingerprint.value() + "-" + (sameKey + 1);
        return new ResumePoint(fingerprint, new SourceProgress(key, name, 0, 0), null, new byte[0], null);
    }

    public boolean seenBefore() {
        return previous != null;
    }

    /** Whether the content ends before the position recorded of it: an earlier copy of a log read further since. */
    public boolean shorterThanRecorded() {
        return previous != null && before == null && unverified == null;
    }
}
