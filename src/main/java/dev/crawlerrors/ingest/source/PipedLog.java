package dev.crawlerrors.ingest.source;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;

/**
 * Standard input or a pipe, read once, front to back, decompressed once opened; its first bytes,
 * once peeked at, are kept in front of the rest.
 */
final class PipedLog implements StoredLog {

    private final LogSource source;
    private InputStream stream;
    private Compression compression;

    PipedLog(LogSource source) {
        this.source = source;
    }

    @Override
    public InputStream openAt(long position) throws IOException {
        InputStream in = stream();
        in.skipNBytes(position);
        return in;
    }

    /**
     * Skips to {@code position}, moving {@code window} on (when not null) over the bytes skipped,
     * which must end in the bytes whose check is {@code expected} (when not null).
     *
     * @throws OtherLogException when the stream holds other bytes there: another log that begins alike
     */
    InputStream openAt(long position, String expected, TailCheck window) throws IOException {
        InputStream in = stream();
        TailCheck skipped = window != null ? window : new TailCheck();
        byte[] buffer = new byte[LogSource.READ_BUFFER];
        long left = position;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new EOFException(source.name() + " ends before byte " + position);
            }
            skipped.advance(buffer, 0, n);
            left -= n;
        }
        if (expected != null && !skipped.value().equals(expected)) {
            throw new OtherLogException(source.name());
        }
        return in;
    }

    /** The bytes are kept and read again by {@link #openAt}. */
    @Override
    public LogSource.Beginning beginning(int limit) throws IOException {
        Read read = Read.upTo(stream(), limit + 1);
        stream = new SequenceInputStream(new ByteArrayInputStream(read.bytes()), read.damage() == null ? stream
                : new DecompressingStream.Failing(read.damage()));
        return read.beginning(limit);
    }

    /** @throws UnsupportedOperationException always: a stream is checked as it is read */
    @Override
    public byte[] before(long position) {
        throw new UnsupportedOperationException(source.name() + " is read once");
    }

    /** Null: a stream's damage is met as it is read. */
    @Override
    public DamagedLogException damage() {
        return null;
    }

    @Override
    public Compression compression() throws IOException {
        stream();
        return compression;
    }

    /** False: a stream must be read to know. */
    @Override
    public boolean endsBy(long position) {
        return false;
    }

    private InputStream stream() throws IOException {
        if (stream == null) {
            InputStream in;
            if (source.path() == null) {
                in = System.in;
            } else {
                try {
                    in = Files.newInputStream(source.path());
                } catch (IOException e) {
                    throw source.unreadable(e);
                }
            }
            BufferedInputStream raw = new BufferedInputStream(source.counting(in), LogSource.READ_BUFFER);
            raw.mark(Compression.MAGIC_BYTES);
            byte[] magic = raw.readNBytes(Compression.MAGIC_BYTES);
            raw.reset();
            compression = Compression.of(magic, source.name());
            stream = compression.decompressed(raw, source.name());
        }
        return stream;
    }
}
