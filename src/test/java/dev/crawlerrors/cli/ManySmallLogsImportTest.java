package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.bench.BenchLog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Compressed;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A directory of thousands of small gzipped logs, as CloudFront or a load balancer writes them,
 * imported as the same lines in one file are, imported again from cron, and changed under the
 * import: a new file among them, a file replaced in place under the same name.
 */
class ManySmallLogsImportTest {

    private static final int FILES = 2_000;
    private static final int LINES_A_FILE = 5;
    private static final Set<Verification> EVERY_VERDICT = Set.copyOf(EnumSet.allOf(Verification.class));
    /** Every error hit, of every bot type and verdict. */
    private static final HitFilter EVERY_ERROR = new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, EVERY_VERDICT, null, null, null, null);

    @TempDir
    static Path shared;
    /** {@link BenchLog}'s lines, {@value #LINES_A_FILE} to a file, and all of them in one. */
    private static Path logs;
    private static Path one;
    private static List<String> lines;

    @TempDir
    Path dir;
    private ByteArrayOutputStream out;
    private PrintStream originalOut;

    @BeforeAll
    static void writeLogs() throws IOException {
        byte[] all = BenchLog.generate(FILES * LINES_A_FILE);
        one = Files.write(shared.resolve("one.log"), all);
        lines = List.of(new String(all, StandardCharsets.UTF_8).split("\n"));
        logs = Files.createDirectories(shared.resolve("logs"));
        for (int f = 0; f < FILES; f++) {
            Files.write(logs.resolve(name(f)), gzip(lines.subList(f * LINES_A_FILE, (f + 1) * LINES_A_FILE)));
        }
    }

    /** CloudFront's way of naming them; the names sort in the order of their lines. */
    private static String name(int f) {
        return String.format(Locale.ROOT, "E2TEST.2025-05-14-%02d.b%07d.gz", f * 24 / FILES, f);
    }

    private static byte[] gzip(List<String> lines) throws IOException {
        return Compressed.gzip(String.join("\n", lines) + "\n");
    }

    @BeforeEach
    void captureOutput() {
        originalOut = System.out;
    }

    @AfterEach
    void restoreOutput() {
        System.setOut(originalOut);
    }

    /** Imports into {@code db} without a line per log (the default), and returns what it printed. */
    private String importing(Path db, String... sources) {
        out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(new ByteArrayOutputStream(), true));
        List<String> args = new ArrayList<>(List.of("import", "--db", db.toString(), "--ip-ranges", Path.of("bench", "ip-ranges").toString(),
                "--dns-server", "none"));
        args.addAll(List.of(sources));
        assertThat(cli.execute(args.toArray(String[]::new))).as(out.toString(StandardCharsets.UTF_8)).isZero();
        System.setOut(originalOut);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** What an import counted: the lines read and parsed, the crawler and error hits stored, the verdicts. */
    private static List<String> counted(String summary) {
        List<String> counts = new ArrayList<>();
        for (String line : summary.split("\n")) {
            if (line.startsWith("Read ") || line.startsWith("Crawler hits stored:") || line.startsWith("Verdicts:")) {
                counts.add(line.replaceAll(" in [0-9.]+ s \\([0-9,]+ lines/s\\)", ""));
            }
        }
        return counts;
    }

    /** Every error hit the store holds, as text, sorted: ids aside, what the report can show of each. */
    private static List<String> storedErrors(Path db) {
        List<String> rows = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            store.reader().forEach(EVERY_ERROR, (StoredHit hit) -> rows.add(String.join(" ", String.valueOf(hit.epochMillis()), hit.ip(), hit.method(),
                    hit.url(), String.valueOf(hit.status()), String.valueOf(hit.durationMs()), hit.crawler(), hit.verification(),
                    hit.userAgent())));
        }
        rows.sort(null);
        return rows;
    }

    private static long stored(String summary) {
        Matcher m = Pattern.compile("Crawler hits stored: ([0-9,]+);").matcher(summary);
        assertThat(m.find()).as(summary).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void aDirectoryOfSmallLogsStoresExactlyWhatTheSameLinesInOneFileStore() {
        Path fromOne = dir.resolve("one.duckdb");
        Path fromMany = dir.resolve("many.duckdb");

        String oneSummary = importing(fromOne, one.toString());
        String manySummary = importing(fromMany, logs.toString());

        assertThat(counted(manySummary)).hasSize(3).isEqualTo(counted(oneSummary));
        assertThat(manySummary).contains("Logs: 2,000 files, combined with request time in seconds (nginx $request_time), auto-detected:"
                + " 2,000 new, 10,000 lines.");
        assertThat(stored(manySummary)).isPositive();
        List<String> errors = storedErrors(fromMany);
        assertThat(errors).isNotEmpty().isEqualTo(storedErrors(fromOne));
    }

    @Test
    void aReRunStoresNothingTwiceAndFindsTheOneNewFileAmongThousandsAndAFileReplacedUnderItsName() throws IOException {
        Path db = dir.resolve("store.duckdb");
        Path copy = Files.createDirectories(dir.resolve("logs"));
        for (int f = 0; f < FILES; f++) {
            Files.copy(logs.resolve(name(f)), copy.resolve(name(f)), StandardCopyOption.COPY_ATTRIBUTES);
        }
        long first = stored(importing(db, copy.toString()));
        List<String> errors = storedErrors(db);

        // nothing changed: not one file opened, nothing stored
        String again = importing(db, copy.toString());
        assertThat(again).contains("Crawler hits stored: 0;").contains("Logs: 2,000 files unchanged since imported, not opened.");
        assertThat(storedErrors(db)).isEqualTo(errors);

        // one new file among them: read alone, and only it
        List<String> newLines = lines.subList(0, LINES_A_FILE).stream().map(line -> line.replaceFirst("\"([A-Z]+) /", "\"$1 /new/")).toList();
        Files.write(copy.resolve("E2TEST.2025-05-15-00.b9999999.gz"), gzip(newLines));
        String withNew = importing(db, copy.toString());
        assertThat(withNew).contains("2,000 files unchanged since imported, not opened")
                .contains("1 file, combined with request time in seconds (nginx $request_time), auto-detected: 1 new, 5 lines");
        long fromNew = stored(withNew);
        assertThat(fromNew).isEqualTo(stored(importing(dir.resolve("new-alone.duckdb"), copy.resolve("E2TEST.2025-05-15-00.b9999999.gz")
                .toString())));

        // two files replaced under their names: one written over (the same file, other lines), one
        // renamed over (another file); both read as the new logs they are, the others not opened
        List<String> other = lines.subList(LINES_A_FILE, 2 * LINES_A_FILE).stream()
                .map(line -> line.replaceFirst("\"([A-Z]+) /", "\"$1 /replaced/")).toList();
        Files.write(copy.resolve(name(17)), gzip(other));
        Path renamed = Files.write(dir.resolve("elsewhere.gz"), gzip(other.stream().map(line -> line.replace("/replaced/", "/renamed/"))
                .toList()));
        Files.move(renamed, copy.resolve(name(1234)), StandardCopyOption.REPLACE_EXISTING);
        String replaced = importing(db, copy.toString());
        assertThat(replaced).contains("1,999 files unchanged since imported, not opened")
                .contains("2 files, combined with request time in seconds (nginx $request_time), auto-detected: 2 new, 10 lines");
        long fromReplaced = stored(replaced);
        assertThat(fromReplaced).isEqualTo(stored(importing(dir.resolve("replaced-alone.duckdb"), copy.resolve(name(17)).toString(),
                copy.resolve(name(1234)).toString())));

        // and the store holds each hit once: what the first import stored, and what the changes brought
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.health().size()).isEqualTo(first + fromNew + fromReplaced);
        }
        assertThat(importing(db, copy.toString())).contains("Crawler hits stored: 0;")
                .contains("Logs: 2,001 files unchanged since imported, not opened.");
    }
}
