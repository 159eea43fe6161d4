package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.text.Figures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code --format auto}: reads a source's first {@value #SAMPLE_LINES} lines, tries every format it
 * knows on them ({@link LogFormat#DETECTED}), picks the one that parses the most (the more
 * specific of two that tie), says which on the notices, and hands the source on with those
 * lines put back in front, so it works on standard input too. When more than half of the lines
 * parse in none of the formats, it gives up with a message that names the formats tried and how
 * to name the right one with {@code --format}: guessing would import garbage or nothing.
 *
 * <p>Sources that push lines (syslog, the log drain) cannot be stopped and read again with the
 * right {@code --format}, and a batch they push may be a single line: {@link #forLiveSources}
 * never gives up. It reads with the format that parsed the most, so the good lines among garbage
 * are kept, and when no line parses in any format each is counted as a bad line that says so. (A
 * followed log can be looked at again: {@link LogFollower} tries it again as it grows.)
 */
public final class FormatDetector implements FormatChooser {

    /** Lines read to decide: enough for a mixed start (a header, a few junk lines), few enough to be instant. */
    public static final int SAMPLE_LINES = 1000;
    /** Bytes read to decide at most, whatever the lines: the sample is held in memory. */
    public static final int MAX_SAMPLE_BYTES = 8 << 20;
    private static final int READ_BLOCK = 64 * 1024;
    /** The formats tried, for messages. */
    static final String TRIED = LogFormat.DETECTED.stream().map(LogFormat::label).collect(Collectors.joining(", "));

    private final Consumer<String> notices;
    private final boolean givesUp;

    /** A detector that gives up on a source whose lines are mostly in no format it knows (imports). */
    public FormatDetector(Consumer<String> notices) {
        this(notices, true);
    }

    private FormatDetector(Consumer<String> notices, boolean givesUp) {
        this.notices = notices;
        this.givesUp = givesUp;
    }

    /** A detector that never gives up: lines in no format it knows are read as bad lines. */
    public static FormatDetector forLiveSources(Consumer<String> notices) {
        return new FormatDetector(notices, false);
    }

    @Override
    public boolean detects() {
        return true;
    }

    @Override
    public Choice choose(InputStream in, String source) throws UnrecognizedFormatException {
        Sample sample = Sample.read(in);
        InputStream replay = sample.replay(in);
        int[] lines = sample.lines();
        int count = lines.length / 2;
        if (count == 0) {
            // nothing to decide from (an empty source): read it as the most common format
            return new Choice(LogFormat.COMBINED.parser(), replay);
        }
        boolean[] parsedByAny = new boolean[count];
        LineParser best = null;
        LogFormat bestFormat = null;
        int bestParsed = -1;
        int bestRank = Integer.MAX_VALUE;
        int bestAgents = 0;
        for (LogFormat format : trialOrder(sample, lines)) {
            LineParser parser = format.parser();
            int rank = LogFormat.DETECTED.indexOf(format);
            int parsed = 0;
            int agents = 0;
            for (int i = 0; i < count; i++) {
                try {
                    Hit hit = parser.parse(sample.bytes, lines[2 * i], lines[2 * i + 1], AgentFilter.ALL);
                    parsed++;
                    parsedByAny[i] = true;
                    if (hit != null && hit.userAgent() != null) {
                        agents++;
                    }
                } catch (BadLineException | RuntimeException e) {
                    // not this format
                    if (givesUp && (count - bestParsed) * 2 <= count && parsed + (count - 1 - i) < bestParsed) {
                        break; // it can no longer tie the best, and the lines no format parses cannot decide anything
                    }
                }
            }
            if (parsed > bestParsed || (parsed == bestParsed && rank < bestRank)) {
                best = parser;
                bestFormat = format;
                bestParsed = parsed;
                bestRank = rank;
                bestAgents = agents;
            }
        }
        int unparsed = 0;
        int firstUnparsed = -1;
        for (int i = count - 1; i >= 0; i--) {
            if (!parsedByAny[i]) {
                unparsed++;
                firstUnparsed = i;
            }
        }
        String lineWord = sample.complete ? "the first " + Figures.grouped(count) + " lines"
                : count == 1 ? "its only line" : "all " + Figures.grouped(count) + " lines";
        if (unparsed * 2 > count && (givesUp || bestParsed == 0)) {
            String which = count == 1 ? "its only line is" : Figures.grouped(unparsed) + " of " + lineWord + " are";
            String message = String.format(Locale.ROOT,
                    "the log format could not be detected: %s in none of the formats tried (%s); "
                            + "the first such is '%s'. Name the format with --format, e.g. "
                            + "--format 'nginx:<the log_format of your access_log>' or --format 'apache:<the LogFormat of your CustomLog>'",
                    which, TRIED, LogText.excerpt(sample.bytes, lines[2 * firstUnparsed], lines[2 * firstUnparsed + 1]));
            if (givesUp) {
                throw new UnrecognizedFormatException(message);
            }
            notices.accept(source + ": " + message);
            return new Choice(new UnknownFormatParser(), replay);
        }
        String notice = "format: " + best.describe() + "; auto-detected from " + lineWord + " of " + source + ", "
                + Figures.grouped(bestParsed) + " parsed";
        if (unparsed > 0 && !givesUp) {
            notice += " (" + Figures.grouped(unparsed) + " in no format: read as bad lines)";
        }
        if (bestAgents == 0) {
            notice += "; these lines carry no user agent, so no crawler can be identified in them and none will be stored"
                    + (best.describe().contains("Traefik")
                            ? " (Traefik drops headers unless told: accessLog.fields.headers.names.User-Agent=keep)" : "");
        }
        notices.accept(notice);
        return new Choice(FallbackLineParser.of(best, otherFormats(bestFormat)), replay);
    }

    /**
     * What a line of a log detected as {@code detected} is read in when that format rejects it: the
     * other detected formats that carry the user agent, in detection order ({@link FallbackLineParser}
     * says why those).
     */
    private static List<LineParser> otherFormats(LogFormat detected) {
        List<LineParser> others = new ArrayList<>();
        for (LogFormat format : LogFormat.DETECTED) {
            if (format != detected && format.carriesAgent()) {
                others.add(format.parser());
            }
        }
        return others;
    }

    /**
     * The formats in the order they are tried: those that parse the sample's first line first.
     * The order does not change the choice (the most lines parsed, then the more specific format),
     * but once a format has parsed most of the sample, the others stop at the line that shows they
     * cannot tie it. Parsing the whole sample with every format, most of the lines failing, made the
     * failures' paths hot in the parsers' profiles, and the JIT compiled them into the parse method
     * of every import: 53 KB of machine code for the combined parser's, 37 KB with this (JFR, a
     * 5,000,000-line import each).
     */
    private static List<LogFormat> trialOrder(Sample sample, int[] lines) {
        List<LogFormat> first = new ArrayList<>();
        List<LogFormat> then = new ArrayList<>();
        for (LogFormat format : LogFormat.DETECTED) {
            boolean parsesFirstLine;
            try {
                format.parser().parse(sample.bytes, lines[0], lines[1], AgentFilter.ALL);
                parsesFirstLine = true;
            } catch (BadLineException | RuntimeException e) {
                parsesFirstLine = false;
            }
            (parsesFirstLine ? first : then).add(format);
        }
        first.addAll(then);
        return first;
    }

    /** The first lines of a source, held to be parsed twice: once to decide, once for real. */
    private static final class Sample {
        byte[] bytes = new byte[READ_BLOCK];
        int length;
        /** Whether the sample stopped at its line limit rather than at the end of the source. */
        boolean complete;
        /** An error that ended reading early; the replay raises it after the sample, where it happened. */
        IOException error;

        static Sample read(InputStream in) {
            Sample sample = new Sample();
            int newlines = 0;
            try {
                while (newlines < SAMPLE_LINES && sample.length < MAX_SAMPLE_BYTES) {
                    if (sample.length == sample.bytes.length) {
                        sample.bytes = Arrays.copyOf(sample.bytes, Math.min(MAX_SAMPLE_BYTES, sample.bytes.length * 2));
                    }
                    int n = in.read(sample.bytes, sample.length, Math.min(READ_BLOCK, sample.bytes.length - sample.length));
                    if (n < 0) {
                        return sample;
                    }
                    newlines += newlines(sample.bytes, sample.length, sample.length + n);
                    sample.length += n;
                }
                sample.complete = true;
            } catch (IOException e) {
                sample.error = e;
            }
            return sample;
        }

        /**
         * The newlines in {@code b[from, to)}, found a line at a time with {@link ByteSearch#indexOf}, which the
         * parsers use anyway: a loop of its own over every byte ran only here, a few times, and cost a
         * C2 compilation on the stack (60 ms of compiler time) at the start of every import.
         */
        private static int newlines(byte[] b, int from, int to) {
            int count = 0;
            for (int at = ByteSearch.indexOf(b, from, to, (byte) '\n'); at >= 0; at = ByteSearch.indexOf(b, at + 1, to, (byte) '\n')) {
                count++;
            }
            return count;
        }

        /** Start and end offsets of the sample's non-blank lines, at most {@value #SAMPLE_LINES} of them. */
        int[] lines() {
            int[] bounds = new int[2 * SAMPLE_LINES];
            int n = 0;
            int start = 0;
            while (start < length && n < SAMPLE_LINES) {
                int nl = ByteSearch.indexOf(bytes, start, length, (byte) '\n');
                if (nl < 0) {
                    if (complete) {
                        break; // a line cut off by the sample's end; it is parsed for real on replay
                    }
                    nl = length;
                }
                int end = nl > start && bytes[nl - 1] == '\r' ? nl - 1 : nl;
                if (end > start && end - start <= LineParser.MAX_LINE_BYTES) {
                    bounds[2 * n] = start;
                    bounds[2 * n + 1] = end;
                    n++;
                }
                start = nl + 1;
            }
            return Arrays.copyOf(bounds, 2 * n);
        }

        /** The source from its first byte: the sample, then the rest (or the error that stopped the sample). */
        InputStream replay(InputStream rest) {
            InputStream head = new ByteArrayInputStream(bytes, 0, length);
            if (error != null) {
                IOException failure = error;
                return new SequenceInputStream(head, new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw failure;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        throw failure;
                    }
                });
            }
            return new SequenceInputStream(head, rest);
        }
    }
}
