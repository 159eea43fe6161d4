package dev.crawlerrors.ingest.source;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.ZipException;

/**
 * A decompressed stream whose decompressor's failures ({@code Unexpected end of ZLIB input
 * stream}, zstd's {@code Truncated source}, a bad header) are {@link DamagedLogException}s that
 * say what is wrong in the user's terms. The decompressor is made on first read, so a file cut
 * before the end of its header is damaged too, not unreadable.
 */
final class DecompressingStream extends InputStream {

    private final String name;
    private final Compression compression;
    private final Opener opener;
    private InputStream in;
    private DamagedLogException damage;

    DecompressingStream(String name, Compression compression, Opener opener) {
        this.name = name;
        this.compression = compression;
        this.opener = opener;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (damage != null) {
            throw damage;
        }
        try {
            if (in == null) {
                in = opener.open();
            }
            return in.read(b, off, len);
        } catch (EOFException | ZipException | com.github.luben.zstd.ZstdIOException e) {
            damage = new DamagedLogException(name, compression.label(), e);
            throw damage;
        }
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            in.close();
        }
    }

    /** Makes the decompressor, on first read. */
    @FunctionalInterface
    interface Opener {
        InputStream open() throws IOException;
    }

    /** What a loaded or peeked-at content ended in: the damage, raised where it was met. */
    static final class Failing extends InputStream {
        private final IOException failure;

        Failing(IOException failure) {
            this.failure = failure;
        }

        @Override
        public int read() throws IOException {
            throw failure;
        }
    }
}
