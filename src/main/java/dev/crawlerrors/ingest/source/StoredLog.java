package dev.crawlerrors.ingest.source;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Where a {@link LogSource}'s content is read from, one of three states: a file on disk read
 * through its channel ({@link FileLog}), a small file loaded whole into memory ({@link LoadedLog}),
 * or standard input or a pipe read once, front to back ({@link PipedLog}). Each answers every
 * question about the content its own way, so the source asks its state instead of checking which it is.
 */
sealed interface StoredLog permits FileLog, LoadedLog, PipedLog {

    /** The log {@code position} bytes into its decompressed content. */
    InputStream openAt(long position) throws IOException;

    /** The first {@code limit} bytes of the decompressed content (fewer when the log is shorter). */
    LogSource.Beginning beginning(int limit) throws IOException;

    /** The bytes just before {@code position}, null when the content ends before. */
    byte[] before(long position) throws IOException;

    /** What stops a compressed content's decompression before its end, or null. */
    DamagedLogException damage() throws IOException;

    /** How the log is compressed, by its first bytes. */
    Compression compression() throws IOException;

    /** Whether the decompressed content is known, without reading it, to end at or before {@code position}. */
    boolean endsBy(long position) throws IOException;

    /** What a read of the first bytes got: the bytes, and the damage that stopped it early, if any. */
    record Read(byte[] bytes, DamagedLogException damage) {

        /** Up to {@code n} bytes, fewer at the end or where a damaged (truncated) stream stops. */
        static Read upTo(InputStream in, int n) throws IOException {
            byte[] bytes = new byte[n];
            int filled = 0;
            try {
                int read;
                while (filled < n && (read = in.read(bytes, filled, n - filled)) > 0) {
                    filled += read;
                }
            } catch (DamagedLogException e) {
                // keep what came before the damage; the caller says what it is
                return new Read(Arrays.copyOf(bytes, filled), e);
            }
            return new Read(Arrays.copyOf(bytes, filled), null);
        }

        /** The first {@code limit} of these bytes, read one byte further to know whether they are all. */
        LogSource.Beginning beginning(int limit) {
            boolean whole = bytes.length <= limit;
            return new LogSource.Beginning(whole ? bytes : Arrays.copyOf(bytes, limit), whole, whole ? damage : null);
        }
    }
}
