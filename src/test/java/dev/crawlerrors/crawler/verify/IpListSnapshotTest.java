package dev.crawlerrors.crawler.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.crawlerrors.MutableClock;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.IpListSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The release's dated copy of the lists: refilled from a local list host with test data, read back, and the jar's own. */
class IpListSnapshotTest {

    private static final String COMMON = "{\"creationTime\":\"2026-11-20T23:00:47.000000\",\"prefixes\":["
            + "{\"ipv4Prefix\":\"66.249.64.0/27\"},{\"ipv4Prefix\":\"66.249.66.0/27\"},{\"ipv4Prefix\":\"66.249.68.0/27\"}]}";
    private static final String BING = "{\"creationTime\":\"2026-11-19T00:00:00\",\"prefixes\":[{\"ipv4Prefix\":\"157.55.39.0/24\"}]}";

    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();
    private final List<IpListSpec> lists = List.of(catalog.list("common-crawlers.json").orElseThrow(),
            catalog.list("bingbot.json").orElseThrow());
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-20T10:00:00Z"));
    private final Map<String, String> published = new ConcurrentHashMap<>();

    @TempDir
    Path temp;

    private HttpServer server;
    private String base;

    @BeforeEach
    void start() throws IOException {
        published.put("common-crawlers.json", COMMON);
        published.put("bingbot.json", BING);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = published.get(exchange.getRequestURI().getPath().substring(1));
            if (body == null) {
                exchange.sendResponseHeaders(404, -1);
            } else {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private List<IpListSnapshotWriter.Outcome> refill(Path dir) throws IOException {
        return new IpListSnapshotWriter(IpRangeSource.parse(base), new ListFetcher(), clock).refill(lists, dir);
    }

    @Test
    void aRefillWritesEveryListAndDatesItInTheManifest() throws Exception {
        Path dir = temp.resolve("ip-ranges");

        List<IpListSnapshotWriter.Outcome> outcomes = refill(dir);

        assertThat(outcomes).extracting(IpListSnapshotWriter.Outcome::line).containsExactly(
                "common-crawlers.json: 3 prefixes, created 2026-11-20T23:00:47.000000, fetched from " + base + "common-crawlers.json",
                "bingbot.json: 1 prefix, created 2026-11-19T00:00:00, fetched from " + base + "bingbot.json");
        assertThat(Files.readString(dir.resolve("common-crawlers.json"))).isEqualTo(COMMON);
        JsonNode manifest = new ObjectMapper().readTree(dir.resolve("snapshot.json").toFile());
        assertThat(manifest.path("takenAt").asText()).isEqualTo("2026-11-20T10:00:00Z");
        assertThat(manifest.path("lists").get(1).path("name").asText()).isEqualTo("bingbot.json");
        assertThat(manifest.path("lists").get(1).path("sha256").asText())
                .isEqualTo(CachedIpList.sha256(BING.getBytes(StandardCharsets.UTF_8)));

        IpListSnapshot snapshot = IpListSnapshot.in(dir);
        assertThat(snapshot.takenAt()).contains(Instant.parse("2026-11-20T10:00:00Z"));
        assertThat(snapshot.names()).containsExactly("common-crawlers.json", "bingbot.json");
        assertThat(new String(snapshot.copy("bingbot.json").orElseThrow().body(), StandardCharsets.UTF_8)).isEqualTo(BING);
    }

    @Test
    void aListThatCannotBeHadKeepsItsPreviousCopyAndDate() throws Exception {
        Path dir = temp.resolve("ip-ranges");
        refill(dir);
        clock.set(Instant.parse("2026-12-01T10:00:00Z"));
        published.put("bingbot.json", "{\"prefixes\": []}");
        published.remove("common-crawlers.json");

        List<IpListSnapshotWriter.Outcome> outcomes = refill(dir);

        assertThat(outcomes).extracting(IpListSnapshotWriter.Outcome::kept).containsExactly(true, true);
        assertThat(outcomes.get(1).line()).isEqualTo("bingbot.json: not refreshed (bingbot.json from " + base
                + "bingbot.json lists no address prefixes (it is empty)); the snapshot keeps its copy fetched 2026-11-20T10:00Z");
        IpListSnapshot snapshot = IpListSnapshot.in(dir);
        assertThat(snapshot.takenAt()).contains(Instant.parse("2026-12-01T10:00:00Z"));
        assertThat(snapshot.copy("bingbot.json").orElseThrow().fetchedAt()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z"));
        assertThat(Files.readString(dir.resolve("bingbot.json"))).isEqualTo(BING);
    }

    @Test
    void aRefillFarSmallerThanTheSnapshotsCopyIsRefused() throws Exception {
        Path dir = temp.resolve("ip-ranges");
        refill(dir);
        published.put("common-crawlers.json", "{\"prefixes\":[{\"ipv4Prefix\":\"66.249.64.0/27\"}]}");

        List<IpListSnapshotWriter.Outcome> outcomes = refill(dir);

        assertThat(outcomes.get(0).kept()).isTrue();
        assertThat(outcomes.get(0).line()).contains("lists 1 prefix, fewer than half of the 3 in the snapshot's copy of 2026-11-20T10:00Z");
        assertThat(Files.readString(dir.resolve("common-crawlers.json"))).isEqualTo(COMMON);
    }

    @Test
    void aListMissingEverywhereIsReportedAsMissing() throws Exception {
        published.remove("bingbot.json");

        List<IpListSnapshotWriter.Outcome> outcomes = refill(temp.resolve("ip-ranges"));

        assertThat(outcomes.get(1).fresh()).isFalse();
        assertThat(outcomes.get(1).kept()).isFalse();
        assertThat(outcomes.get(1).line()).isEqualTo("bingbot.json: not in the snapshot (" + base + "bingbot.json answered HTTP 404)");
    }

    @Test
    void aCopyWhoseBytesAreNotTheDatedOnesIsNotUsed() throws Exception {
        Path dir = temp.resolve("ip-ranges");
        refill(dir);
        Files.writeString(dir.resolve("bingbot.json"), BING.replace("157.55.39.0/24", "0.0.0.0/1"));

        IpListSnapshot snapshot = IpListSnapshot.in(dir);

        assertThatThrownBy(() -> snapshot.copy("bingbot.json"))
                .hasMessage("the release snapshot's bingbot.json is not the copy its manifest dates (SHA-256 differs)");
    }

    @Test
    void theJarsSnapshotIsReadableAndNamesOnlyListsOfTheCatalog() {
        IpListSnapshot bundled = IpListSnapshot.bundled();

        assertThat(catalog.lists()).extracting(IpListSpec::name).containsAll(bundled.names());
        for (String name : bundled.names()) {
            assertThat(bundled.takenAt()).isPresent();
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> bundled.copy(name))).as(name).isNull();
        }
    }
}
