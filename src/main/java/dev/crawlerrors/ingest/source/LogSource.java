package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.FileStamp;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

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

    static final int READ_BUFFER = 1 << 16;
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
    /** A file on disk, or a stream, once asked about; null until then. */
    private StoredLog unloaded;
    /** A loaded file's content; null when it is not loaded. */
    private LoadedLog loaded;

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
     * first to its last, and the file system's whole attributes of many files add up.
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
        if (loaded != null) {
            return true;
        }
        if (isStream()) {
            return false;
        }
        // the attributes it was listed with say what a second look would (a file that went since fails to open)
        Look a = look();
        if (a == null) {
            new FileLog(this).checkReadable(); // says why it cannot be looked at
        } else if (a.directory) {
            throw new IOException(name + " is a directory, not a log file");
        }
        if (a == null || a.size > SMALL_FILE_BYTES) {
            return false;
        }
        LoadedLog read = LoadedLog.read(this, (int) a.size);
        if (read == null) {
            return false;
        }
        consumed = read.rawLength();
        loaded = read;
        return true;
    }

    /** Whether the file was {@linkplain #load() loaded}. */
    public boolean loaded() {
        return loaded != null;
    }

    /**
     * Lets go of a loaded file's content once it was read: an import holds its logs' sources from
     * the first to the last, and the content of 5,000 small logs held on was most of its memory.
     */
    public void release() {
        loaded = null;
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
        return stored().openAt(position);
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
        if (stored() instanceof PipedLog piped && (expected != null || window != null)) {
            return piped.openAt(position, expected, window);
        }
        return openAt(position);
    }

    /**
     * The first {@code limit} bytes of the decompressed content (fewer when the log is shorter). For
     * a stream they are kept and read again by {@link #openAt}.
     */
    public Beginning beginning(int limit) throws IOException {
        return stored().beginning(limit);
    }

    /**
     * The (at most {@value TailCheck#BYTES}) bytes just before {@code position} in the decompressed
     * content, to check that it holds what was read of a log there; null when it ends before.
     *
     * @throws UnsupportedOperationException for a stream, which is checked as it is read (String))
     */
    public byte[] before(long position) throws IOException {
        return stored().before(position);
    }

    /**
     * What stops a compressed file's decompression before its end (a file cut short, or one still
     * being written), or null when it is whole, and for a plain file or a stream. A loaded file says
     * at once; a bigger one is decompressed through once to find out.
     *
     * @throws IOException when the file cannot be read
     */
    public DamagedLogException damage() throws IOException {
        return stored().damage();
    }

    /**
     * How the log is compressed, by its first bytes.
     *
     * @throws IOException when it cannot be read, or is compressed in a way this version does not read
     */
    public Compression compression() throws IOException {
        return stored().compression();
    }

    /**
     * Whether the decompressed content is known, without reading it, to end at or before
     * {@code position}: a plain file by its size, gzip by its trailer (the size modulo 2^32), zstd by
     * its frame header. A file of several gzip members or zstd frames, or a stream, tells
     * nothing this way and must be read to know.
     */
    public boolean endsBy(long position) throws IOException {
        return stored().endsBy(position);
    }

    /** What the content is read from now: the loaded content, the stream, or the file on disk. */
    private StoredLog stored() {
        if (loaded != null) {
            return loaded;
        }
        boolean stream = isStream();
        if (unloaded == null || (unloaded instanceof PipedLog) != stream) {
            unloaded = stream ? new PipedLog(this) : new FileLog(this);
        }
        return unloaded;
    }

    /** Why the file cannot be read, in one sentence that names it: missing, not allowed, or what the system said. */
    IOException unreadable(IOException e) {
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

    /** The first bytes of a log's content, whether they are all of it, and the damage that ended it early (null when none). */
    public record Beginning(byte[] bytes, boolean whole, DamagedLogException damage) {
    }

    /** {@code raw}, counting the bytes read from it into {@link #consumed()}. */
    InputStream counting(InputStream raw) {
        return new Counting(raw);
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
