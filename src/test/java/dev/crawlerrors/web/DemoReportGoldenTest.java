package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's first report page as JSON, and its CSV export, against the golden files in
 * src/test/resources/dev/crawlerrors/web: any change a user of the API or the export would see
 * shows up here as a diff to read. The demo is generated from a fixed seed and day, so the page is
 * the same on every run.
 *
 * <p>To write the golden files again after a deliberate change, run
 * {@code mvn -o test -Dtest=DemoReportGoldenTest -Dgolden.update=true} and read the diff before committing.
 */
class DemoReportGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/dev/crawlerrors/web");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @TempDir
    static Path dir;

    static DuckDbHitStore store;
    static ReportServer server;

    @BeforeAll
    static void start() throws Exception {
        store = DemoFixture.demoStore(dir);
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withUrlNames(List.of(DemoLog.URL_NAMES)).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    @Test
    void theDemosFirstPageAsJsonIsTheGoldenOne() throws Exception {
        ObjectNode page = (ObjectNode) JSON.readTree(get("/api/crawl-errors"));
        // a row's id and the snapshot name rows of the store, numbered in the order the import's batches committed
        page.remove("at");
        page.get("rows").forEach(row -> ((ObjectNode) row).remove("id"));

        matchesGolden("demo-report.json", JSON.writeValueAsString(page) + "\n");
    }

    @Test
    void theDemosReportAsCsvIsTheGoldenOne() throws Exception {
        matchesGolden("demo-report.csv", get("/crawl-errors.csv"));
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private static void matchesGolden(String name, String actual) throws Exception {
        Path golden = GOLDEN.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, actual);
        }
        assertThat(golden).as("the golden file; -Dgolden.update=true writes it").exists();
        assertThat(actual).isEqualTo(Files.readString(golden));
    }
}
