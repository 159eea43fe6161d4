package dev.crawlerrors.ingest.source;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * One log to read: a file (plain, gzip or zstd, told by its magic bytes, not its name) or standard
 * input ({@code -}). Counts the raw bytes consumed so progress can be shown against the file size.
 *
 * <p>Positions ({@link #openAt}) are in the decompressed content, the same for a log whatever it is
 * compressed with, so a log imported while plain is recognised after logrotate compressed it.
 */
public final class LogSource {

    private static final int READ_BUFFER = 1 << 16;
    /**
     * How long a file must have been left alone to count as not being written. nginx and Apache
     * write each line with one write(), so a last line without its newline is one being written
     * at this instant (or by a writer that writes a line in pieces); a file whose last change is
     * older than this and still ends without a newline ends that way for good.
     */
    static final long WRITE_QUIET_MILLIS = 5_000;

    private final String name;
    private final Path path;
    private volatile long consumed;
    /** Standard input, decompressed, once opened; its first bytes, once peeked at, are kept in front of it. */
    private InputStream stdin;
    private Compression stdinCompression;

    private LogSource(String name, Path path) {
        this.name = name;
        this.path = path;
    }

    /** {@code -} is standard input; anything else a file path. */
    public static LogSource of(String argument) {
        return "-".equals(argument) ? new LogSource("-", null) : new LogSource(argument, Path.of(argument));
    }

    /** A file, shown to the user as {@code name}. */
    public static LogSource file(Path path, String name) {
        return new LogSource(name, path);
    }

    public String name() {
        return name;
    }

    /** The file, or null for standard input. */
    public Path path() {
        return path;
    }

    /** The size on disk, or -1 for standard input. */
    public long size() {
        try {
            return path == null ? -1 : Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Whether the log may be in the middle of a write: a plain file changed less than {@link
     * #WRITE_QUIET_MILLIS} ago. Standard input and compressed files are finished when they end;
     * a file that cannot be looked at is taken for finished too (reading it said what it holds).
     */
    public boolean beingWritten() {
        if (path == null) {
            return false;
        }
        try {
            return compression() == Compression.NONE
                    && System.currentTimeMillis() - Files.getLastModifiedTime(path).toMillis() < WRITE_QUIET_MILLIS;
        } catch (IOException e) {
            return false;
        }
    }

    /** Raw (compressed) bytes consumed so far. */
    public long consumed() {
        return consumed;
    }

    /**
     * Opens the log from its beginning, decompressing gzip and zstd transparently.
     *
     * @throws IOException with a one-sentence message when the file cannot be read
     */
    public InputStream open() throws IOException {
        return openAt(0);
    }

    /**
     * Opens the log {@code position} bytes into its decompressed content. A plain file is positioned
     * there directly; a compressed one is decompressed from its start and the first bytes dropped.
     *
     * @throws IOException with a one-sentence message when the file cannot be read or is shorter
     */
    public InputStream openAt(long position) throws IOException {
        if (path == null) {
            InputStream in = stdin();
            in.skipNBytes(position);
            return in;
        }
        checkReadable();
        Compression compression = compression();
        if (compression == Compression.NONE) {
            FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
            try {
                channel.position(position);
            } catch (IOException e) {
                channel.close();
                throw e;
            }
            return new BufferedInputStream(new Counting(Channels.newInputStream(channel)), READ_BUFFER);
        }
        InputStream in = decompressed(new BufferedInputStream(new Counting(Files.newInputStream(path)), READ_BUFFER), compression);
        try {
            in.skipNBytes(position);
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return in;
    }

    /**
     * The first {@code limit} bytes of the decompressed content (fewer when the log is shorter). For
     * standard input they are kept and read again by {@link #openAt}.
     */
    public Beginning beginning(int limit) throws IOException {
        if (path == null) {
            byte[] bytes = readUpTo(stdin(), limit + 1);
            stdin = new SequenceInputStream(new ByteArrayInputStream(bytes), stdin);
            return beginning(bytes, limit);
        }
        try (InputStream in = open()) {
            return beginning(readUpTo(in, limit + 1), limit);
        }
    }

    private static Beginning beginning(byte[] read, int limit) {
        boolean whole = read.length <= limit;
        return new Beginning(whole ? read : Arrays.copyOf(read, limit), whole);
    }

    /** Up to {@code n} bytes, fewer at the end or where a damaged (truncated) stream stops. */
    private static byte[] readUpTo(InputStream in, int n) {
        byte[] bytes = new byte[n];
        int filled = 0;
        try {
            int read;
            while (filled < n && (read = in.read(bytes, filled, n - filled)) > 0) {
                filled += read;
            }
        } catch (IOException e) {
            // keep what came before the damage; reading the log reports the damage itself
        }
        return Arrays.copyOf(bytes, filled);
    }

    /**
     * How the log is compressed, by its first bytes.
     *
     * @throws IOException when it cannot be read, or is compressed in a way this version does not read
     */
    public Compression compression() throws IOException {
        if (path == null) {
            stdin();
            return stdinCompression;
        }
        checkReadable();
        byte[] magic;
        try (InputStream in = Files.newInputStream(path)) {
            magic = in.readNBytes(Compression.MAGIC_BYTES);
        }
        return Compression.of(magic, name);
    }

    /**
     * Whether the decompressed content is known, without reading it, to end at or before
     * {@code position}: a plain file by its size, gzip by its trailer (the size modulo 2^32), zstd by
     * its frame header. A file of several gzip members or zstd frames, or standard input, tells
     * nothing this way and must be read to know.
     */
    public boolean endsBy(long position) throws IOException {
        if (path == null) {
            return false;
        }
        Compression compression = compression();
        if (compression == Compression.NONE) {
            return size() <= position;
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
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

    private void checkReadable() throws IOException {
        if (Files.isDirectory(path)) {
            throw new IOException(name + " is a directory, not a log file");
        }
        if (!Files.isReadable(path)) {
            throw new IOException(name + " does not exist or cannot be read");
        }
    }

    private InputStream stdin() throws IOException {
        if (stdin == null) {
            BufferedInputStream raw = new BufferedInputStream(new Counting(System.in), READ_BUFFER);
            raw.mark(Compression.MAGIC_BYTES);
            byte[] magic = raw.readNBytes(Compression.MAGIC_BYTES);
            raw.reset();
            stdinCompression = Compression.of(magic, name);
            stdin = decompressed(raw, stdinCompression);
        }
        return stdin;
    }

    /**
     * Not buffered again on purpose: a buffer over a decompressor would throw away the bytes it had
     * already decompressed when the stream turns out truncated, and those lines must be kept.
     */
    private static InputStream decompressed(BufferedInputStream raw, Compression compression) throws IOException {
        return switch (compression) {
            case NONE -> raw;
            case GZIP -> new GZIPInputStream(raw, READ_BUFFER);
            case ZSTD -> new ZstdInputStream(raw);
        };
    }

    /** The first bytes of a log's content, and whether they are all of it. */
    public record Beginning(byte[] bytes, boolean whole) {
    }

    /** The compressions read transparently. */
    public enum Compression {
        NONE, GZIP, ZSTD;

        static final int MAGIC_BYTES = 6;

        static Compression of(byte[] magic, String name) throws IOException {
            if (starts(magic, 0x1f, 0x8b)) {
                return GZIP;
            }
            if (starts(magic, 0x28, 0xb5, 0x2f, 0xfd)) {
                return ZSTD;
            }
            String other = starts(magic, 'B', 'Z', 'h') ? "bzip2"
                    : starts(magic, 0xfd, '7', 'z', 'X', 'Z', 0) ? "xz"
                    : starts(magic, 'P', 'K', 3, 4) ? "zip"
                    : null;
            if (other != null) {
                throw new IOException(name + " is compressed with " + other + ", which crawl-errors does not read;"
                        + " decompress it into the import, e.g. " + (other.equals("zip") ? "unzip -p" : other + " -dc")
                        + " " + name + " | crawl-errors import -");
            }
            return NONE;
        }

        private static boolean starts(byte[] bytes, int... magic) {
            if (bytes.length < magic.length) {
                return false;
            }
            for (int i = 0; i < magic.length; i++) {
                if ((bytes[i] & 0xff) != magic[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private final class Counting extends FilterInputStream {
        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                consumed++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                consumed += n;
            }
            return n;
        }
    }
}
