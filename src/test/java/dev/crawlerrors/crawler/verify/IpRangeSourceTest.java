package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.IpListSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import inet.ipaddr.IPAddressString;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IpRangeSourceTest {

    static final String V1 = """
            {"creationTime": "2026-11-20T23:00:47.000000",
             "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.66.0/27"},
                          {"ipv6Prefix": "2001:4860:4801:10::/64"}]}
            """;
    static final String V2 = """
            {"creationTime": "2026-11-21T23:00:47.000000",
             "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.66.0/27"},
                          {"ipv4Prefix": "66.249.70.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}
            """;
    static final Instant DAY_1 = Instant.parse("2026-11-20T10:00:00Z");
    static final Instant DAY_2 = Instant.parse("2026-11-21T10:00:00Z");
    static final String LAST_MODIFIED_1 = "Fri, 20 Nov 2026 23:05:00 GMT";

    private final IpListSpec common = CrawlerCatalog.builtIn().list("common-crawlers.json").orElseThrow();
    private final MutableClock clock = new MutableClock(DAY_1);
    private final PublishedList published = new PublishedList();

    @TempDir
    Path temp;

    private Path cacheDir;
    private HttpServer server;
    private String base;
    private String url;

    @BeforeEach
    void startServer() throws IOException {
        cacheDir = temp.resolve("crawl-errors.duckdb.ip-ranges");
        published.publish(200, V1, "\"v1\"", LAST_MODIFIED_1);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/lists/", published::answer);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort() + "/lists/";
        url = base + "common-crawlers.json";
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private IpRangeSource cached() {
        return IpRangeSource.parse(base, cacheDir, clock);
    }

    @Test
    void firstLoadDownloadsTheListAndCachesItWithItsMetadata() throws Exception {
        IpRangeList list = cached().load(common);

        assertThat(list.prefixCount()).isEqualTo(3);
        assertThat(list.creationTime()).isEqualTo("2026-11-20T23:00:47.000000");
        assertThat(list.origin()).isEqualTo(url);
        assertThat(list.fetchedAt()).isEqualTo(DAY_1);
        assertThat(list.checkedAt()).isEqualTo(DAY_1);
        assertThat(list.stale()).isFalse();
        assertThat(list.staleBecause()).isEmpty();
        assertThat(published.requests).singleElement().isEqualTo(new Request(null, null, 200));
        assertThat(Files.readString(cacheDir.resolve("common-crawlers.json"))).isEqualTo(V1);
        JsonNode meta = metadata();
        assertThat(meta.path("url").asText()).isEqualTo(url);
        assertThat(meta.path("etag").asText()).isEqualTo("\"v1\"");
        assertThat(meta.path("lastModified").asText()).isEqualTo(LAST_MODIFIED_1);
        assertThat(meta.path("fetchedAt").asText()).isEqualTo("2026-11-20T10:00:00Z");
        assertThat(meta.path("checkedAt").asText()).isEqualTo("2026-11-20T10:00:00Z");
        assertThat(meta.path("sha256").asText()).isEqualTo(CachedIpList.sha256(V1.getBytes(StandardCharsets.UTF_8)));
        try (var files = Files.list(cacheDir)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted())
                    .as("no temporary file is left behind")
                    .containsExactly("common-crawlers.json", "common-crawlers.json.meta.json");
        }
    }

    @Test
    void theCacheBesideTheStoreIsItsOwnersOnlyWhateverTheUmask() throws Exception {
        try (dev.crawlerrors.store.Umask careless = dev.crawlerrors.store.Umask.of(0)) {
            cached().load(common);
        }

        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir))).isEqualTo("rwx------");
        try (var files = Files.list(cacheDir)) {
            assertThat(files.map(f -> {
                try {
                    return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            })).containsOnly("rw-------");
        }
    }

    @Test
    void secondLoadSendsTheEtagAndKeepsTheCachedCopyWhenTheServerAnswersNotModified() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        FileTime written = Files.getLastModifiedTime(cacheDir.resolve("common-crawlers.json"));
        clock.set(DAY_2);

        IpRangeList list = source.load(common);

        assertThat(published.requests).containsExactly(
                new Request(null, null, 200), new Request("\"v1\"", LAST_MODIFIED_1, 304));
        assertThat(list.prefixCount()).isEqualTo(3);
        assertThat(list.prefixContaining(address("66.249.66.12"))).contains("66.249.66.0/27");
        assertThat(list.fetchedAt()).isEqualTo(DAY_1);
        assertThat(list.checkedAt()).isEqualTo(DAY_2);
        assertThat(list.stale()).isFalse();
        assertThat(metadata().path("checkedAt").asText()).isEqualTo("2026-11-21T10:00:00Z");
        assertThat(metadata().path("fetchedAt").asText()).isEqualTo("2026-11-20T10:00:00Z");
        assertThat(Files.getLastModifiedTime(cacheDir.resolve("common-crawlers.json")))
                .as("the list file is not rewritten").isEqualTo(written);
    }

    @Test
    void revalidatesWithLastModifiedWhenTheServerSendsNoEtag() throws Exception {
        published.publish(200, V1, null, LAST_MODIFIED_1);
        IpRangeSource source = cached();
        source.load(common);
        clock.set(DAY_2);

        IpRangeList list = source.load(common);

        assertThat(published.requests).containsExactly(
                new Request(null, null, 200), new Request(null, LAST_MODIFIED_1, 304));
        assertThat(list.checkedAt()).isEqualTo(DAY_2);
        assertThat(metadata().path("etag").isNull()).isTrue();
    }

    @Test
    void aChangedListReplacesTheCachedCopy() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(200, V2, "\"v2\"", "Sat, 21 Nov 2026 23:05:00 GMT");
        clock.set(DAY_2);

        IpRangeList list = source.load(common);

        assertThat(published.requests).last().isEqualTo(new Request("\"v1\"", LAST_MODIFIED_1, 200));
        assertThat(list.prefixContaining(address("66.249.70.9"))).contains("66.249.70.0/27");
        assertThat(list.prefixCount()).isEqualTo(4);
        assertThat(list.fetchedAt()).isEqualTo(DAY_2);
        assertThat(Files.readString(cacheDir.resolve("common-crawlers.json"))).isEqualTo(V2);
        assertThat(metadata().path("etag").asText()).isEqualTo("\"v2\"");
        assertThat(metadata().path("fetchedAt").asText()).isEqualTo("2026-11-21T10:00:00Z");
    }

    @Test
    void aServerErrorFallsBackToTheLastGoodCopyAndSaysWhy() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(500, "oops", null, null);
        clock.set(DAY_2);

        IpRangeList list = source.load(common);

        assertThat(list.stale()).isTrue();
        assertThat(list.staleBecause()).isEqualTo("refresh failed at 2026-11-21T10:00Z: " + url
                + " answered HTTP 500; using the copy fetched 2026-11-20T10:00Z");
        assertThat(list.prefixContaining(address("66.249.64.3"))).contains("66.249.64.0/27");
        assertThat(list.fetchedAt()).isEqualTo(DAY_1);
        assertThat(list.checkedAt()).as("a failed refresh confirms nothing").isEqualTo(DAY_1);
        assertThat(metadata().path("checkedAt").asText()).isEqualTo("2026-11-20T10:00:00Z");
    }

    @Test
    void aRefusedConnectionFallsBackToTheLastGoodCopyAndSaysWhy() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        server.stop(0);
        clock.set(DAY_2);

        IpRangeList list = source.load(common);

        assertThat(list.stale()).isTrue();
        assertThat(list.staleBecause()).isEqualTo("refresh failed at 2026-11-21T10:00Z: " + url
                + " could not be fetched: connection refused; using the copy fetched 2026-11-20T10:00Z");
        assertThat(list.prefixCount()).isEqualTo(3);
    }

    @Test
    void aRefreshThatIsNotJsonLeavesTheGoodCopyInPlace() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(200, "<html>maintenance</html>", "\"broken\"", null);
        clock.set(DAY_2);

        IpRangeList list = source.load(common);

        assertThat(list.staleBecause()).startsWith("refresh refused at 2026-11-21T10:00Z: common-crawlers.json from " + url
                + " is not JSON: ").endsWith("; using the copy fetched 2026-11-20T10:00Z");
        assertThat(list.prefixCount()).isEqualTo(3);
        assertThat(Files.readString(cacheDir.resolve("common-crawlers.json"))).isEqualTo(V1);
        assertThat(metadata().path("etag").asText()).isEqualTo("\"v1\"");
    }

    @Test
    void aRefreshWithoutPrefixesLeavesTheGoodCopyInPlace() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(200, "{\"creationTime\": \"2026-11-21T23:00:47.000000\"}", "\"empty\"", null);
        clock.set(DAY_2);

        IpRangeList list = source.load(common);

        assertThat(list.staleBecause()).isEqualTo("refresh refused at 2026-11-21T10:00Z: common-crawlers.json from " + url
                + " has no \"prefixes\" array; using the copy fetched 2026-11-20T10:00Z");
        assertThat(Files.readString(cacheDir.resolve("common-crawlers.json"))).isEqualTo(V1);
        assertThat(metadata().path("etag").asText()).isEqualTo("\"v1\"");
    }

    @Test
    void anEmptyRefreshIsRefusedLoudlyAndTheGoodCopyKept() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(200, "{\"creationTime\": \"2026-11-21T23:00:47.000000\", \"prefixes\": []}", "\"empty\"", null);
        clock.set(DAY_2);

        String[] log = new String[1];
        IpRangeList list = withStandardError(log, () -> source.load(common));

        String note = "refresh refused at 2026-11-21T10:00Z: common-crawlers.json from " + url
                + " lists no address prefixes (it is empty); using the copy fetched 2026-11-20T10:00Z";
        assertThat(list.staleBecause()).isEqualTo(note);
        assertThat(list.prefixContaining(address("66.249.66.1"))).contains("66.249.66.0/27");
        assertThat(log[0]).contains(" WARN dev.crawlerrors.crawler.verify.IpRangeSource - IP list common-crawlers.json: " + note);
        assertThat(Files.readString(cacheDir.resolve("common-crawlers.json"))).isEqualTo(V1);
        assertThat(metadata().path("etag").asText()).isEqualTo("\"v1\"");
    }

    @Test
    void aRefreshUnderUnknownKeysIsRefusedAndTheGoodCopyKept() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(200, "{\"prefixes\": [{\"ip\": \"66.249.64.0/19\"}]}", "\"odd\"", null);
        clock.set(DAY_2);

        IpRangeList list = withStandardError(new String[1], () -> source.load(common));

        assertThat(list.staleBecause()).startsWith("refresh refused at 2026-11-21T10:00Z: common-crawlers.json from " + url
                + " lists no address prefixes it can read");
        assertThat(list.prefixCount()).isEqualTo(3);
    }

    @Test
    void aRefreshThatWouldVerifyEveryAddressIsRefused() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(200, "{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/27\"}, {\"ipv4Prefix\": \"0.0.0.0/0\"},"
                + " {\"ipv6Prefix\": \"2001:4860:4801:10::/64\"}]}", "\"all\"", null);
        clock.set(DAY_2);

        IpRangeList list = withStandardError(new String[1], () -> source.load(common));

        assertThat(list.staleBecause()).startsWith("refresh refused at 2026-11-21T10:00Z: common-crawlers.json from " + url
                + " lists 0.0.0.0/0, broader than /8");
        assertThat(list.prefixContaining(address("203.0.113.9"))).isEmpty();
    }

    @Test
    void aRefreshFarSmallerThanTheCopyInUseIsRefused() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(200, "{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/27\"}]}", "\"small\"", null);
        clock.set(DAY_2);

        IpRangeList list = withStandardError(new String[1], () -> source.load(common));

        assertThat(list.staleBecause()).isEqualTo("refresh refused at 2026-11-21T10:00Z: common-crawlers.json from " + url
                + " lists 1 prefix, fewer than half of the 3 in the copy fetched 2026-11-20T10:00Z; using the copy fetched 2026-11-20T10:00Z");
        assertThat(list.prefixContaining(address("66.249.66.1"))).contains("66.249.66.0/27");
    }

    @Test
    void withNeitherDownloadNorCacheTheReleaseSnapshotStandsInWithItsDate() throws Exception {
        Path snapshotDir = temp.resolve("snapshot");
        new IpListSnapshotWriter(IpRangeSource.parse(base), new ListFetcher(), clock).refill(List.of(common), snapshotDir);
        server.stop(0);
        clock.set(DAY_2);
        IpRangeSource source = IpRangeSource.parse(base, cacheDir, clock, IpListSnapshot.in(snapshotDir), new ListFetcher());

        IpRangeList list = source.load(common);

        assertThat(list.staleBecause()).isEqualTo("refresh failed at 2026-11-21T10:00Z: " + url
                + " could not be fetched: connection refused; using the release snapshot taken 2026-11-20 (fetched 2026-11-20T10:00Z)");
        assertThat(list.prefixContaining(address("66.249.66.1"))).contains("66.249.66.0/27");
        assertThat(list.fetchedAt()).isEqualTo(DAY_1);
        assertThat(list.dated()).isEqualTo("created 2026-11-20, a stale copy last confirmed 2026-11-20");
    }

    @Test
    void aReleaseSnapshotNewerThanTheCachedCopyIsPreferred() throws Exception {
        cached().load(common);
        clock.set(DAY_2);
        published.publish(200, V2, "\"v2\"", null);
        Path snapshotDir = temp.resolve("snapshot");
        new IpListSnapshotWriter(IpRangeSource.parse(base), new ListFetcher(), clock).refill(List.of(common), snapshotDir);
        server.stop(0);
        clock.set(DAY_2.plus(Duration.ofDays(1)));
        IpRangeSource source = IpRangeSource.parse(base, cacheDir, clock, IpListSnapshot.in(snapshotDir), new ListFetcher());

        IpRangeList list = source.load(common);

        assertThat(list.prefixCount()).as("the snapshot's V2, fetched a day after the cached V1").isEqualTo(4);
        assertThat(list.staleBecause()).endsWith("; using the release snapshot taken 2026-11-21 (fetched 2026-11-21T10:00Z)");
    }

    @Test
    void withoutACachedCopyAFailureThrowsNamingTheUrl() {
        published.publish(500, "oops", null, null);

        assertThatThrownBy(() -> cached().load(common))
                .isInstanceOf(IOException.class)
                .hasMessage(url + " answered HTTP 500");
        assertThat(cacheDir).doesNotExist();
    }

    @Test
    void withoutACachedCopyARefusedConnectionThrowsNamingTheUrl() {
        server.stop(0);

        assertThatThrownBy(() -> cached().load(common))
                .isInstanceOf(IOException.class)
                .hasMessage(url + " could not be fetched: connection refused");
    }

    @Test
    void aRestartWithTheServerDownStillLoadsTheCachedCopy() throws Exception {
        cached().load(common);
        server.stop(0);
        clock.set(DAY_2);

        IpRangeList list = cached().load(common);

        assertThat(list.prefixContaining(address("2001:4860:4801:10::1a"))).contains("2001:4860:4801:10::/64");
        assertThat(list.creationTime()).isEqualTo("2026-11-20T23:00:47.000000");
        assertThat(list.origin()).isEqualTo(url);
        assertThat(list.fetchedAt()).isEqualTo(DAY_1);
        assertThat(list.staleBecause()).startsWith("refresh failed at 2026-11-21T10:00Z: " + url + " could not be fetched: ");
    }

    @Test
    void aRestartRevalidatesTheCachedCopyWithItsEtag() throws Exception {
        cached().load(common);
        clock.set(DAY_2);

        IpRangeList list = cached().load(common);

        assertThat(published.requests).last().isEqualTo(new Request("\"v1\"", LAST_MODIFIED_1, 304));
        assertThat(list.prefixCount()).isEqualTo(3);
        assertThat(list.checkedAt()).isEqualTo(DAY_2);
    }

    @Test
    void aCopyCachedFromAnotherAddressIsNotUsedForThisOne() throws Exception {
        cached().load(common);
        IpRangeSource elsewhere = IpRangeSource.parse("http://127.0.0.1:" + server.getAddress().getPort() + "/mirror/", cacheDir, clock);

        assertThatThrownBy(() -> elsewhere.load(common))
                .hasMessage("http://127.0.0.1:" + server.getAddress().getPort() + "/mirror/common-crawlers.json answered HTTP 404");
        assertThat(Files.readString(cacheDir.resolve("common-crawlers.json"))).isEqualTo(V1);
    }

    @Test
    void aListFileThatNoLongerMatchesItsMetadataIsDownloadedWhole() throws Exception {
        cached().load(common);
        // As if the process died between moving the list and moving its metadata.
        Files.writeString(cacheDir.resolve("common-crawlers.json"), V2);

        IpRangeList list = cached().load(common);

        assertThat(published.requests).last().isEqualTo(new Request(null, null, 200));
        assertThat(list.prefixCount()).isEqualTo(3);
        assertThat(Files.readString(cacheDir.resolve("common-crawlers.json"))).isEqualTo(V1);
    }

    @Test
    void aCacheThatCannotBeWrittenDoesNotCostTheFreshList() throws Exception {
        Files.writeString(cacheDir, "a file where the cache directory should be");

        IpRangeList list = cached().load(common);

        assertThat(list.prefixCount()).isEqualTo(3);
        assertThat(list.stale()).isFalse();
    }

    @Test
    void aListIsDueOnceTheIntervalHasPassedSinceItWasLastConfirmed() throws Exception {
        IpRangeSource source = cached();
        IpRangeList list = source.load(common);

        clock.set(DAY_1.plus(Duration.ofHours(23)));
        assertThat(source.isDue(list, Duration.ofDays(1))).isFalse();
        clock.set(DAY_2);
        assertThat(source.isDue(list, Duration.ofDays(1))).isTrue();
    }

    @Test
    void aStaleListStaysDue() throws Exception {
        IpRangeSource source = cached();
        source.load(common);
        published.publish(500, "oops", null, null);
        clock.set(DAY_2);

        IpRangeList stale = source.load(common);

        assertThat(source.isDue(stale, Duration.ofDays(1))).isTrue();
    }

    @Test
    void describesTheListInOneLine() throws Exception {
        IpRangeSource source = cached();
        assertThat(source.load(common).describe()).isEqualTo(
                "common-crawlers.json: 3 prefixes, created 2026-11-20T23:00:47, fetched 2026-11-20T10:00Z from " + url);

        clock.set(DAY_2);
        assertThat(source.load(common).describe()).isEqualTo(
                "common-crawlers.json: 3 prefixes, created 2026-11-20T23:00:47, fetched 2026-11-20T10:00Z from " + url
                        + ", confirmed current 2026-11-21T10:00Z");

        published.publish(503, "down", null, null);
        clock.set(DAY_2.plus(Duration.ofDays(1)));
        assertThat(source.load(common).describe()).isEqualTo(
                "common-crawlers.json: 3 prefixes, created 2026-11-20T23:00:47, fetched 2026-11-20T10:00Z from " + url
                        + ", confirmed current 2026-11-21T10:00Z; stale: refresh failed at 2026-11-22T10:00Z: " + url
                        + " answered HTTP 503; using the copy fetched 2026-11-20T10:00Z");
    }

    @Test
    void aDirectoryListIsDatedByItsFileAndNotCached() throws Exception {
        Path dir = Files.createDirectory(temp.resolve("lists"));
        Path file = dir.resolve("common-crawlers.json");
        Files.writeString(file, V1);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-11-19T08:30:00Z")));
        IpRangeSource source = IpRangeSource.parse(dir.toString(), cacheDir, clock);

        IpRangeList list = source.load(common);

        assertThat(list.fetchedAt()).isEqualTo(Instant.parse("2026-11-19T08:30:00Z"));
        assertThat(list.checkedAt()).isEqualTo(DAY_1);
        assertThat(list.describe()).isEqualTo("common-crawlers.json: 3 prefixes, created 2026-11-20T23:00:47, "
                + "modified 2026-11-19T08:30Z, read from " + file);
        assertThat(source.cacheDirectory()).isEmpty();
        assertThat(cacheDir).doesNotExist();
    }

    @Test
    void theCacheLivesBesideTheStore() {
        assertThat(IpListCache.besideStore(Path.of("./crawl-errors.duckdb")))
                .isEqualTo(Path.of("./crawl-errors.duckdb.ip-ranges"));
        assertThat(IpListCache.besideStore(Path.of("/var/lib/crawl-errors/site.duckdb")))
                .isEqualTo(Path.of("/var/lib/crawl-errors/site.duckdb.ip-ranges"));
        assertThat(IpRangeSource.official(Path.of("/tmp/x.ip-ranges")).cacheDirectory()).contains(Path.of("/tmp/x.ip-ranges"));
    }

    /** What {@code load} returns, with what was written to standard error meanwhile (the simple logger's target) in {@code log[0]}. */
    private static IpRangeList withStandardError(String[] log, Load load) throws IOException {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            return load.run();
        } finally {
            System.setErr(original);
            log[0] = captured.toString(StandardCharsets.UTF_8);
        }
    }

    private interface Load {
        IpRangeList run() throws IOException;
    }

    private JsonNode metadata() throws IOException {
        return new ObjectMapper().readTree(cacheDir.resolve("common-crawlers.json.meta.json").toFile());
    }

    private static inet.ipaddr.IPAddress address(String ip) {
        return new IPAddressString(ip).getAddress();
    }

    /** A request as the server saw it: the validators it carried and the status it got. */
    record Request(String ifNoneMatch, String ifModifiedSince, int status) {
    }

    /** The list the server publishes, answering conditional requests as a real server would. */
    static final class PublishedList {

        private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

        final List<Request> requests = new CopyOnWriteArrayList<>();
        private volatile int status;
        private volatile String body;
        private volatile String etag;
        private volatile String lastModified;

        void publish(int status, String body, String etag, String lastModified) {
            this.status = status;
            this.body = body;
            this.etag = etag;
            this.lastModified = lastModified;
        }

        void answer(HttpExchange exchange) throws IOException {
            String ifNoneMatch = exchange.getRequestHeaders().getFirst("If-None-Match");
            String ifModifiedSince = exchange.getRequestHeaders().getFirst("If-Modified-Since");
            int answer = status;
            if (status == 200 && notModified(ifNoneMatch, ifModifiedSince)) {
                answer = 304;
            }
            requests.add(new Request(ifNoneMatch, ifModifiedSince, answer));
            if (etag != null) {
                exchange.getResponseHeaders().set("ETag", etag);
            }
            if (lastModified != null) {
                exchange.getResponseHeaders().set("Last-Modified", lastModified);
            }
            if (answer == 304) {
                exchange.sendResponseHeaders(304, -1);
            } else {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(answer, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        }

        // RFC 9110 13.1.3: If-None-Match wins when present; If-Modified-Since only counts without it.
        private boolean notModified(String ifNoneMatch, String ifModifiedSince) {
            if (ifNoneMatch != null) {
                return ifNoneMatch.equals(etag);
            }
            if (ifModifiedSince != null && lastModified != null) {
                return !ZonedDateTime.parse(lastModified, HTTP_DATE).isAfter(ZonedDateTime.parse(ifModifiedSince, HTTP_DATE));
            }
            return false;
        }
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {

        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
