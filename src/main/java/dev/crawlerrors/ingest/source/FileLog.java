package dev.crawlerrors.ingest.source;

import com.github.luben.zstd.Zstd;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * A file read from disk each time it is asked about: a plain one positioned directly, a compressed
 * one decompressed from its start.
 */
record FileLog(LogSource source) implements StoredLog {

    /**
     * A plain file is positioned there directly; a compressed one is decompressed from its start and
     * the first bytes dropped.
     */
    @Override
    public InputStream openAt(long position) throws IOException {
        checkReadable();
        Compression compression = compression();
        if (compression == Compression.NONE) {
            FileChannel channel = openChannel();
            try {
                channel.position(position);
            } catch (IOException e) {
                channel.close();
                throw e;
            }
            return new BufferedInputStream(source.counting(Channels.newInputStream(channel)), LogSource.READ_BUFFER);
        }
        InputStream in = compression.decompressed(
                new BufferedInputStream(source.counting(Channels.newInputStream(openChannel())), LogSource.READ_BUFFER), source.name());
        try {
            in.skipNBytes(position);
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return in;
    }

    @Override
    public LogSource.Beginning beginning(int limit) throws IOException {
        try (InputStream in = openAt(0)) {
            return Read.upTo(in, limit + 1).beginning(limit);
        }
    }

    @Override
    public byte[] before(long position) throws IOException {
        int n = (int) Math.min(position, TailCheck.BYTES);
        if (compression() == Compression.NONE) {
            try (FileChannel channel = openChannel()) {
                if (channel.size() < position) {
                    return null;
                }
                ByteBuffer buffer = ByteBuffer.allocate(n);
                while (buffer.hasRemaining() && channel.read(buffer, position - n + buffer.position()) > 0) {
                    // positional reads
                }
                return buffer.hasRemaining() ? null : buffer.array();
            }
        }
        try (InputStream in = openAt(position - n)) {
            byte[] bytes = in.readNBytes(n);
            return bytes.length < n ? null : bytes;
        } catch (EOFException | DamagedLogException e) {
            return null; // ends (or breaks off) before it
        }
    }

    /** A compressed file is decompressed through once to find out. */
    @Override
    public DamagedLogException damage() throws IOException {
        if (compression() == Compression.NONE) {
            return null;
        }
        try (InputStream in = openAt(0)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (DamagedLogException e) {
            return e;
        }
        return null;
    }

    @Override
    public Compression compression() throws IOException {
        checkReadable();
        byte[] magic;
        try (InputStream in = Files.newInputStream(source.path())) {
            magic = in.readNBytes(Compression.MAGIC_BYTES);
        } catch (IOException e) {
            throw source.unreadable(e);
        }
        return Compression.of(magic, source.name());
    }

    /**
     * A plain file by its size, gzip by its trailer (the size modulo 2^32), zstd by its frame
     * header; a file of several gzip members or zstd frames tells nothing this way.
     */
    @Override
    public boolean endsBy(long position) throws IOException {
        Compression compression = compression();
        if (compression == Compression.NONE) {
            return Files.size(source.path()) <= position;
        }
        try (FileChannel channel = openChannel()) {
            long size = channel.size();
            if (compression == Compression.GZIP) {
                ByteBuffer trailer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                return size >= 18 && channel.read(trailer, size - 4) == 4
                        && Integer.toUnsignedLong(trailer.getInt(0)) == (position & 0xffff_ffffL);
            }
            ByteBuffer header = ByteBuffer.allocate(18);
            channel.read(header, 0);
            long contentSize = Zstd.getFrameContentSize(Arrays.copyOf(header.array(), header.position()));
            return contentSize >= 0 && contentSize <= position;
        }
    }

    private FileChannel openChannel() throws IOException {
        try {
            return FileChannel.open(source.path(), StandardOpenOption.READ);
        } catch (IOException e) {
            throw source.unreadable(e);
        }
    }

    /** Says, in one sentence that names it, why the file cannot be read, or that it is a directory. */
    void checkReadable() throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(source.path(), BasicFileAttributes.class);
        } catch (IOException e) {
            throw source.unreadable(e);
        }
        if (a.isDirectory()) {
            throw new IOException(source.name() + " is a directory, not a log file");
        }
    }
}
