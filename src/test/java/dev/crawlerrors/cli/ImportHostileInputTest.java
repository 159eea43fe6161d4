package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.ingest.Compressed;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What issue 17's review fed {@code import} that it did not take well: a log that begins as another,
 * a named pipe and a process substitution, a glob inside a linked directory, a compressed log cut
 * short, a log it may not read. Each against the real store, with real files and pipes.
 */
@ProcessTest
class ImportHostileInputTest {

    @TempDir
    Path dir;

    private Path db() {
        return dir.resolve("hits.duckdb");
    }

    /** The stored URLs, in the order they were stored. */
    private List<String> storedUrls() {
        List<StoredHit> rows = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(db())) {
            store.reader().forEach(HitFilter.ERRORS, rows::add);
        }
        return rows.stream().sorted(Comparator.comparingLong(StoredHit::id)).map(StoredHit::url).toList();
    }

    /** A verified Googlebot error hit for {@code url}, one line with its newline. */
    private static String line(String url, int i) {
        return SampleLogs.line(i).replace("/page/" + i + " ", url + " ");
    }

    private static String linesOf(String prefix, int from, int to) {
        StringBuilder sb = new StringBuilder();
        IntStream.rangeClosed(from, to).forEach(i -> sb.append(line(prefix + i, i)));
        return sb.toString();
    }

    private static List<String> urls(String prefix, int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> prefix + i).toList();
    }

    @Test
    void aLogThatBeginsAsAnotherButGoesOnDifferentlyIsImportedWholeAndEachIsStillKnownAfterwards() throws Exception {
        // two sites whose logs begin with the same 60 lines (over 10 KB: far more than the fingerprint covers)
        String shared = lines(1, 60);
        Path siteA = Files.writeString(dir.resolve("site-a.log"), shared + linesOf("/a/", 61, 100));
        assertThat(CommandRun.importing(dir, db(), siteA.toString()).exit()).isZero();
        Path siteB = Files.writeString(dir.resolve("site-b.log"), shared + linesOf("/b/", 61, 1060));

        CommandRun b = CommandRun.importing(dir, db(), "--verbose", siteB.toString());

        assertThat(b.exit()).isZero();
        assertThat(b.out()).contains("  " + siteB + ": new, 1,060 lines\n");
        List<String> expected = new ArrayList<>(urls("/page/", 1, 60));
        expected.addAll(urls("/a/", 61, 100));
        expected.addAll(urls("/page/", 1, 60));
        expected.addAll(urls("/b/", 61, 1060));
        assertThat(storedUrls()).containsExactlyElementsOf(expected);

        // and each is still itself: site-a grown and compressed by logrotate, site-b renamed
        Path rotated = Files.write(dir.resolve("site-a.log.1.gz"), Compressed.gzip(Files.readString(siteA) + linesOf("/a/", 101, 105)));
        Files.delete(siteA);
        Path renamed = Files.move(siteB, dir.resolve("site-b.log.1"));
        Files.setLastModifiedTime(renamed, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));

        CommandRun again = CommandRun.importing(dir, db(), "--verbose", rotated.toString(), renamed.toString());

        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("  " + rotated + ": grown by 5 lines (").contains("  " + renamed + ": already imported (1,060 lines)");
        expected.addAll(urls("/a/", 101, 105));
        assertThat(storedUrls()).containsExactlyElementsOf(expected);
    }

    @Test
    void readsANamedPipeOnceAsAStreamAndDoesNotHang() throws Exception {
        Path fifo = dir.resolve("access.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        // the writer blocks until the import opens the pipe, and fails if the import closes it early
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                Files.writeString(fifo, lines(1, 3000));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });

        CommandRun run = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> CommandRun.importing(dir, db(), "--verbose", fifo.toString()));

        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(run.out()).contains("  " + fifo + ": new, 3,000 lines\n");
        writer.get(10, TimeUnit.SECONDS);
        assertThat(storedUrls()).containsExactlyElementsOf(urls("/page/", 1, 3000));
    }

    @Test
    void readsAProcessSubstitutionOfAShell() throws Exception {
        Path gz = Files.write(dir.resolve("old.log.gz"), Compressed.gzip(lines(1, 50)));
        String shell = CommandProcess.shellWords(dir) + " import --db '" + db() + "' --ip-ranges '" + SampleLogs.ipRanges(dir)
                + "' --dns-server none <(gzip -dc '" + gz + "')";

        CommandProcess.Finished run = CommandProcess.run(dir, List.of("bash", "-c", shell));

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("Logs: 1 file, combined with request time in seconds (nginx $request_time), auto-detected: 1 new, 50 lines.")
                .doesNotContain("Illegal seek");
        assertThat(storedUrls()).containsExactlyElementsOf(urls("/page/", 1, 50));
    }

    @Test
    void expandsAGlobInsideALinkedDirectory() throws Exception {
        Path real = Files.createDirectories(dir.resolve("srv/nginx"));
        Files.writeString(real.resolve("access.log.1"), lines(1, 2));
        Files.writeString(real.resolve("access.log"), lines(3, 4));
        Path linked = Files.createSymbolicLink(dir.resolve("linked"), real);

        CommandRun run = CommandRun.importing(dir, db(), "--verbose", linked + "/access.log*");

        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(run.out()).contains("  " + linked + "/access.log.1: new, 2 lines\n  " + linked + "/access.log: new, 2 lines\n");
        assertThat(storedUrls()).containsExactlyElementsOf(urls("/page/", 1, 4));
    }

    @Test
    void saysACompressedLogCutShortIsDamagedAndHowMuchOfItWasRead() throws Exception {
        byte[] zst = Compressed.zstd(lines(1, 3000));
        byte[] gz = Compressed.gzip(lines(3001, 6000));
        Path nothing = Files.write(dir.resolve("access.log.3.zst"), Arrays.copyOf(zst, 40));
        Path half = Files.write(dir.resolve("access.log.2.gz"), Arrays.copyOf(gz, gz.length / 2));

        CommandRun run = CommandRun.importing(dir, db(), nothing.toString(), half.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("Source problem: " + nothing + " is damaged: its zstd data ends early (the file was cut short):"
                        + " nothing of it could be read\n")
                .containsPattern("Source problem: " + half + " is damaged: its gzip data ends early \\(the file was cut short\\):"
                        + " its first [0-9,]+ lines were read, the rest of it cannot be\n")
                .doesNotContain("empty");
        assertThat(storedUrls()).isNotEmpty().startsWith("/page/3001");
    }

    @Test
    void saysALogItMayNotReadIsNotAllowedAndExitsOneHavingImportedTheOthers() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.log"), lines(1, 2));
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
        Path good = Files.writeString(dir.resolve("access.log"), lines(3, 4));
        List<String> command = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            // root reads any file: the import runs without the capabilities that let it
            command.addAll(List.of("setpriv", "--bounding-set=-dac_override,-dac_read_search"));
        }
        command.addAll(CommandProcess.java(dir));
        command.addAll(List.of("import", "--db", db().toString(), "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--dns-server",
                "none", secret.toString(), good.toString()));

        CommandProcess.Finished run = CommandProcess.run(dir, command);

        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("Source problem: " + secret + " cannot be read: permission denied (run the import as a user"
                + " allowed to read it, such as one in the group that owns it)\n");
        assertThat(storedUrls()).containsExactlyElementsOf(urls("/page/", 3, 4));
        assertThat(CommandRun.of("import", "--help").out()).contains("Exit codes:", "0   every log named was read",
                "1   a log named could not be read", "2   bad usage");
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
