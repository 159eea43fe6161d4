package dev.crawlerrors.ingest;

import dev.crawlerrors.text.ShownText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What reading one or more sources came to: lines read, parsed and bad (by reason), with the
 * first {@value #KEPT_BAD_LINES} bad lines kept to show the user. Not thread-safe: each parser
 * thread counts into its own and the reader merges them in order.
 */
public final class ParseCounts {

    /** How many bad lines are kept verbatim; the rest are only counted. */
    public static final int KEPT_BAD_LINES = 20;

    private long linesRead;
    private long linesParsed;
    private long linesBlank;
    private long linesDirective;
    private long linesBad;
    private long hitsKept;
    private final Map<String, Long> badByReason = new TreeMap<>();
    private final List<BadLine> firstBadLines = new ArrayList<>();
    private final List<String> sourceErrors = new ArrayList<>();
    private long unfinishedLineBytes;
    /** Lines read in another format than their log's, by that format, and the first such line of each. */
    private final Map<String, Long> inOtherFormat = new LinkedHashMap<>();
    private final Map<String, OtherFormatLine> firstInOtherFormat = new LinkedHashMap<>();
    /** The format one source was read in, in words; null for counts of several sources, or when none was chosen. */
    private String format;

    public void countParsed(boolean kept) {
        linesRead++;
        linesParsed++;
        if (kept) {
            hitsKept++;
        }
    }

    /**
     * Counts a line its log's format rejected and {@code format} read ({@code FallbackLineParser}):
     * parsed, and kept apart to tell the user that the log changed format.
     */
    public void countParsedInOtherFormat(boolean kept, String format, String source, long lineNumber) {
        countParsed(kept);
        inOtherFormat.merge(format, 1L, Long::sum);
        firstInOtherFormat.putIfAbsent(format, new OtherFormatLine(source, lineNumber, format));
    }

    /**
     * Counts a line that is no request: a directive or comment of a format that has them (W3C's
     * {@code #Fields:}, {@code #Date:}, {@code #Software:}), read and counted apart from the requests.
     */
    public void countDirective() {
        linesRead++;
        linesDirective++;
    }

    public void countBlank() {
        linesRead++;
        linesBlank++;
    }

    public void countBad(BadLine line) {
        linesRead++;
        linesBad++;
        badByReason.merge(line.reason(), 1L, Long::sum);
        if (firstBadLines.size() < KEPT_BAD_LINES) {
            firstBadLines.add(line);
        }
    }

    /**
     * Records a source that could not be read or ended early, in one sentence, made safe to show
     * ({@link ShownText}): it names the file and may quote its first line.
     */
    public void sourceError(String message) {
        sourceErrors.add(ShownText.of(message));
    }

    /** Records a last line without a newline that was left for a later read, {@code bytes} long. */
    public void leaveUnfinishedLine(long bytes) {
        unfinishedLineBytes = bytes;
    }

    /** Adds {@code other}, whose bad-line numbers are relative to {@code firstLine}. */
    public void add(ParseCounts other, long lineBase) {
        linesRead += other.linesRead;
        linesParsed += other.linesParsed;
        linesBlank += other.linesBlank;
        linesDirective += other.linesDirective;
        linesBad += other.linesBad;
        hitsKept += other.hitsKept;
        other.badByReason.forEach((reason, n) -> badByReason.merge(reason, n, Long::sum));
        for (BadLine bad : other.firstBadLines) {
            if (firstBadLines.size() >= KEPT_BAD_LINES) {
                break;
            }
            firstBadLines.add(new BadLine(bad.source(), bad.lineNumber() + lineBase, bad.reason(), bad.message()));
        }
        sourceErrors.addAll(other.sourceErrors);
        unfinishedLineBytes += other.unfinishedLineBytes;
        other.inOtherFormat.forEach((format, n) -> inOtherFormat.merge(format, n, Long::sum));
        other.firstInOtherFormat.forEach((format, first) -> firstInOtherFormat.putIfAbsent(format,
                new OtherFormatLine(first.source(), first.lineNumber() + lineBase, format)));
    }

    /**
     * Takes back {@code part}, added before with the same {@code lineBase}: lines read that were not
     * kept after all (a store refused them as it committed, another writer having stored them). The
     * bad lines and other-format lines kept of it go; no later one takes their place.
     */
    public void withdraw(ParseCounts part, long lineBase) {
        linesRead -= part.linesRead;
        linesParsed -= part.linesParsed;
        linesBlank -= part.linesBlank;
        linesDirective -= part.linesDirective;
        linesBad -= part.linesBad;
        hitsKept -= part.hitsKept;
        part.badByReason.forEach((reason, n) -> {
            if (badByReason.merge(reason, -n, Long::sum) <= 0) {
                badByReason.remove(reason);
            }
        });
        for (BadLine bad : part.firstBadLines) {
            firstBadLines.remove(new BadLine(bad.source(), bad.lineNumber() + lineBase, bad.reason(), bad.message()));
        }
        part.inOtherFormat.forEach((format, n) -> {
            if (inOtherFormat.merge(format, -n, Long::sum) <= 0) {
                inOtherFormat.remove(format);
                firstInOtherFormat.remove(format);
            }
        });
        part.firstInOtherFormat.forEach((format, first) -> firstInOtherFormat.remove(format,
                new OtherFormatLine(first.source(), first.lineNumber() + lineBase, format)));
    }

    /** Merges the totals of another finished read (line numbers already absolute). */
    public void addAll(ParseCounts other) {
        add(other, 0);
    }

    public long linesRead() {
        return linesRead;
    }

    /** Requests parsed: lines in the log's format that are requests (directives and comments are not). */
    public long linesParsed() {
        return linesParsed;
    }

    /** Directive and comment lines ({@link #countDirective}). */
    public long linesDirective() {
        return linesDirective;
    }

    public long linesBlank() {
        return linesBlank;
    }

    public long linesBad() {
        return linesBad;
    }

    /** Lines whose agent the filter kept (crawler candidates). */
    public long hitsKept() {
        return hitsKept;
    }

    public Map<String, Long> badByReason() {
        return Collections.unmodifiableMap(badByReason);
    }

    public List<BadLine> firstBadLines() {
        return Collections.unmodifiableList(firstBadLines);
    }

    /**
     * The bytes of a last line that had no newline and was left unread because its log was being
     * written (see {@code LogReader.UnfinishedLine}); 0 when there was none.
     */
    public long unfinishedLineBytes() {
        return unfinishedLineBytes;
    }

    /** Lines read in another format than the one detected for their log, by format ({@code FallbackLineParser}). */
    public Map<String, Long> inOtherFormat() {
        return Collections.unmodifiableMap(inOtherFormat);
    }

    /** The first line read in each other format: where its log changed format. */
    public Map<String, OtherFormatLine> firstInOtherFormat() {
        return Collections.unmodifiableMap(firstInOtherFormat);
    }

    /** Records the format the source was read in ({@code LineParser.describe()}, once its lines were read). */
    public void readAs(String description) {
        format = description;
    }

    /** The format the source was read in, in words; null when none was chosen (its format could not be detected). */
    public String format() {
        return format;
    }

    /** Sources that could not be opened or ended early, one sentence each. */
    public List<String> sourceErrors() {
        return Collections.unmodifiableList(sourceErrors);
    }
}
