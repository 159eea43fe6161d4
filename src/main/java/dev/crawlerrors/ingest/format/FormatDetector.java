package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.text.Figures;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

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
 * followed log can be looked at again: {@code LogFollower} tries it again as it grows.)
 */
public final class FormatDetector implements FormatChooser {

    /** Lines read to decide: enough for a mixed start (a header, a few junk lines), few enough to be instant. */
    public static final int SAMPLE_LINES = 1000;
    /** Bytes read to decide at most, whatever the lines: the sample is held in memory. */
    public static final int MAX_SAMPLE_BYTES = 8 << 20;

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
        LogHead sample = LogHead.read(in, SAMPLE_LINES, MAX_SAMPLE_BYTES);
        InputStream replay = sample.replay(in);
        int[] lines = sample.lines(SAMPLE_LINES);
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
        for (LogFormat format : trialOrder(sample.bytes, lines)) {
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
                    which, LogFormat.TRIED, LogText.excerpt(sample.bytes, lines[2 * firstUnparsed], lines[2 * firstUnparsed + 1]));
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
        return new Choice(FallbackLineParser.of(best, otherFormats(bestFormat)), replay, bestFormat);
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
     * cannot tie it. Parsing the whole sample with every format, most of the lines failing, taught
     * the compiler that failing is common, and every import's parse method came out larger.
     */
    private static List<LogFormat> trialOrder(byte[] sample, int[] lines) {
        List<LogFormat> first = new ArrayList<>();
        List<LogFormat> then = new ArrayList<>();
        for (LogFormat format : LogFormat.DETECTED) {
            boolean parsesFirstLine;
            try {
                format.parser().parse(sample, lines[0], lines[1], AgentFilter.ALL);
                parsesFirstLine = true;
            } catch (BadLineException | RuntimeException e) {
                parsesFirstLine = false;
            }
            (parsesFirstLine ? first : then).add(format);
        }
        first.addAll(then);
        return first;
    }
}
