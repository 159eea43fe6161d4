package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.signature.DirectoryFiles;
import dev.crawlerrors.crawler.signature.KeyDirectories;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.signature.SignedLines;
import dev.crawlerrors.crawler.signature.Signers;
import dev.crawlerrors.crawler.signature.TestSigner;
import dev.crawlerrors.crawler.signature.WebBotAuthVerifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.NginxFormat;
import dev.crawlerrors.pipeline.ImportListener;
import dev.crawlerrors.pipeline.LogImport;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signed hits' URL states through the real server, on DuckDB and on a two-shard ClickHouse cluster:
 * ChatGPT agent signs its requests (its key read from {@code --signature-directories}'s files)
 * beside unsigned Googlebot hits; the URLs page filtered by the signer's name finds its signed
 * hits' URLs with their states, whatever group each signature's verdict was kept under, while the
 * verdict of each hit's claim still decides verified and spoofed. Both engines give the same pages,
 * before and after their states are folded.
 */
@ClickHouseTest
class SignedUrlStatesTest {

    private static final String HOST = "shop.example";
    private static final String AGENT = "20.171.207.2";
    private static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    private static final String SIGNER = "crawler=ChatGPT%20agent";
    private static final String EVERY_STATE = "&state=broken,redirected,ok";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void theUrlsOfASignersHitsAreFoundByItsNameOnBothEngines() throws Exception {
        TestSigner chatGpt = TestSigner.ed25519("https://chatgpt.com");
        Path keys = keys(chatGpt);
        Instant at = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(2));
        String twoMinutesOn = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm").withZone(ZoneOffset.UTC)
                .format(at.plusSeconds(120));
        Path log = log(chatGpt, at);

        Path duckDbFile = dir.resolve("hits.duckdb");
        DuckDbHitStore duckDb = DuckDbHitStore.open(duckDbFile);
        open.add(duckDb);
        ClickHouseHitStore clickHouse = ClickHouseHitStore.openAfresh(ClickHouseTestCluster.twoShards().location(
                ClickHouseTestCluster.database("signed_urls")), ClickHouseSettings.SERVE);
        open.add(clickHouse);
        for (HitStore store : List.<HitStore>of(duckDb, clickHouse)) {
            importLog(store, keys, log);
        }
        ReportServer duckDbServer = serve(duckDb);
        ReportServer clickHouseServer = serve(clickHouse);

        List<String> pages = List.of("/api/crawl-errors/urls?" + SIGNER + EVERY_STATE, "/api/crawl-errors/urls?" + SIGNER,
                "/api/crawl-errors/urls?" + SIGNER + "&verification=verified" + EVERY_STATE,
                "/api/crawl-errors/urls?" + SIGNER + "&verification=spoofed" + EVERY_STATE,
                "/api/crawl-errors/urls?" + SIGNER + "&verification=verified,unverified" + EVERY_STATE,
                "/api/crawl-errors/urls?" + SIGNER + "&from=" + twoMinutesOn + EVERY_STATE,
                "/api/crawl-errors/urls?bot=all" + EVERY_STATE, "/api/crawl-errors/url?url=%2Ffixed&host=shop.example");
        for (boolean folded : List.of(false, true)) {
            if (folded) {
                duckDb.reader().urlStates().fold();
                clickHouse.reader().urlStates().fold();
            }
            for (ReportServer server : List.of(duckDbServer, clickHouseServer)) {
                String engine = (server == duckDbServer ? "DuckDB" : "ClickHouse") + (folded ? ", folded" : "");
                String view = "?" + SIGNER + EVERY_STATE;
                assertThat(EnginePages.urls(server, view)).as(engine + ": the signer's URLs").containsExactlyInAnyOrder("/fixed", "/regressed");
                JsonNode fixed = EnginePages.row(server, view, "/fixed");
                assertThat(fixed.get("state").asText()).as(engine).isEqualTo("ok");
                assertThat(fixed.get("fixed").asBoolean()).as(engine).isTrue();
                assertThat(fixed.get("fixedSince").asText()).as(engine).isEqualTo(EnginePages.row(server, view, "/fixed").get("lastCrawled").asText());
                assertThat(fixed.get("hits").asLong()).as(engine + ": neither the tampered 503 nor Googlebot's 404").isEqualTo(2);
                assertThat(fixed.get("errorHits").asLong()).as(engine).isEqualTo(1);
                JsonNode regressed = EnginePages.row(server, view, "/regressed");
                assertThat(regressed.get("state").asText()).as(engine).isEqualTo("broken");
                assertThat(regressed.get("lastStatus").asInt()).as(engine).isEqualTo(503);
                assertThat(EnginePages.urls(server, "?" + SIGNER)).as(engine + ": broken now").containsExactly("/regressed");
                assertThat(EnginePages.urls(server, "?" + SIGNER + "&verification=verified" + EVERY_STATE)).as(engine + ": verified")
                        .containsExactlyInAnyOrder("/fixed", "/regressed");
                assertThat(EnginePages.row(server, "?" + SIGNER + "&verification=verified" + EVERY_STATE, "/fixed").get("hits").asLong()).as(engine)
                        .isEqualTo(2);
                String spoofed = "?" + SIGNER + "&verification=spoofed" + EVERY_STATE;
                assertThat(EnginePages.urls(server, spoofed)).as(engine + ": spoofed").containsExactlyInAnyOrder("/fixed", "/only-spoofed");
                assertThat(EnginePages.row(server, spoofed, "/fixed").get("lastStatus").asInt()).as(engine).isEqualTo(503);
                assertThat(EnginePages.row(server, spoofed, "/fixed").get("hits").asLong()).as(engine).isEqualTo(1);
                assertThat(EnginePages.urls(server, "?" + SIGNER + "&from=" + twoMinutesOn + EVERY_STATE)).as(engine + ": from a time")
                        .containsExactly("/regressed");
                assertThat(EnginePages.urls(server, "?crawler=Googlebot%20Desktop" + EVERY_STATE)).as(engine + ": the unsigned crawler's")
                        .containsExactlyInAnyOrder("/fixed", "/googlebot-only");
                JsonNode own = JSON.readTree(EnginePages.raw(server, "/api/crawl-errors/url?url=%2Ffixed&host=shop.example"));
                List<String> crawlers = new ArrayList<>();
                own.get("hits").forEach(hit -> crawlers.add(hit.get("crawler").asText()));
                assertThat(new TreeSet<>(crawlers)).as(engine + ": " + own).containsExactly("ChatGPT agent", "Googlebot Desktop");
            }
            for (String path : pages) {
                assertThat(page(clickHouseServer, path)).as((folded ? "folded: " : "") + path).isEqualTo(page(duckDbServer, path));
            }
        }
        duckDbServer.close();
        clickHouseServer.close();
        open.remove(duckDb);
        duckDb.close();
        assertThat(scopes(duckDbFile)).as("one scope for each crawler's name, whatever the verdicts' groups; a spoofed hit's URL in none")
                .isEqualTo(Map.of("*", 3L, "ChatGPT agent", 2L, "Googlebot Desktop", 2L));
    }

    /**
     * Signatures left waiting in their hits' rows (DuckDB), under one claim per address and signer, and settled
     * later, each hit moved to a claim of its own: the pages are those of the same log checked at its import,
     * whether a reader counted and folded the URLs' states while they waited or not.
     */
    @Test
    void signaturesSettledFromTheirHitsRowsGiveThePagesOfThoseCheckedAtTheImport() throws Exception {
        TestSigner chatGpt = TestSigner.ed25519("https://chatgpt.com");
        Path keys = keys(chatGpt);
        Path log = log(chatGpt, Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(2)));
        List<String> pages = List.of("/api/crawl-errors/urls?" + SIGNER + EVERY_STATE, "/api/crawl-errors/urls?" + SIGNER,
                "/api/crawl-errors/urls?" + SIGNER + "&verification=verified" + EVERY_STATE,
                "/api/crawl-errors/urls?" + SIGNER + "&verification=spoofed" + EVERY_STATE,
                "/api/crawl-errors/urls?bot=all" + EVERY_STATE, "/api/crawl-errors/url?url=%2Ffixed&host=shop.example",
                "/api/crawl-errors", "/api/crawl-errors?verification=spoofed", "/api/crawl-errors?verification=verified,spoofed,unverified&bot=all",
                "/api/crawl-errors/overview?verification=verified,spoofed,unverified");

        for (boolean readWhileWaiting : List.of(false, true)) {
            DuckDbHitStore checked = DuckDbHitStore.open(dir.resolve("checked-" + readWhileWaiting + ".duckdb"));
            open.add(checked);
            importLog(checked, keys, log, -1);
            DuckDbHitStore waited = DuckDbHitStore.open(dir.resolve("waited-" + readWhileWaiting + ".duckdb"));
            open.add(waited);
            importLog(waited, keys, log, 0);
            assertThat(waited.signatures().pending(10)).as("every signed line waits in its hit's row")
                    .extracting(s -> s.id().startsWith("#")).containsExactly(true, true, true, true, true, true);
            ReportServer checkedServer = serve(checked);
            ReportServer waitedServer = serve(waited);
            if (readWhileWaiting) {
                for (String path : pages) {
                    page(waitedServer, path);
                }
                waited.reader().urlStates().fold();
                assertThat(EnginePages.urls(waitedServer, "?" + SIGNER + "&verification=unverified" + EVERY_STATE)).as("waiting")
                        .containsExactlyInAnyOrder("/fixed", "/regressed", "/only-spoofed");
            }

            settle(waited, keys);

            assertThat(waited.signatures().pendingCount()).isZero();
            for (boolean folded : List.of(false, true)) {
                if (folded) {
                    checked.reader().urlStates().fold();
                    waited.reader().urlStates().fold();
                }
                for (String path : pages) {
                    assertThat(settledPage(waitedServer, path)).as((readWhileWaiting ? "read while waiting, " : "") + (folded ? "folded: " : "")
                            + path).isEqualTo(settledPage(checkedServer, path));
                }
            }
        }
    }

    /** {@link #page}, once the figures it shows are no longer being recounted for verdicts that changed (within 30 s). */
    private static String settledPage(ReportServer server, String path) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String page = page(server, path);
        while (page.contains("\"recounting\":true") && System.nanoTime() < until) {
            Thread.sleep(50);
            page = page(server, path);
        }
        return page;
    }

    /** What serve does with the signatures waiting in {@code store}: checks them against the keys in {@code keys}. */
    private void settle(HitStore store, Path keys) throws Exception {
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(catalog,
                IpRangeSource.parse(Files.createDirectories(dir.resolve("ranges")).toString())), null);
        verifier.signatures(new SignedHits(new WebBotAuthVerifier(new KeyDirectories(new DirectoryFiles(keys))), new Signers(catalog)));
        try (dev.crawlerrors.pipeline.VerdictRechecks rechecks = new dev.crawlerrors.pipeline.VerdictRechecks(store.verdicts(),
                store.signatures(), catalog, verifier)) {
            rechecks.run();
        }
        store.writer().flush();
    }

    /** A directory of key files holding {@code signer}'s, as {@code --signature-directories} reads. */
    private Path keys(TestSigner signer) throws Exception {
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("chatgpt.com.json"), TestSigner.directory(signer));
        return keys;
    }

    /** The log both tests read: ChatGPT agent's signed hits from {@code at} on, beside Googlebot's. */
    private Path log(TestSigner chatGpt, Instant at) throws Exception {
        List<String> lines = List.of(
                signed(chatGpt, at, "/fixed", "/fixed", 404),
                signed(chatGpt, at.plusSeconds(60), "/fixed", "/fixed", 200),
                signed(chatGpt, at.plusSeconds(120), "/regressed", "/regressed", 200),
                signed(chatGpt, at.plusSeconds(180), "/regressed", "/regressed", 503),
                // signed for another path: a tampered request, spoofed, which changes no state
                signed(chatGpt, at.plusSeconds(240), "/fixed", "/admin", 503),
                signed(chatGpt, at.plusSeconds(300), "/only-spoofed", "/admin", 500),
                // unsigned hits of another crawler beside them
                SignedLines.nginx("66.249.66.1", at.plusSeconds(360), "GET", "/fixed", 404, GOOGLEBOT, HOST, null),
                SignedLines.nginx("66.249.66.1", at.plusSeconds(420), "GET", "/googlebot-only", 404, GOOGLEBOT, HOST, null));
        Path log = dir.resolve("access.log");
        Files.writeString(log, String.join("\n", lines) + "\n");
        return log;
    }

    private String signed(TestSigner by, Instant at, String path, String signedPath, int status) {
        return SignedLines.nginx(AGENT, at, "GET", path, status, SignedLines.CHROME, HOST,
                by.sign("GET", HOST, signedPath, at.getEpochSecond() - 1, at.getEpochSecond() + 300));
    }

    /** Imports {@code log} as {@code import --signature-directories keys} does: no IP list read, the keys read from files. */
    private void importLog(HitStore store, Path keys, Path log) throws Exception {
        importLog(store, keys, log, -1);
    }

    /** {@link #importLog(HitStore, Path, Path)}, checking at most {@code checkedAtEnd} signatures at its end (-1: as an import does). */
    private void importLog(HitStore store, Path keys, Path log, int checkedAtEnd) throws Exception {
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(catalog,
                IpRangeSource.parse(Files.createDirectories(dir.resolve("ranges")).toString())), null);
        verifier.signatures(new SignedHits(new WebBotAuthVerifier(new KeyDirectories(new DirectoryFiles(keys))), new Signers(catalog)));
        LogImport job = new LogImport(store, new CrawlerIdentifier(catalog), verifier, FormatChooser.of(NginxFormat.compile(SignedLines.NGINX_FORMAT)));
        if (checkedAtEnd >= 0) {
            job.settleSignaturesAtEnd(checkedAtEnd);
        }
        job.run(List.of(log.toString()), ImportListener.Factory.NONE);
    }

    private ReportServer serve(HitStore store) {
        ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC)
                .withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0));
        open.add(server::close);
        return server;
    }

    /** The rows of each scope of the DuckDB store's kept URL states, by scope. */
    private static Map<String, Long> scopes(Path file) throws Exception {
        Map<String, Long> scopes = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT scope, count(*) FROM url_scopes GROUP BY scope")) {
            while (rs.next()) {
                scopes.put(rs.getString(1), rs.getLong(2));
            }
        }
        return scopes;
    }

    /** A page as {@link EnginePages#page} reads it, and the key's time in its directory left out too. */
    private static String page(ReportServer server, String path) throws Exception {
        return EnginePages.page(server, path).replaceAll("in its directory since [0-9T:-]+Z", "in its directory since");
    }
}
