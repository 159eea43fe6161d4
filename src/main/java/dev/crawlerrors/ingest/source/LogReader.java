package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.HitSink;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.SourceSink;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.ByteSearch;
import dev.crawlerrors.ingest.format.FallbackLineParser;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.FormatDetector;
import dev.crawlerrors.ingest.format.LineFindingParser;
import dev.crawlerrors.ingest.format.LineParser;
import dev.crawlerrors.ingest.format.LogText;
import dev.crawlerrors.ingest.format.UnrecognizedFormatException;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.Futures;
import dev.crawlerrors.text.Threads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.BooleanSupplier;

/**
 * Reads a log in newline-aligned chunks and parses the chunks on every core, delivering hits to
 * the sink in log order.
 *
 * <p>Design: the calling thread only reads bytes and finds the last newline of each chunk; the
 * workers split lines, parse, and filter agents, so parsing scales with cores while the order of
 * hits (and thus the order rows reach the store) stays the order of the log. At most
 * {@code 2 x threads} chunks are in flight, which bounds memory whatever the size of the log.
 * Line numbers are counted by the workers relative to their chunk and made absolute on delivery.
 * A {@link LineFindingParser} (the combined family) finds each line's end itself while it reads
 * the fields, which spares a pass over every byte; a line it cannot read that way is split and
 * parsed as any parser's.
 */
public final class LogReader implements AutoCloseable {

    static final int CHUNK_BYTES = 1 << 20;

    private final ExecutorService workers;
    private final int threads;
    private final FormatChooser formats;
    /** Each worker's own copy of the parser it last used. */
    private final ThreadLocal<ParserCopy> parsers = new ThreadLocal<>();
    /** The one worker of sequential formats, made when first needed. */
    private ExecutorService sequentialWorker;
    /**
     * Chunk buffers between reads: a fresh chunk array per read made an import of thousands of small
     * logs zero memory over and over, and the heap grew to hold it. At most what the reads in flight
     * need is kept.
     */
    private final ArrayBlockingQueue<byte[]> spareChunks;

    public LogReader(FormatChooser formats, int threads) {
        this.threads = Math.max(1, threads);
        this.workers = Executors.newFixedThreadPool(this.threads, Threads.daemons("log-parser"));
        this.formats = formats;
        this.spareChunks = new ArrayBlockingQueue<>(this.threads * 2 + 2);
    }

    /** A reader that parses on every available core. */
    public LogReader(FormatChooser formats) {
        this(formats, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Reads {@code in}, which starts at {@code reading.from()} in its log, to its end, handing each
     * chunk's hits to the sink with the positions the chunk starts and ends at. Bad lines are numbered
     * from the start of the log. A read error stops this source but keeps what was parsed before it;
     * it is recorded in the returned counts. A sink that throws {@link SourceSink.Stop} ends the read:
     * the counts returned are those of the chunks it took. The parser is the reading's, else the
     * format its chooser or the reader's own chooses.
     *
     * <p>Positions are handed on only once a line has parsed: a log read with the wrong format
     * yields none, so it is not taken for imported and can be read again with the right one.
     */
    public ParseCounts read(InputStream in, ReadRequest reading) throws Exception {
        Pass pass = new Pass(reading, reading.check(), NEVER, false);
        return reading.parser() != null ? read(in, reading.parser(), pass)
                : read(in, reading.formats() != null ? reading.formats() : formats, pass);
    }

    private ParseCounts read(InputStream in, FormatChooser formats, Pass reading) throws Exception {
        FormatChooser.Choice choice;
        try {
            choice = formats.choose(in, reading.from().name());
        } catch (UnrecognizedFormatException e) {
            ParseCounts none = new ParseCounts();
            none.sourceError(reading.from().name() + ": " + e.getMessage());
            return none;
        }
        LineParser parser = choice.parser();
        return read(choice.in(), parser.sequential() ? parser.copy() : parser, reading);
    }

    /**
     * How one read goes: what was asked, the check of the bytes before the positions it hands on
     * (null: none), and what it does with a last line without a newline ({@code leaveUnfinished} is
     * asked when the input ends in one: true leaves that line unread and the position before it, for
     * a later read). {@code inline} parses on the calling thread: a log of a few lines is parsed in
     * less time than handing it to a worker takes.
     */
    private record Pass(ReadRequest reading, TailCheck check, BooleanSupplier leaveUnfinished, boolean inline) {
        SourceProgress from() {
            return reading.from();
        }
    }

    /** The read itself. */
    private ParseCounts read(InputStream in, LineParser parser, Pass reading) throws Exception {
        SourceProgress from = reading.from();
        AgentFilter filter = reading.reading().filter();
        SourceSink sink = reading.reading().sink();
        ReadRequest.Counted counted = reading.reading().counted();
        ReadProgress progress = reading.reading().progress();
        BooleanSupplier leaveUnfinished = reading.leaveUnfinished;
        TailCheck check = reading.check;
        String source = from.name();
        ParseCounts total = new ParseCounts();
        // a sequential format gets one parser for the whole source and one worker, so chunks run in order
        LineParser shared = parser.sequential() ? parser : null;
        ExecutorService pool = reading.inline ? null : shared != null ? sequentialWorker() : workers;
        int maxInFlight = reading.inline ? 1 : shared != null ? 2 : threads * 2;
        ArrayDeque<Pending> inFlight = new ArrayDeque<>();
        // chunks whose hits were delivered, for the next chunks and reads: a fresh array per chunk
        // would spend the reader's time zeroing memory (hits hold strings, never the chunk)
        ArrayDeque<byte[]> spare = new ArrayDeque<>();
        byte[] buffer = chunkBuffer(spare);
        int filled = 0;
        long bufferStart = 0; // where buffer[0] is in the stream
        boolean skippingLongLine = false;
        SourceProgress handedOn = from; // where the sink has the log: where the last chunk it took ended
        String readError = null;
        DamagedLogException damage = null;
        try {
            while (true) {
                int n;
                try {
                    n = in.read(buffer, filled, buffer.length - filled);
                } catch (DamagedLogException e) {
                    damage = e;
                    n = -1;
                } catch (IOException e) {
                    readError = Failures.message(e);
                    n = -1;
                }
                if (n > 0) {
                    filled += n;
                    if (filled < buffer.length) {
                        continue;
                    }
                }
                boolean end = n < 0;
                if (filled == 0 && end) {
                    break;
                }
                int cut = lastNewline(buffer, filled) + 1;
                if (end && cut < filled) {
                    // the input ends in a line without a newline: the last line of a log that does
                    // not end in one, or the line being written into a live log, half of it on disk
                    if (skippingLongLine || !leaveUnfinished.getAsBoolean()) {
                        cut = filled;
                    } else {
                        total.leaveUnfinishedLine(filled - cut);
                        filled = cut;
                        if (cut == 0) {
                            break;
                        }
                    }
                }
                if (cut == 0) {
                    // a full chunk without a newline: one line longer than any access-log line
                    bufferStart += filled;
                    String checked = advance(check, buffer, filled);
                    if (!skippingLongLine) {
                        inFlight.add(new Pending(submit(pool, () -> Parsed.oversized(source)), bufferStart, null, checked));
                    }
                    skippingLongLine = true;
                    filled = 0;
                    continue;
                }
                int skip = 0;
                if (skippingLongLine) {
                    // the rest of the overlong line is the first line of this chunk, already counted
                    skip = firstNewline(buffer, cut) + 1;
                    skippingLongLine = false;
                }
                byte[] chunk = buffer;
                int start = skip;
                int to = cut;
                String checked = advance(check, chunk, cut);
                inFlight.add(new Pending(submit(pool, () -> parse(shared != null ? shared : threadCopy(parser), chunk, start, to, source, filter)),
                        bufferStart + cut, chunk, checked));
                bufferStart += cut;
                buffer = chunkBuffer(spare);
                filled -= cut;
                System.arraycopy(chunk, cut, buffer, 0, filled);
                while (inFlight.size() >= maxInFlight) {
                    handedOn = deliver(inFlight.poll(), total, from, handedOn, sink, counted, spare);
                    progress.advanced(total.linesRead());
                }
                if (end && filled == 0) {
                    break;
                }
            }
            while (!inFlight.isEmpty()) {
                handedOn = deliver(inFlight.poll(), total, from, handedOn, sink, counted, spare);
            }
            progress.advanced(total.linesRead());
            total.readAs(parser.describe());
            if (damage != null) {
                long lines = from.lines() + total.linesRead();
                total.sourceError(damage.getMessage() + (lines == 0 ? ": nothing of it could be read"
                        : ": its first " + Figures.counted(lines, "line") + " were read, the rest of it cannot be"));
            } else if (readError != null) {
                total.sourceError(source + ": reading stopped after line " + (from.lines() + total.linesRead()) + " (" + readError
                        + "); the lines before it were kept");
            }
            return total;
        } catch (SourceSink.Stop stop) {
            total.readAs(parser.describe());
            return total; // what the sink took; the rest of the log is read by whoever reads it next
        } finally {
            inFlight.forEach(p -> p.parsed.cancel(true));
            spare.forEach(spareChunks::offer);
            spareChunks.offer(buffer);
        }
    }

    /** A buffer for the next chunk: one this read used, else one an earlier read left, else a new one. */
    private byte[] chunkBuffer(ArrayDeque<byte[]> spare) {
        byte[] buffer = spare.poll();
        if (buffer == null) {
            buffer = spareChunks.poll();
        }
        return buffer != null ? buffer : new byte[CHUNK_BYTES];
    }

    /** Moves {@code check} on over {@code b[0, n)} and says what it is there; null without a check. */
    private static String advance(TailCheck check, byte[] b, int n) {
        if (check == null) {
            return null;
        }
        check.advance(b, 0, n);
        return check.value();
    }

    /** Parses on {@code pool}, or at once on this thread when there is none (an inline read). */
    private static Future<Parsed> submit(ExecutorService pool, java.util.concurrent.Callable<Parsed> parse) {
        if (pool != null) {
            return pool.submit(parse);
        }
        FutureTask<Parsed> now = new FutureTask<>(parse);
        now.run();
        return now;
    }

    /**
     * Reads {@code source} on to its end from {@code reading.from()}, or from where its {@linkplain
     * ReadRequest#resume() resume point} says, as {@link #read} does, with the state the lines before
     * there set ({@link #resumedParser}): an import of a log that grew, or a follower's rotated copy.
     * The positions it hands on carry the check of the bytes before them ({@link TailCheck}); a last
     * line without a newline is done with as {@link ReadRequest#unfinished()} says (a line left is counted
     * in {@link ParseCounts#unfinishedLineBytes()}). A stream is checked as it is skipped to there
     * ({@link LogSource#openAt(long, String, TailCheck)}). A {@linkplain LogSource#load() loaded}
     * source is parsed on the calling thread.
     *
     * @throws java.io.EOFException when a compressed log ends before the start
     * @throws OtherLogException when a stream turns out to be another log than the one the resume point took it for
     */
    public ParseCounts readOn(LogSource source, ReadRequest reading) throws Exception {
        ResumePoint resume = reading.resume();
        SourceProgress from = reading.from();
        byte[] before = resume != null ? resume.before()
                : from.bytes() == 0 ? new byte[0] : source.isStream() ? null : source.before(from.bytes());
        String unverified = resume != null ? resume.unverified() : null;
        BooleanSupplier leave = reading.unfinished() == UnfinishedLine.WAIT_WHILE_WRITTEN ? source::beingWritten : NEVER;
        LineParser resumed = resumedParser(source, from.bytes());
        TailCheck check = before == null ? new TailCheck() : new TailCheck(before);
        // a stream's bytes before the position are seen as it is skipped there
        boolean stream = source.isStream();
        try (InputStream in = source.openAt(from.bytes(), unverified, stream ? check : null)) {
            Pass pass = new Pass(reading, before != null || stream ? check : null, leave, source.loaded());
            return resumed == null ? read(in, formats, pass) : read(in, resumed, pass);
        }
    }

    /**
     * What a read does with a last line that has no newline when its input ends. A log being written
     * can end in half a line: read then, the half is stored cut short or counted bad, the position is
     * kept after it, and the next read starts in the middle of the line, which is lost.
     */
    public enum UnfinishedLine {
        /** Read it as a line: the input does not grow (standard input, a rotated copy). */
        READ,
        /**
         * Leave it, and the position before it, for the next read when the log is being written
         * ({@link LogSource#beingWritten()}); read it when the log ends that way for good.
         */
        WAIT_WHILE_WRITTEN
    }

    private static final BooleanSupplier NEVER = () -> false;

    /**
     * The parser to read {@code source} with from {@code position} on, when its format keeps state
     * that the lines before there set: a W3C log's {@code #Fields:} stands at its top, so a log that
     * grew since it was imported was read on with no fields known, and its format could not even be
     * detected from its new lines. Such a log's format is chosen from its first lines, and its
     * directive lines before {@code position} are fed to the parser, the last {@code #Fields:}
     * winning as it did when they were read. Null for any other log, whose format is chosen where
     * the reading starts, as for a new one (and for standard input, which cannot be read twice).
     */
    LineParser resumedParser(LogSource source, long position) throws IOException {
        if (position == 0 || source.path() == null) {
            return null;
        }
        byte[] first = source.beginning(1).bytes();
        if (first.length == 0 || first[0] != '#') {
            return null; // the formats with directives open with one; any other log pays one byte's read
        }
        byte[] head = source.beginning(FormatDetector.MAX_SAMPLE_BYTES).bytes();
        LineParser parser;
        try {
            parser = formats.choose(new ByteArrayInputStream(head, 0, lastNewline(head, head.length) + 1), source.name()).parser();
        } catch (UnrecognizedFormatException e) {
            return null; // chosen where the reading starts, which says what is wrong
        }
        if (!parser.sequential()) {
            return null;
        }
        parser = parser.copy();
        try (InputStream in = source.open()) {
            replayDirectives(in, position, parser);
        }
        return parser;
    }

    /** Feeds {@code parser} the lines that start with {@code #} in the first {@code position} bytes of {@code in}. */
    static void replayDirectives(InputStream in, long position, LineParser parser) throws IOException {
        byte[] buffer = new byte[CHUNK_BYTES];
        long remaining = position;
        int filled = 0;
        boolean skipping = false; // in a line longer than the buffer, which no directive is
        while (remaining > 0) {
            int n = in.read(buffer, filled, (int) Math.min(buffer.length - filled, remaining));
            if (n < 0) {
                return; // shorter than it was: the reading that follows says so
            }
            filled += n;
            remaining -= n;
            int start = 0;
            if (skipping) {
                int nl = ByteSearch.indexOf(buffer, 0, filled, (byte) '\n');
                start = nl < 0 ? filled : nl + 1;
                skipping = nl < 0;
            }
            int nl;
            while ((nl = ByteSearch.indexOf(buffer, start, filled, (byte) '\n')) >= 0) {
                if (buffer[start] == '#') {
                    int end = nl > start && buffer[nl - 1] == '\r' ? nl - 1 : nl;
                    try {
                        parser.parse(buffer, start, end, AgentFilter.ALL);
                    } catch (BadLineException | RuntimeException e) {
                        // counted when it was read
                    }
                }
                start = nl + 1;
            }
            if (start == 0 && filled == buffer.length) {
                skipping = true;
                filled = 0;
            } else {
                System.arraycopy(buffer, start, buffer, 0, filled - start);
                filled -= start;
            }
        }
    }

    /**
     * Hands a chunk's hits on, with the position the last chunk handed on ended at ({@code handedOn},
     * where the read started for the first), and counts it; returns the position handed on now.
     */
    private static SourceProgress deliver(Pending pending, ParseCounts total, SourceProgress from, SourceProgress handedOn, SourceSink sink,
            ReadRequest.Counted counted, ArrayDeque<byte[]> spare) throws Exception {
        // the chunk's array goes back for the next chunk once its lines are parsed
        Parsed parsed = Futures.get(pending.parsed);
        if (pending.chunk != null) {
            spare.push(pending.chunk);
        }
        // counted once the sink took the chunk: one it refused (SourceSink.Stop) was not read here
        SourceProgress through = handedOn;
        if (!parsed.hits.isEmpty() || total.linesParsed() + parsed.counts.linesParsed() > 0
                || total.linesDirective() + parsed.counts.linesDirective() > 0) {
            through = from.advancedBy(pending.endByte, total.linesRead() + parsed.counts.linesRead(), pending.check);
            sink.accept(parsed.hits, handedOn, through);
        }
        long lineBase = from.lines() + total.linesRead();
        total.add(parsed.counts, lineBase);
        counted.counted(parsed.counts, lineBase);
        return through;
    }

    /** This worker's copy of {@code parser}, made on first use (parsers keep per-line scratch state). */
    private LineParser threadCopy(LineParser parser) {
        ParserCopy copy = parsers.get();
        if (copy == null || copy.original != parser) {
            copy = new ParserCopy(parser, parser.copy());
            parsers.set(copy);
        }
        return copy.parser;
    }

    private synchronized ExecutorService sequentialWorker() {
        if (sequentialWorker == null) {
            sequentialWorker = Executors.newSingleThreadExecutor(Threads.daemons("log-parser"));
        }
        return sequentialWorker;
    }

    private static Parsed parse(LineParser reading, byte[] chunk, int from, int to, String source, AgentFilter filter) {
        ParseCounts counts = new ParseCounts();
        List<Hit> hits = new ArrayList<>();
        // a log whose format may change partway is read in its own format; the others are asked only for a bad line
        FallbackLineParser fallback = reading instanceof FallbackLineParser f ? f : null;
        LineParser parser = fallback != null ? fallback.primary() : reading;
        LineFindingParser finder = parser instanceof LineFindingParser f ? f : null;
        long line = 0;
        int start = from;
        while (start < to) {
            line++;
            if (finder != null && parsedFound(finder, chunk, start, to, filter, counts, hits)) {
                start = finder.lineEnd() + 1;
                continue;
            }
            int nl = ByteSearch.indexOf(chunk, start, to, (byte) '\n');
            if (nl < 0) {
                nl = to;
            }
            int end = nl;
            if (end > start && chunk[end - 1] == '\r') {
                end--;
            }
            if (end == start) {
                counts.countBlank();
            } else if (end - start > LineParser.MAX_LINE_BYTES) {
                counts.countBad(new BadLine(source, line, "too long",
                        "the line is " + (end - start) + " bytes long; access-log lines are at most " + LineParser.MAX_LINE_BYTES));
            } else {
                try {
                    Hit hit = parser.parse(chunk, start, end, filter);
                    if (hit != null) {
                        counts.countParsed(true);
                        hits.add(hit);
                    } else if (chunk[start] == '#') {
                        counts.countDirective(); // a W3C directive or comment: no request
                    } else {
                        counts.countParsed(false);
                    }
                } catch (BadLineException e) {
                    if (fallback == null) {
                        counts.countBad(new BadLine(source, line, e.reason(), e.getMessage()));
                    } else {
                        readInOtherFormat(fallback, chunk, start, end, filter, e, source, line, counts, hits);
                    }
                } catch (RuntimeException e) {
                    // a parser bug must not lose the good lines around it
                    counts.countBad(new BadLine(source, line, "unparseable", "the parser failed on this line: " + Failures.message(e)));
                }
            }
            start = nl + 1;
        }
        return new Parsed(hits, counts);
    }

    /**
     * Reads a line its log's format rejected in another format, or counts it as the bad line it is
     * (made only then: a bad line's message is escaped as it is made, and after a change of format
     * every line comes here). A method of its own, so the parse loop stays small for the lines that
     * parse.
     */
    private static void readInOtherFormat(FallbackLineParser fallback, byte[] chunk, int start, int end, AgentFilter filter,
            BadLineException rejected, String source, long line, ParseCounts counts, List<Hit> hits) {
        try {
            Hit hit = fallback.parseOther(chunk, start, end, filter, rejected);
            counts.countParsedInOtherFormat(hit != null, fallback.lastOtherFormat(), source, line);
            if (hit != null) {
                hits.add(hit);
            }
        } catch (BadLineException stillBad) {
            counts.countBad(new BadLine(source, line, rejected.reason(), rejected.getMessage()));
        }
    }

    /**
     * Parses the line at {@code start} with a parser that finds its end itself, and counts it,
     * when that worked and the line is one the reader would have handed the parser as it was: not
     * longer than {@link LineParser#MAX_LINE_BYTES}, and not a last line without a newline that ends in a
     * carriage return (the reader drops that one; the parser keeps a return that ends no line).
     * Otherwise, bad lines included, nothing is counted: the caller reads the line again as for
     * any parser, which gives the reason to report.
     */
    private static boolean parsedFound(LineFindingParser parser, byte[] chunk, int start, int to, AgentFilter filter,
            ParseCounts counts, List<Hit> hits) {
        Hit hit;
        try {
            hit = parser.parseLine(chunk, start, to, filter);
        } catch (BadLineException | RuntimeException e) {
            return false;
        }
        int end = parser.lineEnd();
        if (end - start > LineParser.MAX_LINE_BYTES || (end == to && chunk[end - 1] == '\r')) {
            return false;
        }
        counts.countParsed(hit != null);
        if (hit != null) {
            hits.add(hit);
        }
        return true;
    }

    /** The index of the last newline in {@code b[0, length)}, or -1. */
    static int lastNewline(byte[] b, int length) {
        return LogText.lastIndexOf(b, 0, length, (byte) '\n');
    }

    /** The index of the first newline in {@code b[0, length)}, or the last index when there is none. */
    private static int firstNewline(byte[] b, int length) {
        int at = ByteSearch.indexOf(b, 0, length, (byte) '\n');
        return at < 0 ? length - 1 : at;
    }

    @Override
    public synchronized void close() {
        workers.shutdownNow();
        if (sequentialWorker != null) {
            sequentialWorker.shutdownNow();
        }
    }

    private record ParserCopy(LineParser original, LineParser parser) {
    }

    /**
     * A chunk being parsed, where it ends in the stream, its bytes (null for an overlong line's), and
     * the check of the bytes before its end (null when the read keeps none).
     */
    private record Pending(Future<Parsed> parsed, long endByte, byte[] chunk, String check) {
    }

    private record Parsed(List<Hit> hits, ParseCounts counts) {

        static Parsed oversized(String source) {
            ParseCounts counts = new ParseCounts();
            counts.countBad(new BadLine(source, 1, "too long",
                    "the line is longer than " + CHUNK_BYTES + " bytes; access-log lines are at most " + LineParser.MAX_LINE_BYTES));
            return new Parsed(List.of(), counts);
        }
    }
}
