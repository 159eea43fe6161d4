package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the tests of the network sources push lines into and read them back from: the real store
 * behind {@link PushedLines} (IP lists from a test directory, no DNS), and the report's server on
 * a loopback port.
 */
final class PushedStore implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final DuckDbHitStore store;
    final PushedLines pushed;
    private final CrawlerVerifier verifier;
    private final ReportServer report;
    private final HttpClient http = HttpClient.newHttpClient();

    PushedStore(Path dir) throws Exception {
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())), null);
        // as serve does at its start (in the background there); a line pushed before would have a provisional verdict
        verifier.lists().loadAll();
        pushed = new PushedLines(store.writer(), store.signatures(), new CrawlerIdentifier(catalog), verifier);
        report = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC"))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    int reportPort() {
        return report.port();
    }

    /** The report's JSON page for {@code query} ({@code ""} or {@code ?page=2...}). */
    JsonNode api(String query) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + report.port() + "/api/crawl-errors" + query)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** The URLs of the stored error hits, in the order they were stored. */
    List<String> storedUrls() {
        List<StoredHit> rows = new ArrayList<>();
        store.reader().forEach(HitFilter.ERRORS, rows::add);
        return rows.stream().sorted(Comparator.comparingLong(StoredHit::id)).map(StoredHit::url).toList();
    }

    @Override
    public void close() {
        report.close();
        pushed.close();
        verifier.close();
        store.close();
    }
}
