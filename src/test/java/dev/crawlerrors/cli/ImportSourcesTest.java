package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.ipRanges;
import static dev.crawlerrors.ingest.SampleLogs.line;
import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.Compressed;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Importing files, globs, directories and standard input, and importing them again. */
class ImportSourcesTest {

    @TempDir
    Path dir;

    private Path db;
    private Path ranges;
    private ByteArrayOutputStream out;
    private PrintStream originalOut;
    private InputStream originalIn;

    @BeforeEach
    void setUp() throws IOException {
        db = dir.resolve("hits.duckdb");
        ranges = ipRanges(dir);
        Files.createDirectories(dir.resolve("logs"));
        originalOut = System.out;
        originalIn = System.in;
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setIn(originalIn);
    }

    private int importing(String... arguments) {
        out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        CommandLine cli = Main.commandLine();
        cli.setErr(new java.io.PrintWriter(new ByteArrayOutputStream(), true));
        // a line per log: these tests say what was done with each
        List<String> args = new ArrayList<>(List.of("import", "--db", db.toString(), "--ip-ranges", ranges.toString(), "--dns-server", "none",
                "--verbose"));
        args.addAll(Arrays.asList(arguments));
        return cli.execute(args.toArray(String[]::new));
    }

    private String summary() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The stored URLs in the order they were stored. */
    private List<String> storedUrls() {
        List<StoredHit> rows = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            store.reader().forEach(HitFilter.ERRORS, rows::add);
        }
        return rows.stream().sorted(Comparator.comparingLong(StoredHit::id)).map(StoredHit::url).toList();
    }

    private static List<String> urls(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).toList();
    }

    private Path log(String name, String text) throws IOException {
        return Files.writeString(dir.resolve("logs").resolve(name), text);
    }

    private Path log(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve("logs").resolve(name), bytes);
    }

    static byte[] gzip(String text) throws IOException {
        return Compressed.gzip(text);
    }

    static byte[] zstd(String text) throws IOException {
        return Compressed.zstd(text);
    }

    private String logs() {
        return dir.resolve("logs").toString();
    }

    @Test
    void readsARotatedFamilyOldestFirstWhateverEachMemberIsCompressedWith() throws Exception {
        log("access.log.10.gz", gzip(lines(1, 2)));
        log("access.log.3.zst", zstd(lines(3, 4)));
        log("access.log.2.gz", gzip(lines(5, 6)));
        log("access.log.1", lines(7, 8));
        log("access.log", lines(9, 10));

        assertThat(importing(logs() + "/access.log*")).isZero();

        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 10));
        assertThat(summary()).contains("Logs (5, in the order read):\n"
                + "  " + logs() + "/access.log.10.gz: new, 2 lines\n"
                + "  " + logs() + "/access.log.3.zst: new, 2 lines\n"
                + "  " + logs() + "/access.log.2.gz: new, 2 lines\n"
                + "  " + logs() + "/access.log.1: new, 2 lines\n"
                + "  " + logs() + "/access.log: new, 2 lines\n");
    }

    @Test
    void importsTheLogsOfADirectoryAndSaysWhatItSkipped() throws Exception {
        log("access.log.1", lines(1, 2));
        log("access.log", lines(3, 4));
        log("error.log", "2025/05/14 09:31:02 [error] 12#12: open() failed\n");

        assertThat(importing(logs())).isZero();

        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 4));
        assertThat(summary()).contains("Note: skipped in " + logs() + ": error.log (an error log, not an access log).");
    }

    @Test
    void importingALogAgainAddsNothingAndSaysSo() throws Exception {
        Path access = log("access.log", lines(1, 3));
        assertThat(importing(access.toString())).isZero();

        assertThat(importing(access.toString())).isZero();

        assertThat(summary()).contains("  " + access + ": unchanged since it was imported (3 lines), not opened\n")
                .contains("Read 0 lines");
        // touched, it is opened, and known by its content
        Files.setLastModifiedTime(access, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        assertThat(importing(access.toString())).isZero();
        assertThat(summary()).contains("  " + access + ": already imported (3 lines), nothing new\n");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 3));
    }

    @Test
    void aCopyImportedInTheSameRunAsItsOriginalIntoANewStoreAddsNothing() throws Exception {
        // the store is new, so it knows no log when the run starts; the copy's lookup comes after
        // the original's lines are appended, and must find them
        Path access = log("access.log", lines(1, 3));
        Path copy = log("copy-of-access.log", lines(1, 3));

        assertThat(importing(access.toString(), copy.toString())).isZero();

        assertThat(summary()).contains("  " + access + ": new, 3 lines\n")
                .contains("  " + copy + ": already imported (3 lines), nothing new\n");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 3));
    }

    @Test
    void aLogThatGrewAddsOnlyItsNewLines() throws Exception {
        Path access = log("access.log", lines(1, 3));
        importing(access.toString());
        Files.writeString(access, lines(4, 5), StandardOpenOption.APPEND);

        assertThat(importing(access.toString())).isZero();

        assertThat(summary()).contains("  " + access + ": grown by 2 lines (" + lines(4, 5).length() + " bytes) since it was imported with 3 lines\n");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 5));
    }

    @Test
    void aHalfWrittenLastLineIsLeftForTheNextImportWhichReadsItWhole() throws Exception {
        // the import reads the log while the server is writing its second line, 70 bytes of it on disk
        String second = line(2);
        Path access = log("access.log", line(1) + second.substring(0, 70));

        assertThat(importing(access.toString())).isZero();

        assertThat(summary()).contains("Read 1 line in", "1 parsed, 0 bad", "  " + access + ": new, 1 line;"
                + " its last line (70 bytes) has no newline yet while the log is being written: left for the next import\n");
        assertThat(storedUrls()).containsExactly("/page/1");

        Files.writeString(access, second.substring(70) + line(3), StandardOpenOption.APPEND);
        assertThat(importing(access.toString())).isZero();

        assertThat(summary()).contains("2 parsed, 0 bad", "  " + access + ": grown by 2 lines (");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 3));
    }

    @Test
    void aLastLineWithoutANewlineIsReadWhenTheLogIsNoLongerWritten() throws Exception {
        String last = line(3);
        Path access = log("access.log", lines(1, 2) + last.substring(0, last.length() - 1));
        Files.setLastModifiedTime(access, FileTime.fromMillis(System.currentTimeMillis() - 60_000));

        assertThat(importing(access.toString())).isZero();

        assertThat(summary()).contains("  " + access + ": new, 3 lines\n").doesNotContain("no newline yet");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 3));
    }

    @Test
    void aLastLineWithoutANewlineIsReadFromStandardInputAndCompressedLogs() throws Exception {
        // neither grows once it ends, however recently it was written
        String third = line(3).stripTrailing();
        System.setIn(new ByteArrayInputStream((lines(1, 2) + third).getBytes(StandardCharsets.UTF_8)));
        assertThat(importing("-")).isZero();
        assertThat(summary()).contains("  -: new, 3 lines\n");

        Path gz = log("access.log.1.gz", gzip(lines(4, 5) + line(6).stripTrailing()));
        assertThat(importing(gz.toString())).isZero();
        assertThat(summary()).contains("  " + gz + ": new, 3 lines\n");

        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 6));
    }

    @Test
    void aLogThatChangesFormatPartwayIsReadInBothAndTheSummarySaysWhere() throws Exception {
        // nginx's log_format given escape=json and reloaded: the same log goes on in JSON
        String json = IntStream.rangeClosed(4, 5)
                .mapToObj(i -> SampleLogs.NGINX_JSON.replace("/gent/veldstraat?x=1", "/page/" + i) + "\n")
                .collect(java.util.stream.Collectors.joining());
        Path access = log("access.log", lines(1, 3) + json);
        Files.setLastModifiedTime(access, FileTime.fromMillis(System.currentTimeMillis() - 60_000));

        assertThat(importing(access.toString())).isZero();

        assertThat(summary()).contains("Read 5 lines in", "5 parsed, 0 bad",
                "Lines in another format than their log's, read in it: 2 lines as JSON lines (the first: " + access + " line 4).\n");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 5));
    }

    /** An IIS log's directives: its fields in IIS's order, or with the client's address and the path swapped. */
    private static String iisHeader(boolean swapped) {
        return "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2025-05-14 09:00:00\n"
                + "#Fields: date time s-ip cs-method " + (swapped ? "c-ip" : "cs-uri-stem") + " cs-uri-query s-port cs-username "
                + (swapped ? "cs-uri-stem" : "c-ip") + " cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken\n";
    }

    /** {@code #line(int)}'s hit in an IIS log with {@link #iisHeader}'s fields. */
    private static String iisLine(int i, boolean swapped) {
        String path = "/page/" + i;
        String client = "66.249.66." + (i % 250);
        return "2025-05-14 09:31:" + String.format("%02d", i % 60) + " 10.0.0.1 GET " + (swapped ? client : path) + " - 443 - "
                + (swapped ? path : client) + " Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - 404 0 0 12\n";
    }

    @Test
    void aW3cLogThatGrewIsReadOnWithTheFieldsItsHeaderSet() throws Exception {
        // the fields change halfway, as when IIS is reconfigured: the new lines follow the last #Fields
        Path iis = log("u_ex250514.log", iisHeader(false) + iisLine(1, false) + iisHeader(true) + iisLine(2, true));
        importing(iis.toString());
        Files.writeString(iis, iisLine(3, true) + iisLine(4, true), StandardOpenOption.APPEND);

        assertThat(importing(iis.toString())).isZero();

        assertThat(summary()).contains("  " + iis + ": grown by 2 lines").doesNotContain("Source problem");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 4));
    }

    @Test
    void aW3cLogCompressedAfterItGrewIsReadOnWithTheFieldsItsHeaderSet() throws Exception {
        Path iis = log("u_ex250514.log", iisHeader(false) + iisLine(1, false));
        importing(iis.toString());
        log("u_ex250514.log.gz", gzip(Files.readString(iis) + iisLine(2, false)));
        Files.delete(iis);

        assertThat(importing(logs())).isZero();

        assertThat(summary()).contains("u_ex250514.log.gz: grown by 1 line (").doesNotContain("Source problem");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 2));
    }

    @Test
    void aFamilyRotatedAndCompressedBetweenImportsIsNotImportedTwice() throws Exception {
        Path access = log("access.log", lines(1, 3));
        importing(logs());
        // more lines, then logrotate without delaycompress: access.log -> access.log.1.gz, a new access.log
        Files.writeString(access, lines(4, 5), StandardOpenOption.APPEND);
        log("access.log.1.gz", gzip(Files.readString(access)));
        log("access.log", lines(6, 7));

        assertThat(importing(logs())).isZero();

        assertThat(summary()).contains("access.log.1.gz: grown by 2 lines").contains("/access.log: new, 2 lines");
        // and again, with delaycompress this time: .1.gz -> .2.gz, access.log -> access.log.1, a new access.log
        Files.move(dir.resolve("logs/access.log.1.gz"), dir.resolve("logs/access.log.2.gz"));
        Files.move(access, dir.resolve("logs/access.log.1"));
        log("access.log", lines(8, 8));

        assertThat(importing(logs())).isZero();

        // renamed, each is the file it was when it was read to its end: known without being opened
        assertThat(summary()).contains("access.log.2.gz: unchanged since it was imported (5 lines), not opened")
                .contains("access.log.1: unchanged since it was imported (2 lines), not opened")
                .contains("/access.log: new, 1 line\n");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 8));
    }

    @Test
    void keepsTheLinesBeforeTheDamageInTruncatedGzipAndZstdLogs() throws Exception {
        byte[] gz = gzip(lines(1, 3000));
        byte[] zst = zstd(lines(3001, 6000));
        log("access.log.2.gz", Arrays.copyOf(gz, gz.length / 2));
        log("access.log.1.zst", Arrays.copyOf(zst, zst.length / 2));

        assertThat(importing(logs())).isEqualTo(1);

        List<String> stored = storedUrls();
        assertThat(stored).hasSizeGreaterThan(1000).startsWith("/page/1", "/page/2").contains("/page/3001", "/page/3002")
                .doesNotHaveDuplicates();
        assertThat(summary()).containsPattern("Source problem: " + logs() + "/access.log.2.gz is damaged: its gzip data ends early"
                        + " \\(the file was cut short\\): its first [0-9,]+ lines were read, the rest of it cannot be\n")
                .containsPattern("Source problem: " + logs() + "/access.log.1.zst is damaged: its zstd data ends early"
                        + " \\(the file was cut short\\): its first [0-9,]+ lines were read, the rest of it cannot be\n");
    }

    @Test
    void reportsEmptyAndMissingLogsAndDirectoriesWithoutLogsAndExitsOneWhenNothingCouldBeRead() throws Exception {
        Path empty = log("empty.log", "");
        Path noLogs = Files.createDirectories(dir.resolve("nologs"));
        Files.writeString(noLogs.resolve("nginx.pid"), "123\n");
        String missing = logs() + "/missing.log";

        assertThat(importing(empty.toString(), missing, noLogs.toString())).isEqualTo(1);

        assertThat(summary()).contains("  " + empty + ": empty, nothing to import")
                .contains("Source problem: " + missing + " does not exist\n")
                .contains("Source problem: directory " + noLogs + " holds no access logs")
                .contains("Note: skipped in " + noLogs + ": nginx.pid (not named like an access log).");

        // what could be read is imported, and the import still fails for what could not, so that cron notices
        Path good = log("access.log", lines(1, 2));
        assertThat(importing(empty.toString(), missing, noLogs.toString(), good.toString())).isEqualTo(1);
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 2));
        assertThat(importing(empty.toString(), good.toString())).isZero();
    }

    @Test
    void keepsReadingPastBinaryGarbageAndDoesNotTakeItForImported() throws Exception {
        byte[] garbage = new byte[3000];
        new java.util.Random(7).nextBytes(garbage);
        Path bin = log("garbage.log", garbage);
        Path good = log("access.log", lines(1, 2));

        assertThat(importing(bin.toString(), good.toString())).isEqualTo(1);
        assertThat(summary()).contains(bin + ": the log format could not be detected");

        // not recorded as imported: asked again, it is looked at again (and refused again)
        assertThat(importing(bin.toString())).isEqualTo(1);
        assertThat(summary()).contains(bin + ": the log format could not be detected");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 2));
    }

    @Test
    void knowsStandardInputByItsContentToo() throws Exception {
        System.setIn(new ByteArrayInputStream(gzip(lines(1, 3))));
        assertThat(importing("-")).isZero();
        assertThat(summary()).contains("  -: new, 3 lines");

        System.setIn(new ByteArrayInputStream(gzip(lines(1, 4))));
        assertThat(importing("-")).isZero();

        assertThat(summary()).contains("  -: grown by 1 line (");
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 4));
    }
}
