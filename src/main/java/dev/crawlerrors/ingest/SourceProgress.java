package dev.crawlerrors.ingest;

/**
 * How far a log has been imported: the key of its content, the name it was read under, the
 * decompressed bytes and lines read from its start, and what proves that a log found later is this
 * one. It is stored in the same transaction as the hits those bytes held, so the two never disagree
 * after a crash.
 *
 * @param fingerprint the log's key: the fingerprint of its beginning ({@code Fingerprint}), followed by
 *                    {@code -N} when another log recorded before began with the same bytes; null for a
 *                    read that is not recorded (lines pushed over the network)
 * @param name        the file name as the user gave it, or {@code -} for standard input
 * @param bytes       decompressed bytes read from the start of the content
 * @param lines       lines read from the start of the content, bad and blank ones included
 * @param check       the hash of the bytes just before {@code bytes} ({@code TailCheck}), which a log
 *                    that begins the same way but is another does not have there; null when unknown
 *                    (progress recorded by an older version, or a read that records none)
 * @param file        the file as it was when it was read to its end ({@link FileStamp}), so an
 *                    unchanged file is known without opening it; null when the read did not end
 *                    there or the file cannot be told by its identity
 */
public record SourceProgress(String fingerprint, String name, long bytes, long lines, String check, FileStamp file) {

    /** The fingerprint this log's key begins with ({@link #prefixOf}). */
    public String prefix() {
        return prefixOf(fingerprint);
    }

    /** The fingerprint a log's key begins with: the key itself, or the part before its {@code -N}. */
    public static String prefixOf(String key) {
        int dash = key.indexOf('-');
        return dash < 0 ? key : key.substring(0, dash);
    }

    /** Progress without a check or a file (lines pushed over the network, tests). */
    public SourceProgress(String fingerprint, String name, long bytes, long lines) {
        this(fingerprint, name, bytes, lines, null, null);
    }

    /** This position moved on by {@code moreBytes} and {@code moreLines}, with the check of the bytes before the new position. */
    public SourceProgress advancedBy(long moreBytes, long moreLines, String newCheck) {
        return new SourceProgress(fingerprint, name, bytes + moreBytes, lines + moreLines, newCheck, null);
    }

    /** This position, recorded as the end of {@code stamped}: the file held nothing after it when it was read. */
    public SourceProgress readToTheEndOf(FileStamp stamped) {
        return new SourceProgress(fingerprint, name, bytes, lines, check, stamped);
    }

    /** This position under another name (the log read again under the name it has now). */
    public SourceProgress named(String newName) {
        return new SourceProgress(fingerprint, newName, bytes, lines, check, file);
    }
}
