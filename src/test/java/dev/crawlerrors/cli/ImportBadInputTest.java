package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An import of a log holding each kind of bad input among good lines, through the command as users run it. */
class ImportBadInputTest {

    private static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    @TempDir
    Path dir;

    /** A verified Googlebot 404 for {@code path} at {@code time} (on 14 May 2025, +0200), as nginx writes it. */
    private static String googlebot(String time, String path, String agent) {
        return "66.249.66.1 - - [14/May/2025:" + time + " +0200] \"GET " + path + " HTTP/1.1\" 404 0 \"-\" \"" + agent + "\" 0.012\n";
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsEveryGoodLineAmongEachKindOfBadInputAndCountsTheBadOnesByReasonWithTheirLineNumbers() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        log.writeBytes(bytes(googlebot("09:31:02", "/a", GOOGLEBOT)));
        // 2: cut short in its request, as a line the writer never finished
        log.writeBytes(bytes("66.249.66.1 - - [14/May/2025:09:31:03 +0200] \"GET /cut-sh\n"));
        // 3: binary garbage with NUL bytes
        log.writeBytes(new byte[] {0, 1, 2, (byte) 0xff, (byte) 0xfe, 'x', '\n'});
        // 4: a good line whose agent ends in bytes that are not UTF-8
        log.writeBytes(bytes("66.249.66.1 - - [14/May/2025:09:31:04 +0200] \"GET /b HTTP/1.1\" 404 0 \"-\" \"" + GOOGLEBOT + " "));
        log.writeBytes(new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xff});
        log.writeBytes(bytes("\" 0.012\n"));
        // 5: a line of 70 KiB, longer than any access-log line
        log.writeBytes(bytes(googlebot("09:31:05", "/" + "x".repeat(70 * 1024), GOOGLEBOT)));
        // 6: the clock went back an hour; 7: and on
        log.writeBytes(bytes(googlebot("08:31:06", "/c", GOOGLEBOT)));
        log.writeBytes(bytes(googlebot("09:31:07", "/d", GOOGLEBOT)));
        Path access = Files.write(dir.resolve("access.log"), log.toByteArray());
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.importing(dir, db, access.toString());

        assertThat(run.exit()).isZero();
        String summary = run.out();
        assertThat(summary).contains("Read 7 lines in", "4 parsed, 3 bad, 0 blank.",
                "Crawler hits stored: 4; error hits (status >= 300) for the report: 4",
                "Verdicts: verified 4",
                "Bad lines by reason: no client address 1; too long 1; truncated 1\n",
                "First 3 bad lines:\n  " + access + " line 2: ");
        assertThat(summary).containsSubsequence("\n  " + access + " line 2: ", "\n  " + access + " line 3: ", "\n  " + access + " line 5: ");
        assertThat(summary).containsPattern(access + " line 5: the line is 71\\d{3} bytes long; access-log lines are at most 65536");

        List<StoredHit> rows = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            store.reader().forEach(HitFilter.ERRORS, rows::add);
        }
        // stored in time order, the hit from before the clock went back first
        assertThat(rows.stream().sorted(Comparator.comparingLong(StoredHit::id)).map(StoredHit::url)).containsExactly("/c", "/a", "/b", "/d");
        StoredHit undecodable = rows.stream().filter(row -> row.url().equals("/b")).findFirst().orElseThrow();
        assertThat(undecodable.userAgent()).isEqualTo(GOOGLEBOT + " \uFFFD(\uFFFD");
        assertThat(undecodable.crawler()).startsWith("Googlebot");
        assertThat(undecodable.verification()).isEqualTo("verified");
    }

    @Test
    void aJsonTimeBeyondTheYear9999IsABadLineAndNothingIsStoredIn1969() throws Exception {
        String request = ",\"request\":{\"remote_ip\":\"66.249.66.1\",\"method\":\"GET\",\"uri\":\"/%s\","
                + "\"headers\":{\"User-Agent\":[\"" + GOOGLEBOT + "\"]}},\"status\":404}\n";
        Path access = Files.writeString(dir.resolve("caddy.log"), "{\"ts\":1747207862.5" + request.formatted("good")
                + "{\"ts\":1e300" + request.formatted("far") + "{\"ts\":-1747207862" + request.formatted("before"));
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.importing(dir, db, "--format", "json", access.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Read 3 lines in", "1 parsed, 2 bad, 0 blank.", "Bad lines by reason: bad time 2\n",
                access + " line 2: '1e300' (ts) is not a time in the years 1 to 9999");
        List<StoredHit> rows = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            store.reader().forEach(HitFilter.ERRORS, rows::add);
        }
        assertThat(rows).extracting(StoredHit::url).containsExactly("/good");
        assertThat(rows.get(0).epochMillis()).isEqualTo(1_747_207_862_500L);
    }

    @Test
    void aClientAddressTheAddressLibraryReadsAsARangeEndsNothingAndIsABadLine() throws Exception {
        // '-6.249.66.3' once passed the parser's look at an address; the library read it as the range 0-6.249.66.3, the lists'
        // lookup threw, and the import ended there with exit 1. An address field now takes only addresses: a bad line.
        Path access = Files.writeString(dir.resolve("access.log"), googlebot("09:31:02", "/a", GOOGLEBOT).replace("66.249.66.1", "-6.249.66.3")
                + googlebot("09:31:03", "/b", GOOGLEBOT));
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.importing(dir, db, access.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("1 bad").contains(access + " line 1: '-6.249.66.3' is not a");
        List<StoredHit> rows = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            store.reader().forEach(HitFilter.ERRORS, rows::add);
        }
        assertThat(rows).extracting(StoredHit::url, StoredHit::verification).containsExactly(tuple("/b", "verified"));
    }
}
