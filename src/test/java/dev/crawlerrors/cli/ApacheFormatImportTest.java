package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An import with the user's own Apache {@code LogFormat}, from the command line to the stored row. */
class ApacheFormatImportTest {

    /** The format: Apache's combined with %D, the request time in microseconds, at the end. */
    private static final String FORMAT = "apache:%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D";

    @TempDir
    Path dir;

    @Test
    void importsAGooglebot404WrittenInTheUsersApacheFormatAndLeavesThePersonOut() throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, """
                66.249.66.1 - - [14/May/2025:09:31:02 +0200] "GET /gent/veldstraat?x=1 HTTP/1.1" 404 196 "-" "%s" 1530
                198.51.100.7 - - [14/May/2025:09:31:03 +0200] "GET /gent HTTP/1.1" 404 196 "https://www.straatinfo.be/" \
                "Mozilla/5.0 (X11; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0" 880
                """.formatted(SampleLogs.GOOGLEBOT));
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.importing(dir, db, "--format", FORMAT, log.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Read 2 lines").contains("2 parsed, 0 bad")
                .contains("Crawler hits stored: 1; error hits (status >= 300) for the report: 1")
                .contains("Verdicts: verified 1");
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).singleElement().usingRecursiveComparison().ignoringFields("id")
                    .isEqualTo(new StoredHit(0, Instant.parse("2025-05-14T07:31:02Z").toEpochMilli(), 120, "66.249.66.1", "GET",
                            "/gent/veldstraat?x=1", 404, 1.53, "Googlebot Desktop", "crawler_search", "verified",
                            "in common-crawlers.json 66.249.64.0/19 (created 2026-11-20)", SampleLogs.GOOGLEBOT, null));
        }
    }
}
