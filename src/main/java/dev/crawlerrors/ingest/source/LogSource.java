package dev.crawlerrors.ingest.source;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import dev.crawlerrors.ingest.FileStamp;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * One log to read: a file (plain, gzip or zstd, told by its magic bytes, not its name), standard
 * input ({@code -}), or a file that is a stream (a named pipe, {@code <(zcat x.gz)}). Counts the raw
 * bytes consumed so progress can be shown against the file size.
 *
 * <p>Positions ({@link #openAt}) are in the decompressed content, the same for a log whatever it is
 * compressed with, so a log imported while plain is recognised after logrotate compressed it.
 * Standard input and pipes are read once, front to back: their first bytes, once looked at, are
 * kept in front of the rest. A small file can be {@linkplain #load() loaded} whole, so that
 * identifying it, detecting its format and reading it cost one read of the disk.
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
    /**
     * Files up to this size on disk are {@linkplain #load() loaded} whole: CloudFront's files, a load
     * balancer's five minutes, a small site's day. A bigger one is streamed in chunks.
     */
    public static final int SMALL_FILE_BYTES = 1 << 20;
    /** A loaded file's content is kept up to this size decompressed; a file that holds more is streamed. */
    static final int SMALL_CONTENT_BYTES = 8 << 20;

    private final String name;
    private final Path path;
    /** The file as it was when it was named (listed in a directory, or first looked at); null until then. */
    private Look look;
    private volatile long consumed;
    /** Standard input or a pipe, decompressed, once opened; its first bytes, once peeked at, are kept in front of it. */
    private InputStream stream;
    private Compression streamCompression;
    /** A loaded file's decompressed content, its length, and what stopped its decompression early (null when nothing). */
    private byte[] content;
    private int contentLength;
    private Compression contentCompression;
    private DamagedLogException contentDamage;

    private LogSource(String name, Path path, BasicFileAttributes attributes) {
        this.name = name;
        this.path = path;
        this.look = attributes == null ? null : Look.of(attributes);
    }

    /** {@code -} is standard input; anything else a file path. */
    public static LogSource of(String argument) {
        return "-".equals(argument) ? new LogSource("-", null, null) : new LogSource(argument, Path.of(argument), null);
    }

    /** A file, shown to the user as {@code name}. */
    public static LogSource file(Path path, String name) {
        return new LogSource(name, path, null);
    }

    /** A file, shown to the user as {@code name}, as it was when it was listed. */
    public static LogSource file(Path path, String name, BasicFileAttributes listed) {
        return new LogSource(name, path, listed);
    }

    public String name() {
        return name;
    }

    /** The file, or null for standard input. */
    public Path path() {
        return path;
    }

    /**
     * Whether this log can be read only once, front to back: standard input, a named pipe, a
     * process substitution. A file that cannot be looked at is taken for a file (opening it says why).
     */
    public boolean isStream() {
        if (path == null) {
            return true;
        }
        Look a = look();
        return a != null && a.other;
    }

    /**
     * The file as it is now on disk, told by its identity, size and modification time (as it was when
     * listed, for a file found in a directory); null for a stream, or where the platform gives files no identity.
     */
    public FileStamp stamp() {
        Look a = look();
        return a == null ? null : a.stamp;
    }

    /** The size on disk, or -1 for a stream or a file that cannot be looked at. */
    public long size() {
        Look a = look();
        return a == null || a.other ? -1 : a.size;
    }

    private Look look() {
        if (look == null && path != null) {
            try {
                look = Look.of(Files.readAttributes(path, BasicFileAttributes.class));
            } catch (IOException e) {
                return null; // opening it says what is wrong
            }
        }
        return look;
    }

    /**
     * What a look at the file said, kept small: an import holds every file it was given from its
     * first to its last, and the file system's attributes of 50,000 files were 10 MB of them.
     *
     * @param stamp null for anything but a regular file with an identity
     */
    private record Look(boolean other, boolean directory, long size, FileStamp stamp) {
        static Look of(BasicFileAttributes a) {
            FileStamp stamp = !a.isRegularFile() || a.fileKey() == null ? null
                    : new FileStamp(a.fileKey().toString(), a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS));
            return new Look(a.isOther(), a.isDirectory(), a.size(), stamp);
        }
    }

    /**
     * Whether the log may be in the middle of a write: a plain file changed less than {@link
     * #WRITE_QUIET_MILLIS} ago. Streams and compressed files are finished when they end; a file that
     * cannot be looked at is taken for finished too (reading it said what it holds).
     */
    public boolean beingWritten() {
        if (isStream()) {
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
     * Reads a small file whole, decompressed, so that what follows (its beginning, its format, its
     * lines) reads memory: a log of a few lines cost four opens of its file, and with tens of
     * thousands of them that was the import. A file bigger than {@link #SMALL_FILE_BYTES}, or holding
     * more than {@link #SMALL_CONTENT_BYTES} decompressed, and a stream, are left to be streamed.
     *
     * @return whether the file is loaded
     * @throws IOException with a one-sentence message when the file cannot be read
     */
    public boolean load() throws IOException {
        if (content != null) {
            return true;
        }
        if (isStream()) {
            return false;
        }
        // the attributes it was listed with say what a second look would (a file that went since fails to open)
        Look a = look();
        if (a == null) {
            checkReadable(); // says why it cannot be looked at
        } else if (a.directory) {
            throw new IOException(name + " is a directory, not a log file");
        }
        if (a == null || a.size > SMALL_FILE_BYTES) {
            return false;
        }
        byte[] raw;
        try {
            raw = readSmall(path, (int) a.size);
        } catch (IOException e) {
            throw unreadable(e);
        }
        Compression compression = Compression.of(raw, name);
        byte[] bytes = raw;
        int length = raw.length;
        DamagedLogException damage = null;
        Inflated inflated = compression == Compression.GZIP ? Inflated.gzip(raw) : null;
        if (inflated != null) {
            if (inflated.bytes == null) {
                return false; // a lot in a little: streamed instead
            }
            bytes = inflated.bytes;
            length = inflated.length;
        } else if (compression != Compression.NONE) {
            // sized by what the file says it holds (gzip's trailer, zstd's frame header), one more byte to see its end
            long said = compression == Compression.GZIP ? gzipSize(raw) : Zstd.getFrameContentSize(raw);
            bytes = new byte[(int) Math.min(SMALL_CONTENT_BYTES, said > 0 ? said + 1 : Math.max(4096, raw.length * 4L))];
            length = 0;
            try (InputStream in = decompressed(new ByteArrayInputStream(raw), compression)) {
                int n;
                while ((n = in.read(bytes, length, bytes.length - length)) > 0) {
                    length += n;
                    if (length == bytes.length) {
                        if (bytes.length >= SMALL_CONTENT_BYTES) {
                            return false; // a lot in a little: streamed instead
                        }
                        bytes = Arrays.copyOf(bytes, Math.min(SMALL_CONTENT_BYTES, bytes.length * 2));
                    }
                }
            } catch (DamagedLogException e) {
                damage = e;
            }
        }
        consumed = raw.length;
        content = bytes;
        contentLength = length;
        contentCompression = compression;
        contentDamage = damage;
        return true;
    }

    /**
     * A small file's bytes, in one read when it is the size it was listed with: {@link
     * Files#readAllBytes} asked its size first and read again to see its end, two of its five
     * system calls, each some microseconds on a virtual machine, for each of 50,000 files. A read
     * of one byte more than the size that comes back short is at the end of a regular file.
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

    /** The decompressed size a gzip file's trailer gives (modulo 2^32, for the last member), or -1 when it has none. */
    private static long gzipSize(byte[] raw) {
        if (raw.length < 18) {
            return -1;
        }
        int n = raw.length;
        return (raw[n - 4] & 0xffL) | (raw[n - 3] & 0xffL) << 8 | (raw[n - 2] & 0xffL) << 16 | (raw[n - 1] & 0xffL) << 24;
    }

    /** Whether the file was {@linkplain #load() loaded}. */
    public boolean loaded() {
        return content != null;
    }

    /**
     * Lets go of a loaded file's content once it was read: an import holds its logs' sources from
     * the first to the last, and the content of 5,000 small logs held on was most of its memory.
     */
    public void release() {
        content = null;
        contentDamage = null;
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
     * Damage to a compressed log is reported, when reading reaches it, as a {@link DamagedLogException}.
     *
     * @throws IOException with a one-sentence message when the file cannot be read or is shorter
     */
    public InputStream openAt(long position) throws IOException {
        if (content != null) {
            if (position > contentLength) {
                throw contentDamage != null ? contentDamage : new EOFException(name + " ends before byte " + position);
            }
            InputStream in = new ByteArrayInputStream(content, (int) position, contentLength - (int) position);
            return contentDamage == null ? in : new SequenceInputStream(in, new FailingStream(contentDamage));
        }
        if (isStream()) {
            InputStream in = stream();
            in.skipNBytes(position);
            return in;
        }
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
            return new BufferedInputStream(new Counting(Channels.newInputStream(channel)), READ_BUFFER);
        }
        InputStream in = decompressed(new BufferedInputStream(new Counting(Channels.newInputStream(openChannel())), READ_BUFFER),
                compression);
        try {
            in.skipNBytes(position);
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return in;
    }

    /**
     * {@link #openAt(long)}, for a stream ({@link #isStream()}) that cannot be looked at before it is
     * read: the bytes it skips to {@code position} move {@code window} on (when not null), and must
     * end in the bytes whose check ({@link TailCheck}) is {@code expected} (when not null), those of
     * the log it was taken for. A file is opened as {@link #openAt(long)} does.
     *
     * @throws OtherLogException when the stream holds other bytes there: another log that begins alike
     */
    public InputStream openAt(long position, String expected, TailCheck window) throws IOException {
        if (!isStream() || content != null || (expected == null && window == null)) {
            return openAt(position);
        }
        InputStream in = stream();
        TailCheck skipped = window != null ? window : new TailCheck();
        byte[] buffer = new byte[READ_BUFFER];
        long left = position;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new EOFException(name + " ends before byte " + position);
            }
            skipped.advance(buffer, 0, n);
            left -= n;
        }
        if (expected != null && !skipped.value().equals(expected)) {
            throw new OtherLogException(name);
        }
        return in;
    }

    /**
     * The first {@code limit} bytes of the decompressed content (fewer when the log is shorter). For
     * a stream they are kept and read again by {@link #openAt}.
     */
    public Beginning beginning(int limit) throws IOException {
        if (content != null) {
            int n = Math.min(limit, contentLength);
            return new Beginning(Arrays.copyOf(content, n), contentLength <= limit, n == contentLength ? contentDamage : null);
        }
        if (isStream()) {
            Read read = readUpTo(stream(), limit + 1);
            stream = new SequenceInputStream(new ByteArrayInputStream(read.bytes), read.damage == null ? stream
                    : new FailingStream(read.damage));
            return beginning(read, limit);
        }
        try (InputStream in = open()) {
            return beginning(readUpTo(in, limit + 1), limit);
        }
    }

    private static Beginning beginning(Read read, int limit) {
        boolean whole = read.bytes.length <= limit;
        return new Beginning(whole ? read.bytes : Arrays.copyOf(read.bytes, limit), whole, whole ? read.damage : null);
    }

    /** What a read of the first bytes got: the bytes, and the damage that stopped it early, if any. */
    private record Read(byte[] bytes, DamagedLogException damage) {
    }

    /** Up to {@code n} bytes, fewer at the end or where a damaged (truncated) stream stops. */
    private static Read readUpTo(InputStream in, int n) throws IOException {
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

    /**
     * The (at most {@value TailCheck#BYTES}) bytes just before {@code position} in the decompressed
     * content, to check that it holds what was read of a log there; null when it ends before.
     *
     * @throws UnsupportedOperationException for a stream, which is checked as it is read ({@link #openAt(long, String)})
     */
    public byte[] before(long position) throws IOException {
        if (isStream() && content == null) {
            throw new UnsupportedOperationException(name + " is read once");
        }
        int n = (int) Math.min(position, TailCheck.BYTES);
        if (content != null) {
            return position > contentLength ? null : Arrays.copyOfRange(content, (int) position - n, (int) position);
        }
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

    /**
     * What stops a compressed file's decompression before its end (a file cut short, or one still
     * being written), or null when it is whole, and for a plain file or a stream. A loaded file says
     * at once; a bigger one is decompressed through once to find out.
     *
     * @throws IOException when the file cannot be read
     */
    public DamagedLogException damage() throws IOException {
        if (isStream() || compression() == Compression.NONE) {
            return null;
        }
        if (content != null) {
            return contentDamage;
        }
        try (InputStream in = open()) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (DamagedLogException e) {
            return e;
        }
        return null;
    }

    /**
     * How the log is compressed, by its first bytes.
     *
     * @throws IOException when it cannot be read, or is compressed in a way this version does not read
     */
    public Compression compression() throws IOException {
        if (content != null) {
            return contentCompression;
        }
        if (isStream()) {
            stream();
            return streamCompression;
        }
        checkReadable();
        byte[] magic;
        try (InputStream in = Files.newInputStream(path)) {
            magic = in.readNBytes(Compression.MAGIC_BYTES);
        } catch (IOException e) {
            throw unreadable(e);
        }
        return Compression.of(magic, name);
    }

    /**
     * Whether the decompressed content is known, without reading it, to end at or before
     * {@code position}: a plain file by its size, gzip by its trailer (the size modulo 2^32), zstd by
     * its frame header. A file of several gzip members or zstd frames, or a stream, tells
     * nothing this way and must be read to know.
     */
    public boolean endsBy(long position) throws IOException {
        if (content != null) {
            return contentLength <= position;
        }
        if (isStream()) {
            return false;
        }
        Compression compression = compression();
        if (compression == Compression.NONE) {
            return Files.size(path) <= position;
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
            return FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    private void checkReadable() throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            throw unreadable(e);
        }
        if (a.isDirectory()) {
            throw new IOException(name + " is a directory, not a log file");
        }
    }

    /** Why the file cannot be read, in one sentence that names it: missing, not allowed, or what the system said. */
    private IOException unreadable(IOException e) {
        if (e instanceof NoSuchFileException) {
            return new IOException(name + " does not exist", e);
        }
        if (e instanceof AccessDeniedException) {
            return new IOException(name + " cannot be read: permission denied (run the import as a user allowed to read it,"
                    + " such as one in the group that owns it)", e);
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return new IOException(name + " cannot be read: " + fs.getReason(), e);
        }
        return e.getMessage() != null && e.getMessage().startsWith(name) ? e : new IOException(name + " cannot be read: " + e.getMessage(), e);
    }

    private InputStream stream() throws IOException {
        if (stream == null) {
            InputStream source;
            if (path == null) {
                source = System.in;
            } else {
                try {
                    source = Files.newInputStream(path);
                } catch (IOException e) {
                    throw unreadable(e);
                }
            }
            BufferedInputStream raw = new BufferedInputStream(new Counting(source), READ_BUFFER);
            raw.mark(Compression.MAGIC_BYTES);
            byte[] magic = raw.readNBytes(Compression.MAGIC_BYTES);
            raw.reset();
            streamCompression = Compression.of(magic, name);
            stream = decompressed(raw, streamCompression);
        }
        return stream;
    }

    /**
     * Not buffered again on purpose: a buffer over a decompressor would throw away the bytes it had
     * already decompressed when the stream turns out truncated, and those lines must be kept. The
     * decompressor's failures are {@link DamagedLogException}s, told apart from failures to read.
     */
    private InputStream decompressed(InputStream raw, Compression compression) throws IOException {
        return switch (compression) {
            case NONE -> raw;
            case GZIP -> new Decompressed(compression, () -> new GZIPInputStream(raw, raw instanceof ByteArrayInputStream small
                    ? Math.max(512, Math.min(READ_BUFFER, small.available())) : READ_BUFFER));
            case ZSTD -> new Decompressed(compression, () -> new ZstdInputStream(raw));
        };
    }

    /**
     * A small gzip file decompressed in memory with this thread's {@link Inflater}: a
     * {@link GZIPInputStream} per file made an inflater (zlib's state, its window, a cleaner), a
     * buffer and three streams for each of 50,000 logs of 1 KB. Only whole, well-formed members
     * that fill the file end to end are read this way; anything else (a file cut short, a bad
     * checksum, bytes after the last member) is read as a stream, which says what is wrong as before.
     *
     * @param bytes  the content, null when it holds more than {@link #SMALL_CONTENT_BYTES}
     * @param length how much of {@code bytes} it fills
     */
    private record Inflated(byte[] bytes, int length) {

        private static final ThreadLocal<Inflater> INFLATERS = ThreadLocal.withInitial(() -> new Inflater(true));
        private static final int FHCRC = 2;
        private static final int FEXTRA = 4;
        private static final int FNAME = 8;
        private static final int FCOMMENT = 16;

        /** The content of {@code raw}, or null when it is not whole and well formed (to be read as a stream). */
        static Inflated gzip(byte[] raw) {
            long said = gzipSize(raw);
            byte[] out = new byte[(int) Math.min(SMALL_CONTENT_BYTES, said > 0 ? said + 1 : Math.max(4096, raw.length * 4L))];
            int length = 0;
            int at = 0;
            Inflater inflater = INFLATERS.get();
            CRC32 crc = new CRC32();
            try {
                while (at < raw.length) {
                    int data = header(raw, at);
                    if (data < 0) {
                        return null;
                    }
                    inflater.reset();
                    inflater.setInput(raw, data, raw.length - data);
                    int start = length;
                    while (!inflater.finished()) {
                        if (length == out.length) {
                            if (out.length >= SMALL_CONTENT_BYTES) {
                                return new Inflated(null, 0);
                            }
                            out = Arrays.copyOf(out, Math.min(SMALL_CONTENT_BYTES, out.length * 2));
                        }
                        int n = inflater.inflate(out, length, out.length - length);
                        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                            return null; // cut short, or not what gzip writes
                        }
                        length += n;
                    }
                    int trailer = raw.length - inflater.getRemaining();
                    if (trailer + 8 > raw.length) {
                        return null;
                    }
                    crc.reset();
                    crc.update(out, start, length - start);
                    if ((int) crc.getValue() != littleEndianInt(raw, trailer) || length - start != littleEndianInt(raw, trailer + 4)) {
                        return null;
                    }
                    at = trailer + 8;
                }
            } catch (DataFormatException e) {
                return null;
            } finally {
                inflater.reset();
            }
            return new Inflated(out, length);
        }

        /** Where the deflated data of the member at {@code at} begins, or -1 when its header is not one read here. */
        private static int header(byte[] raw, int at) {
            if (raw.length - at < 18 || (raw[at] & 0xff) != 0x1f || (raw[at + 1] & 0xff) != 0x8b || raw[at + 2] != 8) {
                return -1;
            }
            int flags = raw[at + 3] & 0xff;
            if ((flags & 0xe0) != 0) {
                return -1;
            }
            int p = at + 10;
            if ((flags & FEXTRA) != 0) {
                if (p + 2 > raw.length) {
                    return -1;
                }
                p += 2 + ((raw[p] & 0xff) | (raw[p + 1] & 0xff) << 8);
            }
            if ((flags & FNAME) != 0) {
                p = afterZero(raw, p);
            }
            if ((flags & FCOMMENT) != 0) {
                p = afterZero(raw, p);
            }
            if ((flags & FHCRC) != 0) {
                p += 2;
            }
            return p < 0 || p > raw.length ? -1 : p;
        }

        private static int afterZero(byte[] raw, int p) {
            if (p < 0) {
                return -1;
            }
            for (int i = p; i < raw.length; i++) {
                if (raw[i] == 0) {
                    return i + 1;
                }
            }
            return -1;
        }

        private static int littleEndianInt(byte[] b, int at) {
            return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
        }
    }

    /** The first bytes of a log's content, whether they are all of it, and the damage that ended it early (null when none). */
    public record Beginning(byte[] bytes, boolean whole, DamagedLogException damage) {
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

        /** The name users know it by. */
        String label() {
            return this == GZIP ? "gzip" : "zstd";
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

    /**
     * A decompressed stream whose decompressor's failures ({@code Unexpected end of ZLIB input
     * stream}, zstd's {@code Truncated source}, a bad header) are {@link DamagedLogException}s that
     * say what is wrong in the user's terms. The decompressor is made on first read, so a file cut
     * before the end of its header is damaged too, not unreadable.
     */
    private final class Decompressed extends InputStream {

        private final Compression compression;
        private final Opener opener;
        private InputStream in;
        private DamagedLogException damage;

        Decompressed(Compression compression, Opener opener) {
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
    }

    @FunctionalInterface
    private interface Opener {
        InputStream open() throws IOException;
    }

    /** What a loaded file's content ended in: the damage, raised where it was met. */
    private static final class FailingStream extends InputStream {
        private final IOException failure;

        FailingStream(IOException failure) {
            this.failure = failure;
        }

        @Override
        public int read() throws IOException {
            throw failure;
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
