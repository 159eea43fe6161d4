package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.SourceSink;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.FormatDetector;
import dev.crawlerrors.ingest.format.LineParser;
import dev.crawlerrors.ingest.format.UnrecognizedFormatException;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.Threads;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Follows growing logs like {@code tail -F}: polls each file, parses the complete lines added
 * since the last poll and hands them on with the position they end at, so the store records hits
 * and position together and a restart (even after kill -9) reads on exactly where it stopped.
 *
 * <p>Rotation: a file renamed away (rename-and-create) is read to its end, and for a grace period
 * after, since the server may write to it until it reopens its log; then the new file is read
 * from its start. A file truncated in place (copytruncate, or replaced by other content) is read
 * again from its start, after the lines it got since the last poll are read from its copy (a
 * sibling such as {@code access.log.1} with the same beginning). A file missing at the start is
 * picked up when it appears. At start, rotated siblings of a followed file that were read only in
 * part (the server rotated while this was not running) are read to their end.
 *
 * <p>Format: each file gets its format when it is first read, from the lines it holds then (see
 * {@link #chooseFormat}); a file that replaces it (rotation, copytruncate) gets its own.
 *
 * <p>Design: polling every {@link #POLL} rather than a WatchService, because it sees renames and
 * truncation the same way on every file system (including network ones) and costs one stat per
 * file; a partial last line waits for its newline. Everything runs on one thread.
 */
public final class LogFollower implements AutoCloseable {

    /**
     * How often files are looked at: well under the second in which an appended line must reach the
     * report, counting the wait for the poll, the parse and commit and the report's request
     * (bench/follow-latency.sh measures it; BENCHMARKS.md). A shorter poll (or a WatchService) would
     * save at most the wait, which the bound does not need, at the price of stats or of the
     * robustness above.
     */
    public static final Duration POLL = Duration.ofMillis(150);
    /** How long a renamed-away file is still read after the new one appears: servers reopen logs on a signal, soon after. */
    static final Duration ROTATION_GRACE = Duration.ofSeconds(5);
    /** At most this much is read and parsed in one go, so a long backlog does not take memory it need not. */
    static final int SLICE_BYTES = 4 << 20;

    private final List<Followed> files = new ArrayList<>();
    private final LogReader reader;
    private final FormatChooser formats;
    private final AgentFilter filter;
    private final ImportedSources imported;
    private final SourceSink sink;
    private final Consumer<ParseCounts> afterBatch;
    private final Consumer<String> notices;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private Thread thread;

    /**
     * @param paths      the logs to follow
     * @param reader     parses the new lines (the same one imports use)
     * @param formats    chooses each file's format ({@code --format}); auto-detection decides on the lines there are
     * @param imported   where earlier progress is looked up, so following resumes where it stopped
     * @param sink       receives the hits with their positions (which it must store together, by compare-and-set:
     *                   a sink that refuses them makes the file be opened again at the position the store has)
     * @param afterBatch called after each batch of lines with its counts, to make them visible (a store flush)
     * @param notices    told, in one sentence, what happened to a file (appeared, rotated, unreadable)
     */
    public LogFollower(List<Path> paths, LogReader reader, FormatChooser formats, AgentFilter filter, ImportedSources imported,
                       SourceSink sink, Consumer<ParseCounts> afterBatch, Consumer<String> notices) {
        for (Path path : paths) {
            files.add(new Followed(path));
        }
        this.reader = reader;
        this.formats = formats;
        this.filter = filter;
        this.imported = imported;
        this.sink = sink;
        this.afterBatch = afterBatch;
        this.notices = notices;
    }

    /** Starts following on a thread of its own. */
    public synchronized void start() {
        thread = Threads.startDaemon("log-follower", this::run);
    }

    private void run() {
        try {
            do {
                pollOnce();
            } while (!stopped.await(POLL.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Looks at every followed file once and reads what was added. */
    public void pollOnce() {
        for (Followed file : files) {
            file.poll();
        }
    }

    /**
     * How one followed log is doing, for /metrics: when it last grew (its modification time until
     * this saw it grow; 0 before it was seen), how many bytes were written to it and not read yet,
     * and since when the reader has been behind (0 while it is at the end).
     */
    public record FollowStatus(String name, long lastGrowthMillis, long behindBytes, long behindSinceMillis) {
    }

    /** How each followed log is doing now; safe from any thread. */
    public List<FollowStatus> status() {
        List<FollowStatus> status = new ArrayList<>(files.size());
        for (Followed file : files) {
            status.add(new FollowStatus(file.name, file.lastGrowth, file.behind, file.behindSince));
        }
        return status;
    }

    /** Stops following: the poll in progress finishes, then every file is closed. */
    @Override
    public void close() {
        stopped.countDown();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        Threads.awaitEnd(t, Duration.ofSeconds(30));
        files.forEach(Followed::close);
    }

    /** One followed path: the file at it now, and files rotated away from it that are still being read. */
    private final class Followed {
        final Path path;
        final String name;
        Tail current;
        final List<Tail> draining = new ArrayList<>();
        final Set<String> said = new HashSet<>();
        boolean wasMissing;
        /** Whether rotated copies may hold lines not read yet: at the start, and after reading stopped on an error. */
        boolean catchUp = true;
        /** What {@link #status()} reports, written by the following thread. */
        volatile long lastGrowth;
        volatile long behind;
        volatile long behindSince;
        private long lastSize = -1;

        Followed(Path path) {
            this.path = path;
            this.name = path.toString();
        }

        void poll() {
            try {
                if (catchUp) {
                    catchUp = false;
                    catchUpRotatedCopies(this);
                }
                for (Iterator<Tail> it = draining.iterator(); it.hasNext(); ) {
                    Tail old = it.next();
                    boolean last = System.nanoTime() - old.drainUntil > 0;
                    readNew(old, last);
                    if (last) {
                        old.close();
                        it.remove();
                    }
                }
                if (current != null) {
                    checkRotation();
                }
                if (current == null) {
                    current = open();
                }
                if (current != null) {
                    grown(current.channel.size());
                    readNew(current, false);
                    caughtUp(current.channel.size() - current.position.bytes());
                }
                said.removeIf(s -> s.startsWith("error:"));
            } catch (IOException | RuntimeException e) {
                // the store is the truth: read on from what it recorded, once the trouble is over
                sayOnce("error:" + e.getMessage(), name + ": reading stopped (" + message(e) + "); trying again");
                close();
                catchUp = true;
            }
        }

        /** Notes the size of the file now: larger than last seen, it grew now. */
        private void grown(long size) {
            if (lastSize >= 0 && size > lastSize) {
                lastGrowth = System.currentTimeMillis();
            }
            lastSize = size;
        }

        /** Notes how much of the file is left to read after a poll read what it could. */
        private void caughtUp(long left) {
            long unread = Math.max(0, left);
            if (unread == 0) {
                behindSince = 0;
            } else if (behind == 0 || behindSince == 0) {
                behindSince = System.currentTimeMillis();
            }
            behind = unread;
        }

        private void checkRotation() throws IOException {
            BasicFileAttributes attributes = attributes(path);
            if (attributes == null || !Objects.equals(attributes.fileKey(), current.fileKey)) {
                readNew(current, false);
                current.drainUntil = System.nanoTime() + ROTATION_GRACE.toNanos();
                draining.add(current);
                current = null;
                wasMissing = true; // the new file may not be there yet; it is announced when it is
                notices.accept(name + " was rotated (renamed away); the old file is read to its end, the new one from its start");
            } else if (attributes.size() < current.position.bytes() || !current.fingerprint.matches(beginning(current.channel))) {
                notices.accept(name + " was truncated (copytruncate); reading it again from its start");
                current.close();
                current = null;
                catchUpRotatedCopies(this);
            }
        }

        private Tail open() throws IOException {
            BasicFileAttributes before = attributes(path);
            if (before == null) {
                if (!wasMissing && said.add("missing")) {
                    notices.accept(name + " does not exist yet; it is read from its start once it appears");
                }
                wasMissing = true;
                return null;
            }
            if (!before.isRegularFile()) {
                sayOnce("irregular", name + " is not a regular file; --follow reads log files");
                return null;
            }
            FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
            BasicFileAttributes after = attributes(path);
            if (after == null || !Objects.equals(before.fileKey(), after.fileKey())) {
                channel.close(); // rotated while opening; the next poll opens the new file
                return null;
            }
            byte[] beginning = beginning(channel);
            if (compressed(beginning)) {
                channel.close();
                sayOnce("compressed", name + " is compressed; --follow reads the live, plain log (import reads rotated ones)");
                return null;
            }
            ResumePoint resume;
            try {
                resume = ResumePoint.find(name, beginning, false, imported, position -> before(channel, position));
            } catch (IOException e) {
                channel.close();
                throw e;
            }
            if (resume == null) {
                channel.close(); // empty, or its first line is still being written
                return null;
            }
            said.remove("missing");
            if (resume.seenBefore()) {
                long linesBefore = resume.start().lines();
                notices.accept("following " + name + " from line " + Figures.grouped(linesBefore + 1) + " ("
                        + Figures.counted(linesBefore, "line") + (linesBefore == 1 ? " was" : " were") + " read before)");
            } else {
                notices.accept((wasMissing ? name + " appeared; reading it" : "following " + name) + " from its start");
            }
            wasMissing = false;
            lastGrowth = Math.max(lastGrowth, after.lastModifiedTime().toMillis());
            lastSize = -1;
            // a content shorter than what was read of it is read on once it grows past there, as before
            byte[] checked = resume.before() != null ? resume.before() : new byte[0];
            return new Tail(name, channel, after.fileKey(), resume.fingerprint(), resume.start(), new TailCheck(checked));
        }

        private void sayOnce(String key, String notice) {
            if (said.add(key)) {
                notices.accept(notice);
            }
        }

        void close() {
            if (current != null) {
                current.close();
                current = null;
            }
            draining.forEach(Tail::close);
            draining.clear();
        }
    }

    /**
     * Reads the complete lines added to {@code tail} since the last time; with {@code last}, the
     * unfinished line at its end too (the file will not grow any more).
     */
    private void readNew(Tail tail, boolean last) throws IOException {
        if (tail.parser == null && !chooseFormat(tail)) {
            return; // no format yet: its lines wait (an undetectable file is not read)
        }
        while (true) {
            long size = tail.channel.size();
            if (size <= tail.position.bytes()) {
                return;
            }
            int want = (int) Math.min(SLICE_BYTES, size - tail.position.bytes());
            ByteBuffer buffer = ByteBuffer.allocate(want);
            while (buffer.hasRemaining() && tail.channel.read(buffer, tail.position.bytes() + buffer.position()) > 0) {
                // positional reads: the channel's own position is never used
            }
            byte[] bytes = buffer.array();
            int n = buffer.position();
            int cut = LogReader.lastNewline(bytes, n) + 1;
            if (cut == 0) {
                if (!last && n < SLICE_BYTES) {
                    return; // an unfinished line waits for its newline
                }
                cut = n;
            }
            deliver(tail, new ByteArrayInputStream(bytes, 0, cut), cut);
            if (cut < n && !last) {
                return;
            }
        }
    }

    /**
     * Chooses the format of the file {@code tail} reads from its first lines as they are now, at
     * most as many as {@link FormatDetector} reads: a followed log that grows by a line a minute
     * must not wait for a thousand of them before its lines reach the report, so auto-detection
     * decides on what is there when a poll finds no more. When those lines are in no known format,
     * it is tried again once the file has grown, until it holds as many lines as detection reads;
     * then the file is left unread (its successor after rotation is detected afresh).
     *
     * @return whether the format is known
     */
    private boolean chooseFormat(Tail tail) throws IOException {
        if (tail.channel.size() <= tail.formatTriedBytes) {
            return false; // nothing new to decide from (or refused for good)
        }
        Head head = Head.read(tail.channel);
        if (head.length <= tail.formatTriedBytes) {
            return false; // only an unfinished line was added
        }
        try {
            FormatChooser.Choice choice = formats.choose(new ByteArrayInputStream(head.bytes, 0, head.length), tail.name);
            // a parser of its own: a sequential one keeps state (W3C's #Fields) for this file only
            tail.parser = choice.parser().copy();
            if (tail.parser.sequential()) {
                // the directives before where reading goes on; the stream is not closed, as that
                // would close the file's channel, which is read at explicit positions elsewhere
                tail.channel.position(0);
                LogReader.replayDirectives(Channels.newInputStream(tail.channel), tail.position.bytes(), tail.parser);
            }
            return true;
        } catch (UnrecognizedFormatException e) {
            tail.formatTriedBytes = head.full ? Long.MAX_VALUE : head.length;
            if (tail.formatRefusals++ == 0 || head.full) {
                notices.accept(tail.name + ": " + e.getMessage()
                        + (head.full ? "; it is not read" : "; tried again as it grows"));
            }
            return false;
        }
    }

    private void deliver(Tail tail, InputStream lines, long length) throws IOException {
        ParseCounts counts;
        try {
            // from where the store has the file: a read that handed nothing on (bad lines only) moved on without it
            counts = reader.read(lines, ReadRequest.of(tail.position, filter, (hits, from, through) -> {
                sink.accept(hits, tail.recorded, through);
                tail.recorded = through;
            }).withParser(tail.parser).withCheck(tail.check));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        tail.position = tail.position.advancedBy(length, counts.linesRead(), tail.check.value());
        afterBatch.accept(counts);
        for (BadLine bad : counts.firstBadLines()) {
            if (tail.badLinesShown++ < ParseCounts.KEPT_BAD_LINES) {
                notices.accept(bad.toString());
            }
        }
        counts.firstInOtherFormat().forEach((format, first) -> {
            if (tail.otherFormatsSaid.add(format)) {
                notices.accept(first.source() + " line " + Figures.grouped(first.lineNumber()) + " is in another format than the log's:"
                        + " read as " + format + ", as are the lines like it");
            }
        });
    }

    /**
     * Reads to their end the rotated copies of {@code file} (siblings named {@code access.log.1},
     * {@code access.log-20251102.gz}, ...) that were read only in part: what the server wrote
     * after the last poll before it rotated.
     */
    private void catchUpRotatedCopies(Followed file) {
        Path dir = file.path.toAbsolutePath().getParent();
        String base = file.path.getFileName().toString();
        List<Path> siblings;
        try (Stream<Path> list = Files.list(dir)) {
            siblings = list.filter(p -> {
                String n = p.getFileName().toString();
                return (n.startsWith(base + ".") || n.startsWith(base + "-")) && Files.isRegularFile(p);
            }).sorted(Comparator.comparing(p -> RotationOrder.of(p.getFileName().toString()), RotationOrder.OLDEST_FIRST)).toList();
        } catch (IOException e) {
            return;
        }
        for (Path sibling : siblings) {
            LogSource source = LogSource.file(sibling, sibling.toString());
            try {
                byte[] beginning = source.beginning(Fingerprint.PREFIX_BYTES).bytes();
                ResumePoint resume = ResumePoint.find(source.name(), beginning, true, imported, source::before);
                if (resume == null || !resume.seenBefore() || resume.shorterThanRecorded() || source.endsBy(resume.start().bytes())) {
                    continue;
                }
                ParseCounts counts = reader.readOn(source, ReadRequest.of(resume.start(), filter, sink).withResume(resume));
                afterBatch.accept(counts);
                counts.sourceErrors().forEach(notices);
                if (counts.linesRead() > 0) {
                    notices.accept(source.name() + ": read " + Figures.counted(counts.linesRead(), "line") + " written before it was rotated");
                }
            } catch (EOFException e) {
                // a compressed copy that ends before what was read of it: nothing to add
            } catch (Exception e) {
                notices.accept(source.name() + ": its last lines could not be read (" + message(e) + ")");
            }
        }
    }

    /** One open file, its format, and how far it has been read. */
    private static final class Tail {
        final String name;
        final FileChannel channel;
        final Object fileKey;
        final Fingerprint fingerprint;
        SourceProgress position;
        /** The position last handed to the sink (where the file was opened, at first): where the store has it. */
        SourceProgress recorded;
        /** The check of the bytes before {@link #position}, moved on as lines are read. */
        final TailCheck check;
        long drainUntil;
        int badLinesShown;
        /** The other formats this file's lines were read in that were said (once each: the log changed format). */
        final Set<String> otherFormatsSaid = new HashSet<>();
        /** This file's own parser; null until its format is chosen. */
        LineParser parser;
        /** The length of the beginning that was found in no known format (no use trying it again). */
        long formatTriedBytes;
        int formatRefusals;

        Tail(String name, FileChannel channel, Object fileKey, Fingerprint fingerprint, SourceProgress position, TailCheck check) {
            this.name = name;
            this.channel = channel;
            this.fileKey = fileKey;
            this.fingerprint = fingerprint;
            this.position = position;
            this.recorded = position;
            this.check = check;
        }

        void close() {
            try {
                channel.close();
            } catch (IOException e) {
                // closing a file opened for reading loses nothing
            }
        }
    }

    /**
     * The complete lines at the start of a file, as many as {@link FormatDetector} reads at most
     * ({@value FormatDetector#SAMPLE_LINES} lines or {@value FormatDetector#MAX_SAMPLE_BYTES} bytes).
     */
    private static final class Head {
        private static final int BLOCK = 64 * 1024;

        byte[] bytes = new byte[BLOCK];
        int length;
        /** Whether the file holds as many lines as detection reads: more lines would not change its mind. */
        boolean full;

        static Head read(FileChannel channel) throws IOException {
            Head head = new Head();
            int read = 0;
            int newlines = 0;
            while (newlines < FormatDetector.SAMPLE_LINES && read < FormatDetector.MAX_SAMPLE_BYTES) {
                if (read == head.bytes.length) {
                    head.bytes = Arrays.copyOf(head.bytes, Math.min(FormatDetector.MAX_SAMPLE_BYTES, 2 * head.bytes.length));
                }
                int n = channel.read(ByteBuffer.wrap(head.bytes, read, Math.min(BLOCK, head.bytes.length - read)), read);
                if (n <= 0) {
                    break;
                }
                for (int i = read; i < read + n; i++) {
                    if (head.bytes[i] == '\n') {
                        newlines++;
                    }
                }
                read += n;
            }
            head.full = newlines >= FormatDetector.SAMPLE_LINES || read >= FormatDetector.MAX_SAMPLE_BYTES;
            head.length = head.full && newlines == 0 ? read : LogReader.lastNewline(head.bytes, read) + 1;
            return head;
        }
    }

    private static BasicFileAttributes attributes(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            return null;
        }
    }

    /** The (at most {@value TailCheck#BYTES}) bytes before {@code position} in the file; null when it ends before. */
    private static byte[] before(FileChannel channel, long position) throws IOException {
        if (channel.size() < position) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(position, TailCheck.BYTES));
        long from = position - buffer.capacity();
        while (buffer.hasRemaining() && channel.read(buffer, from + buffer.position()) > 0) {
            // positional reads: the channel's own position is never used
        }
        return buffer.hasRemaining() ? null : buffer.array();
    }

    private static byte[] beginning(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(Fingerprint.PREFIX_BYTES);
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
            // fill what the file holds
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static boolean compressed(byte[] beginning) {
        try {
            return Compression.of(beginning, "") != Compression.NONE;
        } catch (IOException e) {
            return true; // bzip2, xz, zip
        }
    }

    private static String message(Exception e) {
        return Failures.message(e);
    }
}
