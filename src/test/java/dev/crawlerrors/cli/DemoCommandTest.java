package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.pipeline.ImportSummary;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {

    @TempDir
    Path dir;

    @Test
    void theDemosOwnListsVerifyEveryCrawlerButTheImpostorAndSayTheyAreDemoData() throws Exception {
        DemoCommand.Demo demo = DemoCommand.Demo.prepare(dir);
        ImportSummary summary;
        try (DuckDbHitStore store = DuckDbHitStore.open(demo.db())) {
            summary = demo.importInto(store);
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        summary.print(new PrintStream(printed, true, StandardCharsets.UTF_8));

        // Bingbot's successful requests were unverified, and the demo said a list was not read
        assertThat(summary.verdicts()).containsOnly(entry(Verification.verified, 706L), entry(Verification.spoofed, 14L));
        assertThat(printed.toString(StandardCharsets.UTF_8)).doesNotContain("not read");
        for (String list : new String[] {"common-crawlers.json", "bingbot.json"}) {
            assertThat(Files.readString(dir.resolve("ip-ranges").resolve(list))).contains("DEMO DATA");
        }
    }
}
