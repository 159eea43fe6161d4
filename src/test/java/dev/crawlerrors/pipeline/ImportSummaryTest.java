package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.BadLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What an import says when it ends: the lines read and what became of them, the hits stored (only
 * once stored), what is still pending and why, and what the log carried, escaped.
 */
class ImportSummaryTest {

    private static List<String> printed(ImportSummary summary) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        summary.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static ImportSummary read(int parsed) {
        ImportSummary summary = new ImportSummary(false);
        for (int i = 0; i < parsed; i++) {
            summary.lines.countParsed(true);
        }
        summary.nanos = 2_000_000_000L;
        return summary;
    }

    @Test
    void aCleanImportSaysItsLinesHitsAndVerdicts() {
        ImportSummary summary = read(1_500);
        summary.crawlerHits = 1_200;
        summary.errorHits = 300;
        summary.hiddenErrorHits = 20;
        summary.spoofedErrorHits = 7;
        summary.verdicts.put(Verification.verified, 1_150L);
        summary.verdicts.put(Verification.spoofed, 50L);

        assertThat(summary.succeeded()).isTrue();
        assertThat(printed(summary)).containsExactly(
                "Read 1,500 lines in 2.00 s (750 lines/s): 1,500 parsed, 0 bad, 0 blank.",
                "Crawler hits stored: 1,200; error hits (status >= 300) for the report: 300; with monitors and scanners: 320"
                        + " (and 7 from impostors, left out as spoofed).",
                "Verdicts: verified 1,150 spoofed 50");
    }

    @Test
    void aStoreThatFailedIsNotCountedAsStored() {
        ImportSummary summary = read(10);
        summary.crawlerHits = 10;
        summary.storeFailure = "the disk is full";
        summary.storedHits = 4;

        assertThat(summary.succeeded()).isFalse();
        List<String> lines = printed(summary);
        assertThat(lines).noneMatch(line -> line.startsWith("Crawler hits stored"));
        assertThat(lines).contains("Crawler hits read: 10; stored before the store failed: 4.")
                .last().asString().startsWith("The store failed: the disk is full. What it stored before stays stored;");
    }

    @Test
    void whatIsStillPendingIsSaidWithWhy() {
        ImportSummary summary = read(5);
        summary.pending = new CrawlerVerifier.PendingChecks(2, 3, List.of("googlebot.json"));
        summary.signaturesChecked = 960;
        summary.signaturesPending = 40;

        assertThat(printed(summary)).contains(
                "Verification still pending for 5 crawler addresses (2 waiting for IP lists still being read: googlebot.json;"
                        + " 3 waiting for DNS); their hits keep a provisional verdict until serve checks them again.",
                "Signatures checked: 960; still pending: 40, their hits unverified until serve checks them.");
    }

    @Test
    void signaturesLeftToServeAreSaidWithWhy() {
        ImportSummary summary = read(5);
        summary.signaturesPending = 50_000;
        summary.signaturesLeftToServe = 1_000;

        assertThat(printed(summary)).contains("Signatures pending: 50,000, more than the 1,000 an import checks at its end;"
                + " their hits unverified until serve checks them in the background.")
                .noneMatch(line -> line.startsWith("Signatures checked"));
    }

    @Test
    void badLinesAreCountedByReasonWithTheirNumbersAndWhatALogCarriedIsEscaped() {
        ImportSummary summary = read(3);
        summary.lines.countBad(new BadLine("access.log", 7, "unparseable", "no request in \u001b[31mred"));
        summary.lines.countBad(new BadLine("access.log", 9, "unparseable", "no status"));
        summary.notes.add("skipped \u001b]0;title\u0007 in logs/");
        summary.resolverProblem = "the resolver answered for a name it was not asked";

        List<String> lines = printed(summary);
        assertThat(lines).contains("Bad lines by reason: unparseable 2", "First 2 bad lines:",
                "Warning: the resolver answered for a name it was not asked.");
        assertThat(lines).anyMatch(line -> line.startsWith("  access.log line 7: "))
                .anyMatch(line -> line.equals("  access.log line 9: no status"))
                .anyMatch(line -> line.startsWith("Note: skipped "));
        assertThat(String.join("\n", lines)).doesNotContain("\u001b").doesNotContain("\u0007");
    }
}
