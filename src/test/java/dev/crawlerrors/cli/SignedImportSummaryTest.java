package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.signature.SignedLines;
import dev.crawlerrors.crawler.signature.TestSigner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code crawl-errors import --signature-directories DIR}: the summary says which key directory the verdicts rest on. */
class SignedImportSummaryTest {

    @TempDir
    Path dir;

    @Test
    void theSummaryNamesEachKeyDirectoryReadAndWhereFrom() throws Exception {
        TestSigner chatGpt = TestSigner.ed25519("https://chatgpt.com");
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("chatgpt.com.json"), TestSigner.directory(chatGpt));
        Instant at = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
        Path log = dir.resolve("access.log");
        Files.writeString(log, SignedLines.nginx("20.171.207.2", at, "GET", "/cart", 404, SignedLines.CHROME, "shop.example",
                chatGpt.sign("GET", "shop.example", "/cart", at.getEpochSecond(), at.getEpochSecond() + 300)) + "\n");

        CommandRun run = CommandRun.importing(dir, dir.resolve("hits.duckdb"), "--signature-directories", keys.toString(),
                "--format", "nginx:" + SignedLines.NGINX_FORMAT, log.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Verdicts: verified 1\n");
        assertThat(run.out().lines().filter(line -> line.contains("key directory"))).singleElement().asString()
                .startsWith("key directory https://chatgpt.com/.well-known/http-message-signatures-directory: 1 key, read ")
                .endsWith(" from the files of --signature-directories " + keys + ".");
    }
}
