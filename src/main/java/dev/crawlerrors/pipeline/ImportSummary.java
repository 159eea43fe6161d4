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
import java.util.List;
import java.util.Map;

/** What an import did, as printed at its end. */
public final class ImportSummary {

    final ParseCounts lines = new ParseCounts();
    final Map<Verification, Long> verdicts = new EnumMap<>(Verification.class);
    long crawlerHits;
    long errorHits;
    long spoofedErrorHits;
    /** The claims still queued when the import ended, handed to serve. */
    CrawlerVerifier.PendingChecks pending = new CrawlerVerifier.PendingChecks(0, 0, List.of());
    /** Why the DNS resolver's answers were not believed, or null when they were (or none was asked). */
    String resolverProblem;
    long nanos;
    /** The IP lists the import read or could not read, one line each, as the verifier describes them. */
    List<String> lists = List.of();
    /** What was done with each log, in reading order. */
    final List<SourceOutcome> sources = new ArrayList<>();
    /** What the arguments named that was not read, and why (files skipped in a directory). */
    final List<String> notes = new ArrayList<>();

    /** The lines read, parsed and bad, with the first bad lines. */
    public ParseCounts lines() {
        return lines;
    }

    /** Error hits the report shows (spoofed ones excluded). */
    public long errorHits() {
        return errorHits;
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

    /**
     * Whether the import read anything: a line parsed, or a log found already imported. An import
     * that could read nothing (every log missing, empty or unreadable) did not succeed.
     */
    public boolean succeeded() {
        return lines.linesParsed() > 0 || sources.stream().anyMatch(s -> s.kind() == SourceOutcome.Kind.ALREADY_IMPORTED);
    }

    /** What was done with each log, one line each: new, grown (and by how much), already imported, empty. */
    public List<String> sourceLines() {
        return sources.stream().map(SourceOutcome::toString).toList();
    }

    public long linesPerSecond() {
        return nanos == 0 ? 0 : Math.round(lines.linesRead() * 1e9 / nanos);
    }

    public void print(PrintStream out) {
        out.println("Read " + Figures.counted(lines.linesRead(), "line") + " in " + Figures.fixed(nanos / 1e9, 2) + " s ("
                + grouped(linesPerSecond()) + " lines/s): " + grouped(lines.linesParsed()) + " parsed, "
                + grouped(lines.linesBad()) + " bad, " + grouped(lines.linesBlank()) + " blank.");
        out.println("Crawler hits stored: " + grouped(crawlerHits) + "; error hits (status >= 300) for the report: "
                + grouped(errorHits) + " (and " + grouped(spoofedErrorHits) + " from impostors, left out as spoofed).");
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
        if (resolverProblem != null) {
            out.println("Warning: " + ShownText.of(resolverProblem) + ".");
        }
        for (String list : lists) {
            out.println((list.contains("; stale: ") ? "Warning: IP list " : "IP list ") + ShownText.of(list) + ".");
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
        if (!sources.isEmpty()) {
            out.println(sources.size() == 1 ? "Log:" : "Logs (" + sources.size() + ", in the order read):");
            sources.forEach(source -> out.println("  " + ShownText.of(source.toString())));
        }
        for (String note : notes) {
            out.println("Note: " + ShownText.of(note) + ".");
        }
        for (String error : lines.sourceErrors()) {
            out.println("Source problem: " + error);
        }
    }
}
