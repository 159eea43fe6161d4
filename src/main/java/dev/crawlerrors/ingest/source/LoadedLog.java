package dev.crawlerrors.ingest.source;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A small file's content, decompressed and held in memory, so that identifying it, detecting its
 * format and reading it cost one read of the disk.
 *
 * @param content     the decompressed content
 * @param length      how much of {@code content} it fills
 * @param compression what the file on disk was compressed with
 * @param damage      what stopped its decompression early, null when nothing did
 * @param rawLength   the bytes read from disk
 */
record LoadedLog(String name, byte[] content, int length, Compression compression, DamagedLogException damage, int rawLength)
        implements StoredLog {

    /**
     * Reads {@code path} whole, decompressed, when it holds at most {@link LogSource#SMALL_CONTENT_BYTES};
     * null when it holds more (a lot in a little: streamed instead).
     */
    static LoadedLog read(LogSource source, int listedSize) throws IOException {
        String name = source.name();
        byte[] raw;
        try {
            raw = readSmall(source.path(), listedSize);
        } catch (IOException e) {
            throw source.unreadable(e);
        }
        Compression compression = Compression.of(raw, name);
        byte[] bytes = raw;
        int length = raw.length;
        DamagedLogException damage = null;
        GzipMembers inflated = compression == Compression.GZIP ? GzipMembers.inflate(raw) : null;
        if (inflated != null) {
            if (inflated.bytes() == null) {
                return null; // a lot in a little: streamed instead
            }
            bytes = inflated.bytes();
            length = inflated.length();
        } else if (compression != Compression.NONE) {
            // sized by what the file says it holds (gzip's trailer, zstd's frame header), one more byte to see its end
            long said = compression == Compression.GZIP ? GzipMembers.trailerSize(raw) : Zstd.getFrameContentSize(raw);
            bytes = new byte[(int) Math.min(LogSource.SMALL_CONTENT_BYTES, said > 0 ? said + 1 : Math.max(4096, raw.length * 4L))];
            length = 0;
            try (InputStream in = compression.decompressed(new ByteArrayInputStream(raw), name)) {
                int n;
                while ((n = in.read(bytes, length, bytes.length - length)) > 0) {
                    length += n;
                    if (length == bytes.length) {
                        if (bytes.length >= LogSource.SMALL_CONTENT_BYTES) {
                            return null; // a lot in a little: streamed instead
                        }
                        bytes = Arrays.copyOf(bytes, Math.min(LogSource.SMALL_CONTENT_BYTES, bytes.length * 2));
                    }
                }
            } catch (DamagedLogException e) {
                damage = e;
            }
        }
        return new LoadedLog(name, bytes, length, compression, damage, raw.length);
    }

    /**
     * A small file's bytes, in one read when it is the size it was listed with: {@link
     * Files#readAllBytes} asks its size first and reads again to see its end, two more system calls
     * for each of many small files. A read of one byte more than the size that comes back short is
     * at the end of a regular file.
     */
    private static byte[] readSmall(Path path, int listedSize) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            byte[] bytes = new byte[listedSize + 1];
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            // short of the listed size, read on to the end (a file cut since, or a file system that reads in parts)
            int n;
            do {
                n = channel.read(buffer);
            } while (n > 0 && buffer.position() < listedSize);
            if (!buffer.hasRemaining()) {
                return Files.readAllBytes(path); // it grew since it was listed: all of it, as it is now
            }
            return Arrays.copyOf(bytes, buffer.position());
        }
    }

    @Override
    public InputStream openAt(long position) throws IOException {
        if (position > length) {
            throw damage != null ? damage : new EOFException(name + " ends before byte " + position);
        }
        InputStream in = new ByteArrayInputStream(content, (int) position, length - (int) position);
        return damage == null ? in : new SequenceInputStream(in, new DecompressingStream.Failing(damage));
    }

    @Override
    public LogSource.Beginning beginning(int limit) {
        int n = Math.min(limit, length);
        return new LogSource.Beginning(Arrays.copyOf(content, n), length <= limit, n == length ? damage : null);
    }

    @Override
    public byte[] before(long position) {
        int n = (int) Math.min(position, TailCheck.BYTES);
        return position > length ? null : Arrays.copyOfRange(content, (int) position - n, (int) position);
    }

    @Override
    public boolean endsBy(long position) {
        return length <= position;
    }
}
