package dev.crawlerrors.ingest;

/**
 * How far a log has been imported: the fingerprint of its content, the name it was read under,
 * and the decompressed bytes and lines read from its start. It is stored in the same transaction
 * as the hits those bytes held, so the two never disagree after a crash.
 *
 * @param fingerprint what identifies the content (see {@link Fingerprint}); null for a read that is not recorded
 * @param name        the file name as the user gave it, or {@code -} for standard input
 * @param bytes       decompressed bytes read from the start of the content
 * @param lines       lines read from the start of the content, bad and blank ones included
 */
public record SourceProgress(String fingerprint, String name, long bytes, long lines) {

    /** This position moved on by {@code moreBytes} and {@code moreLines}. */
    public SourceProgress advancedBy(long moreBytes, long moreLines) {
        return new SourceProgress(fingerprint, name, bytes + moreBytes, lines + moreLines);
    }
}
