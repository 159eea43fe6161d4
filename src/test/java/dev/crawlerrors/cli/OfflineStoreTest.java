package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.LocalDnsServer;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.pipeline.VerdictRechecks;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store imported offline (a resolver that fails its check, no list to read), served the same
 * way: the report's first page says above the table that nothing can be verified and what to do;
 * serve's start-up re-check finds what the import found, so it records nothing, and the snapshot
 * ({@code at}) of every page stays as it was, on both engines.
 */
@ProcessTest
@ClickHouseTest
class OfflineStoreTest {

    private static final String GOOGLEBOT = "66.249.66.12 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 0 \"-\" "
            + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 0.001";
    private static final String BINGBOT = "157.55.39.2 - - [14/May/2025:09:33:02 +0200] \"GET /ghent/kouter HTTP/1.1\" 404 0 \"-\" "
            + "\"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)\" 0.001";

    @TempDir
    Path dir;

    private LocalDnsServer dns;
    private Path noLists;

    @BeforeEach
    void start() throws Exception {
        // every name NXDOMAIN, Googlebot's own address too: the resolver fails its check
        dns = new LocalDnsServer().nxdomainForEveryOtherName();
        noLists = Files.createDirectories(dir.resolve("no-lists"));
    }

    @AfterEach
    void stop() throws Exception {
        dns.close();
    }

    @Test
    void aRecheckThatFindsWhatTheImportFoundMovesNoSnapshotOnDuckDb() throws Exception {
        Path db = dir.resolve("offline.duckdb");
        importOffline(db.toString());

        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertRecheckChangesNothing(store);
        }
    }

    @Test
    void aRecheckThatFindsWhatTheImportFoundMovesNoSnapshotOnClickHouse() throws Exception {
        ClickHouseTestCluster cluster = ClickHouseTestCluster.plainServer();
        String db = ClickHouseTestCluster.database("recheck");
        importOffline(cluster.url(db));

        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE)) {
            assertRecheckChangesNothing(store);
        }
    }

    @Test
    void theFirstPageSaysAboveTheTableThatNothingCanBeVerifiedAndTheRecheckMovesNoSnapshot() throws Exception {
        Path db = dir.resolve("offline.duckdb");
        importOffline(db.toString());

        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", db.toString(), "--port", "0",
                "--ip-ranges", noLists.toString(), "--dns-server", dns.address(), "--timezone", "UTC")) {
            String page = get(serve, "/crawl-errors");
            String at = at(get(serve, "/api/crawl-errors"));

            // serve checks signatures: a signed request is proven by its signature, whatever its address
            assertThat(page).contains("<p class=\"alert\" id=\"nothing-provable\" role=\"alert\">No crawler can be verified by its"
                    + " address: none of the ")
                    .contains(" published IP lists could be read from " + noLists + " and the DNS resolver " + dns.address()
                            + " failed its check, so every hit but those a Web Bot Auth signature proves is unverified; put the"
                            + " published lists in " + noLists
                            + " (or point --ip-ranges at where they are) or give --dns-server a resolver that answers, and serve checks"
                            + " the hits again by itself.</p>");
            assertThat(page.indexOf("id=\"nothing-provable\"")).isLessThan(page.indexOf("<table id=\"hits\""));

            // the start-up re-check (after a few seconds) checks both claims, finds what the import found, and records nothing
            Waits.await("the start-up re-check").untilAsserted(() -> assertThat(serve.printed()).contains("checking 2 verdicts again"));
            Thread.sleep(1_000); // the resolver answers in milliseconds: a recorded verdict would be committed by now
            assertThat(at(get(serve, "/api/crawl-errors"))).isEqualTo(at);
            assertThat(get(serve, "/crawl-errors")).doesNotContain("id=\"recounting\"");
        }
    }

    private static String get(ServeProcess serve, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(serve.base() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    private static String at(String json) throws Exception {
        return new ObjectMapper().readTree(json).get("at").asText();
    }

    private void importOffline(String db) throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, GOOGLEBOT + "\n" + BINGBOT + "\n");
        CommandRun run = CommandRun.of("import", "--db", db, "--ip-ranges", noLists.toString(), "--dns-server", dns.address(),
                log.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Verdicts: unverified 2").contains("failed its check");
    }

    /** Runs serve's re-check as serve does, to its end, and compares the store before and after. */
    private void assertRecheckChangesNothing(HitStore store) throws Exception {
        Snapshot before = store.reader().snapshot();
        var unverifiedBefore = store.verdicts().of(Verification.unverified);
        assertThat(unverifiedBefore).hasSize(2);
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        try (CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(noLists.toString())),
                new DnsVerifier(dns.address(), Duration.ofSeconds(2), 16, 100, 100));
             VerdictRechecks rechecks = new VerdictRechecks(store.verdicts(), store.signatures(), catalog, verifier)) {

            assertThat(rechecks.run()).isEqualTo(2);
            assertThat(verifier.awaitPending(10_000)).isZero();
        }
        store.writer().flush();

        assertThat(store.reader().snapshot()).isEqualTo(before);
        assertThat(store.verdicts().of(Verification.unverified)).isEqualTo(unverifiedBefore);
    }
}
