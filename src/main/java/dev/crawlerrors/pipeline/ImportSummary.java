package dev.crawlerrors.pipeline;

import static dev.crawlerrors.text.Figures.grouped;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.OtherFormatLine;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an import did, as printed at its end: the lines and hits, then the logs, counted by outcome
 * and format (one line for 5,000 files read alike), each problem on a line of its own, and with
 * {@code --verbose} a line for each log.
 */
public final class ImportSummary {

    final ParseCounts lines = new ParseCounts();
    final Map<Verification, Long> verdicts = new EnumMap<>(Verification.class);
    long crawlerHits;
    /** Error hits the report shows by default: not spoofed, and of a bot type it shows ({@code BotType#shownByDefault}). */
    long errorHits;
    /** Error hits of monitors and scanners, which the report leaves out unless asked ({@code bot=all}). */
    long hiddenErrorHits;
    long spoofedErrorHits;
    /** The claims still queued when the import ended, handed to serve. */
    CrawlerVerifier.PendingChecks pending = new CrawlerVerifier.PendingChecks(0, 0, List.of());
    /** Signatures checked beside the reader, and those still pending when the import ended, handed to serve. */
    long signaturesChecked;
    long signaturesPending;
    /** When the import left its signatures' checks to serve, having more than it checks at its end: that many; else 0. */
    int signaturesLeftToServe;
    /** Why the DNS resolver's answers were not believed, or null when they were (or none was asked). */
    String resolverProblem;
    long nanos;
    /** The IP lists the import read or could not read, one line each, as the verifier describes them. */
    List<String> lists = List.of();
    /** The Web Bot Auth key directories this import read or could not read, one line each. */
    List<String> directories = List.of();
    /** What the arguments named that was not read, and why (files skipped in a directory). */
    final List<String> notes = new ArrayList<>();
    /** Why the store failed to take what was read, in one sentence; null when it did not. */
    String storeFailure;
    /** When the store failed: the crawler hits of this import that it holds, or -1 when it could not say. */
    long storedHits = -1;
    /** The logs, counted by what was done with them and the format they were read in (in the order first met). */
    private final Map<String, Group> groups = new LinkedHashMap<>();
    /** Lines of the logs read that another writer stored while this import read them. */
    private long otherWriterLines;
    /** Logs whose last line was left for the next import. */
    private final List<SourceOutcome> waiting = new ArrayList<>();
    /** Each log's outcome, in reading order, when a line per log is asked for; else null. */
    private final List<SourceOutcome> eachLog;
    private long logs;

    ImportSummary(boolean eachLog) {
        this.eachLog = eachLog ? new ArrayList<>() : null;
    }

    /** Counts what was done with one log. */
    void add(SourceOutcome outcome) {
        logs++;
        otherWriterLines += outcome.otherWriterLines();
        groups.computeIfAbsent(groupKey(outcome), k -> new Group(outcome.read() ? outcome.format() : null, outcome.kind())).add(outcome);
        if (outcome.waitingBytes() > 0) {
            waiting.add(outcome);
        }
        if (eachLog != null) {
            eachLog.add(outcome);
        }
    }

    /**
     * Counts a log again as {@code now} says, once its last lines were refused at the commit and it
     * was read on: in place of {@code was}, what was said of it before.
     */
    void amend(SourceOutcome was, SourceOutcome now) {
        otherWriterLines += now.otherWriterLines() - was.otherWriterLines();
        Group before = groups.get(groupKey(was));
        if (before != null && before.remove(was)) {
            groups.remove(groupKey(was));
        }
        groups.computeIfAbsent(groupKey(now), k -> new Group(now.read() ? now.format() : null, now.kind())).add(now);
        waiting.remove(was);
        if (now.waitingBytes() > 0) {
            waiting.add(now);
        }
        if (eachLog != null) {
            int at = eachLog.indexOf(was);
            if (at >= 0) {
                eachLog.set(at, now);
            } else {
                eachLog.add(now);
            }
        }
    }

    private static String groupKey(SourceOutcome outcome) {
        return outcome.read() ? "read:" + outcome.format() : outcome.kind().name();
    }

    /** Lines of the logs read that another writer (an import of the same log, serve --follow) stored while this import read them. */
    public long otherWriterLines() {
        return otherWriterLines;
    }

    /** Records a named source that could not be read, in one sentence that names it. */
    void problem(String message) {
        lines.sourceError(message);
    }

    /** The lines read, parsed and bad, with the first bad lines. */
    public ParseCounts lines() {
        return lines;
    }

    /** Error hits the report shows by default: spoofed ones, and monitors' and scanners', left out. */
    public long errorHits() {
        return errorHits;
    }

    /** Error hits of monitors and scanners, which the report shows with {@code bot=all} (spoofed ones left out). */
    public long hiddenErrorHits() {
        return hiddenErrorHits;
    }

    /** Crawler hits by the verdict their address had at the end of the import. */
    public Map<Verification, Long> verdicts() {
        return verdicts;
    }

    public long crawlerHits() {
        return crawlerHits;
    }

    /** The claims still queued when the import ended (their hits keep a provisional verdict). */
    public CrawlerVerifier.PendingChecks pending() {
        return pending;
    }

    /** Why the DNS resolver's answers were not believed; empty when they were, or none was asked. */
    public java.util.Optional<String> resolverProblem() {
        return java.util.Optional.ofNullable(resolverProblem);
    }

    /** The IP lists this import read or could not read, one line each. */
    public List<String> describeLists() {
        return lists;
    }

    /** The sources named that could not be read (missing, not allowed, damaged, in no known format), one sentence each. */
    public List<String> problems() {
        return lines.sourceErrors();
    }

    /** Why the store could not take what was read, or null when it took all of it. */
    public String storeFailure() {
        return storeFailure;
    }

    /**
     * Whether the import did all it was asked: every log named was read (or found imported before, or
     * empty) and the store holds what was read of them. A log that could not be read, a glob that
     * matches nothing, or a store that failed is a failure, so that cron notices.
     */
    public boolean succeeded() {
        return storeFailure == null && lines.sourceErrors().isEmpty();
    }

    /** What was done with each log, in reading order (kept only when asked for a line per log). */
    List<SourceOutcome> outcomes() {
        return eachLog == null ? List.of() : eachLog;
    }

    /** What was done with each log, one line each (kept only when asked for a line per log). */
    public List<String> sourceLines() {
        return eachLog == null ? List.of() : eachLog.stream().map(SourceOutcome::toString).toList();
    }

    public long linesPerSecond() {
        return nanos == 0 ? 0 : Math.round(lines.linesRead() * 1e9 / nanos);
    }

    public void print(PrintStream out) {
        out.println("Read " + Figures.counted(lines.linesRead(), "line") + " in " + Figures.fixed(nanos / 1e9, 2) + " s ("
                + grouped(linesPerSecond()) + " lines/s): " + grouped(lines.linesParsed()) + " parsed, "
                + (lines.linesDirective() > 0 ? grouped(lines.linesDirective()) + " directive and comment lines, " : "")
                + grouped(lines.linesBad()) + " bad, " + grouped(lines.linesBlank()) + " blank.");
        if (storeFailure == null) {
            // the report's own number, and the one with what it leaves out named beside it
            out.println("Crawler hits stored: " + grouped(crawlerHits) + "; error hits (status >= 300) for the report: "
                    + grouped(errorHits) + (hiddenErrorHits > 0 ? "; with monitors and scanners: " + grouped(errorHits + hiddenErrorHits) : "")
                    + " (and " + grouped(spoofedErrorHits) + " from impostors, left out as spoofed).");
        } else {
            out.println("Crawler hits read: " + grouped(crawlerHits) + "; stored before the store failed: "
                    + (storedHits < 0 ? "unknown (the store could not be asked)" : grouped(storedHits)) + ".");
        }
        if (otherWriterLines > 0) {
            out.println("Lines already stored by another writer at the same time (another import of the same log, or serve --follow"
                    + " of it): " + grouped(otherWriterLines) + "; each line is stored once, and this import read on after them.");
        }
        if (!verdicts.isEmpty()) {
            StringBuilder sb = new StringBuilder("Verdicts:");
            verdicts.forEach((v, n) -> sb.append(' ').append(v).append(' ').append(grouped(n)));
            out.println(sb);
        }
        if (pending.total() > 0) {
            StringBuilder sb = new StringBuilder("Verification still pending for ").append(grouped(pending.total()))
                    .append(pending.total() == 1 ? " crawler address" : " crawler addresses")
                    .append(" (");
            if (pending.forLists() > 0) {
                sb.append(grouped(pending.forLists())).append(" waiting for IP lists still being read")
                        .append(pending.loading().isEmpty() ? "" : ": " + String.join(", ", pending.loading()))
                        .append(pending.forDns() > 0 ? "; " : "");
            }
            if (pending.forDns() > 0) {
                sb.append(grouped(pending.forDns())).append(" waiting for DNS");
            }
            out.println(sb.append("); their hits keep a provisional verdict until serve checks them again."));
        }
        if (signaturesLeftToServe > 0) {
            out.println("Signatures pending: " + grouped(signaturesPending) + ", more than the " + grouped(signaturesLeftToServe)
                    + " an import checks at its end; their hits unverified until serve checks them in the background.");
        } else if (signaturesChecked + signaturesPending > 0) {
            out.println("Signatures checked: " + grouped(signaturesChecked)
                    + (signaturesPending == 0 ? "." : "; still pending: " + grouped(signaturesPending)
                            + ", their hits unverified until serve checks them."));
        }
        if (resolverProblem != null) {
            out.println("Warning: " + ShownText.of(resolverProblem) + ".");
        }
        for (String list : lists) {
            out.println((list.contains("; stale: ") ? "Warning: IP list " : "IP list ") + ShownText.of(list) + ".");
        }
        for (String directory : directories) {
            out.println((directory.contains(": not read (") ? "Warning: " : "") + ShownText.of(directory) + ".");
        }
        if (lines.linesBad() > 0) {
            StringBuilder sb = new StringBuilder("Bad lines by reason:");
            lines.badByReason().forEach((reason, n) -> sb.append(' ').append(reason).append(' ').append(grouped(n)).append(';'));
            out.println(sb.substring(0, sb.length() - 1));
            List<BadLine> first = lines.firstBadLines();
            out.println("First " + first.size() + " bad lines:");
            first.forEach(bad -> out.println("  " + bad));
        }
        lines.inOtherFormat().forEach((format, n) -> {
            OtherFormatLine first = lines.firstInOtherFormat().get(format);
            out.println("Lines in another format than their log's, read in it: " + Figures.counted(n, "line") + " as " + format
                    + " (the first: " + first.source() + " line " + grouped(first.lineNumber()) + ").");
        });
        printLogs(out);
        for (String note : notes) {
            out.println("Note: " + ShownText.of(note) + ".");
        }
        for (String error : lines.sourceErrors()) {
            out.println("Source problem: " + error);
        }
        if (storeFailure != null) {
            out.println("The store failed: " + ShownText.of(storeFailure) + ". What it stored before stays stored;"
                    + " run the same import again and it goes on from there.");
        }
    }

    private void printLogs(PrintStream out) {
        if (eachLog != null) {
            if (!eachLog.isEmpty()) {
                out.println(eachLog.size() == 1 ? "Log:" : "Logs (" + grouped(eachLog.size()) + ", in the order read):");
                eachLog.forEach(source -> out.println("  " + ShownText.of(source.toString())));
            }
            return;
        }
        if (groups.size() == 1) {
            out.println("Logs: " + ShownText.of(groups.values().iterator().next().toString()) + ".");
        } else if (!groups.isEmpty()) {
            out.println("Logs (" + grouped(logs) + "):");
            groups.values().forEach(group -> out.println("  " + ShownText.of(group.toString())));
        }
        for (SourceOutcome log : waiting) {
            out.println("  " + ShownText.of(log.name() + ": " + log.waitingNote()));
        }
    }

    /** Logs with one outcome, or read in one format: how many, and the lines read of them. */
    private static final class Group {
        private final String format;
        private final SourceOutcome.Kind kind;
        private long files;
        private long added;
        private long grown;
        private long lines;
        private long parsed;

        Group(String format, SourceOutcome.Kind kind) {
            this.format = format;
            this.kind = kind;
        }

        void add(SourceOutcome outcome) {
            files++;
            lines += outcome.lines();
            parsed += outcome.parsed();
            if (outcome.kind() == SourceOutcome.Kind.NEW) {
                added++;
            } else if (outcome.kind() == SourceOutcome.Kind.GROWN) {
                grown++;
            }
        }

        /** Takes back what {@link #add} counted of {@code outcome}; true when no file is left. */
        boolean remove(SourceOutcome outcome) {
            files--;
            lines -= outcome.lines();
            parsed -= outcome.parsed();
            if (outcome.kind() == SourceOutcome.Kind.NEW) {
                added--;
            } else if (outcome.kind() == SourceOutcome.Kind.GROWN) {
                grown--;
            }
            return files == 0;
        }

        @Override
        public String toString() {
            String counted = Figures.counted(files, "file");
            return switch (kind) {
                case NEW, GROWN -> counted + ", " + (format == null ? "format unknown" : format) + ": "
                        + (added > 0 ? grouped(added) + " new, " : "") + (grown > 0 ? grouped(grown) + " grown, " : "")
                        + Figures.counted(lines, "line") + (lines > 0 && parsed == 0 ? " (none parsed: are they access logs in this format?)" : "");
                case ALREADY_IMPORTED -> counted + " already imported, nothing new";
                case UNCHANGED -> counted + " unchanged since imported, not opened";
                case EMPTY -> counted + " empty, nothing to import";
            };
        }
    }
}
