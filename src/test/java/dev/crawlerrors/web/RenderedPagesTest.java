package dev.crawlerrors.web;

import static dev.crawlerrors.crawler.SampleHits.SPOOFED;
import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Report pages rendered once and shared: the same address at the same newest snapshot is rendered
 * once whoever asks, and no reader ever gets an answer older than the newest snapshot it could have
 * seen (the real store, the real server on loopback, a writer committing while readers read).
 */
class RenderedPagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long START = Instant.parse("2026-10-14T08:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static RenderedPages.Rendered rendered(String text) {
        return new RenderedPages.Rendered(text.getBytes(StandardCharsets.UTF_8), true);
    }

    @Test
    void anAddressIsRenderedOnceASnapshotAndAgainWhenTheSnapshotMoves() {
        RenderedPages pages = new RenderedPages(1 << 20);
        AtomicReference<Snapshot> newest = new AtomicReference<>(new Snapshot(10, 1));
        AtomicInteger renders = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            byte[] body = pages.answer("json", "page=1", newest::get, () -> rendered("at 10 #" + renders.incrementAndGet()));
            assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("at 10 #1");
        }
        newest.set(new Snapshot(11, 1));
        assertThat(new String(pages.answer("json", "page=1", newest::get, () -> rendered("at 11")), StandardCharsets.UTF_8))
                .as("a new snapshot is never answered from the old one's page").isEqualTo("at 11");
        newest.set(new Snapshot(11, 2));
        assertThat(new String(pages.answer("json", "page=1", newest::get, () -> rendered("verdicts 2")), StandardCharsets.UTF_8))
                .as("changed verdicts are a new snapshot too").isEqualTo("verdicts 2");
        assertThat(new String(pages.answer("html", "page=1", newest::get, () -> rendered("html")), StandardCharsets.UTF_8))
                .as("each kind its own").isEqualTo("html");
    }

    @Test
    void aPageKeptWhenAskedAgainIsRenderedTwiceThenKeptAndAgainAtANewSnapshot() {
        RenderedPages pages = new RenderedPages(1 << 20);
        AtomicReference<Snapshot> newest = new AtomicReference<>(new Snapshot(10, 1));
        AtomicInteger renders = new AtomicInteger();
        Supplier<RenderedPages.Rendered> render = () -> new RenderedPages.Rendered(("#" + renders.incrementAndGet()).getBytes(StandardCharsets.UTF_8),
                true, true);
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.add(new String(pages.answer("html", "status=404&page=1", newest::get, render), StandardCharsets.UTF_8));
        }
        assertThat(answers).as("made when first asked, made and kept when asked again").containsExactly("#1", "#2", "#2", "#2");
        assertThat(pages.footprint()[0]).isEqualTo(1);
        newest.set(new Snapshot(11, 1));
        assertThat(new String(pages.answer("html", "status=404&page=1", newest::get, render), StandardCharsets.UTF_8)).isEqualTo("#3");
        assertThat(new String(pages.answer("html", "status=404&page=1", newest::get, render), StandardCharsets.UTF_8)).isEqualTo("#4");
        assertThat(new String(pages.answer("html", "status=404&page=1", newest::get, render), StandardCharsets.UTF_8)).isEqualTo("#4");
        // addresses asked once each, more than are remembered: none kept; the first of them is new again
        for (int a = 0; a <= RenderedPages.ASKED; a++) {
            pages.answer("html", "status=404&page=" + (a + 2), newest::get, render);
        }
        assertThat(pages.footprint()[0]).as("answers kept").isEqualTo(2);
        int before = renders.get();
        pages.answer("html", "status=404&page=2", newest::get, render);
        pages.answer("html", "status=404&page=2", newest::get, render);
        assertThat(renders.get() - before).as("an address asked before the last " + RenderedPages.ASKED + " is made twice again").isEqualTo(2);
    }

    @Test
    void aStalePageIsAnsweredUntilItsReplacementIsRenderedAndKeptNoReaderWaitingForIt() throws Exception {
        RenderedPages pages = new RenderedPages(1 << 20);
        Snapshot at = new Snapshot(10, 1);
        AtomicBoolean counted = new AtomicBoolean();
        AtomicInteger renders = new AtomicInteger();
        Supplier<RenderedPages.Rendered> counting = () -> new RenderedPages.Rendered(
                ("counting #" + renders.incrementAndGet()).getBytes(StandardCharsets.UTF_8), true, false, counted::get);
        // rendered ahead of any reader, in both forms
        assertThat(pages.answer("json", "in_sitemap=yes", () -> at, counting, true, true).gzipped()).isTrue();
        for (boolean gzip : new boolean[] {true, false}) {
            RenderedPages.Answer answer = pages.answer("json", "in_sitemap=yes", () -> at, counting, gzip);
            assertThat(answer.gzipped()).isEqualTo(gzip);
        }
        assertThat(new String(pages.answer("json", "in_sitemap=yes", () -> at, counting), StandardCharsets.UTF_8)).isEqualTo("counting #1");
        assertThat(renders).as("kept while not stale").hasValue(1);

        // stale: a reader is answered the kept page at once while its replacement is rendered behind it (held here until
        // let go); the readers after it too, none rendering it again
        counted.set(true);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger replacements = new AtomicInteger();
        Supplier<RenderedPages.Rendered> replacement = () -> {
            replacements.incrementAndGet();
            try {
                letGo.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return rendered("counted");
        };
        long hits = pages.footprint()[2];
        long misses = pages.footprint()[3];
        for (boolean gzip : new boolean[] {false, true, false}) {
            RenderedPages.Answer answer = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> pages.answer("json", "in_sitemap=yes", () -> at, replacement, gzip));
            assertThat(answer.gzipped()).isEqualTo(gzip);
            assertThat(text(answer)).as("the stale page, while its replacement is rendered").isEqualTo("counting #1");
        }
        letGo.countDown();
        Waits.await("the replacement kept").until(() -> new String(pages.answer("json", "in_sitemap=yes", () -> at, () -> rendered("again")),
                StandardCharsets.UTF_8).equals("counted"));
        assertThat(replacements).as("rendered once, behind the first reader who found it stale").hasValue(1);
        long[] footprint = pages.footprint();
        assertThat(footprint[3]).as("no reader rendered it").isEqualTo(misses);
        assertThat(footprint[2]).as("every reader found an answer kept").isGreaterThanOrEqualTo(hits + 4);
        assertThat(footprint[0]).as("one answer kept").isEqualTo(1);
        assertThat(footprint[4]).as("rendered twice").isEqualTo(2);
    }

    /** An answer's text, unzipped when gzipped. */
    private static String text(RenderedPages.Answer answer) throws java.io.IOException {
        if (!answer.gzipped()) {
            return new String(answer.body(), StandardCharsets.UTF_8);
        }
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(answer.body()))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void serveRendersAStalePageAheadItselfAndKeepsItInItsPlace() throws Exception {
        RenderedPages pages = new RenderedPages(1 << 20);
        Snapshot at = new Snapshot(10, 1);
        AtomicBoolean counted = new AtomicBoolean();
        pages.answer("json", "in_sitemap=no", () -> at, () -> new RenderedPages.Rendered("counting".getBytes(StandardCharsets.UTF_8), true,
                false, counted::get), true, true);
        counted.set(true);
        RenderedPages.Answer ahead = pages.answer("json", "in_sitemap=no", () -> at, () -> rendered("counted"), true, true);
        assertThat(text(ahead)).as("rendered now, for serve's own look").isEqualTo("counted");
        assertThat(new String(pages.answer("json", "in_sitemap=no", () -> at, () -> rendered("again")), StandardCharsets.UTF_8))
                .as("the page serve rendered, kept in the stale one's place").isEqualTo("counted");
        assertThat(pages.footprint()[4]).as("rendered twice").isEqualTo(2);
        assertThat(pages.footprint()[5]).as("both ahead").isEqualTo(2);
    }

    @Test
    void aPageWhoseSnapshotMovedWhileItWasRenderedOrThatSaysNotToIsNotKept() {
        RenderedPages pages = new RenderedPages(1 << 20);
        AtomicReference<Snapshot> newest = new AtomicReference<>(new Snapshot(10, 1));
        pages.answer("json", "a", newest::get, () -> {
            newest.set(new Snapshot(12, 1)); // a commit lands while the page is made
            return rendered("made across a commit");
        });
        newest.set(new Snapshot(10, 1));
        assertThat(new String(pages.answer("json", "a", newest::get, () -> rendered("fresh")), StandardCharsets.UTF_8)).isEqualTo("fresh");
        pages.answer("html", "b", newest::get, () -> new RenderedPages.Rendered("no summary yet".getBytes(StandardCharsets.UTF_8), false));
        assertThat(new String(pages.answer("html", "b", newest::get, () -> rendered("with summary")), StandardCharsets.UTF_8))
                .isEqualTo("with summary");
    }

    @Test
    void keptPagesStayWithinTheirBytesTheEldestOutFirst() {
        long budget = 10_000;
        RenderedPages pages = new RenderedPages(budget);
        Snapshot at = new Snapshot(5, 0);
        AtomicInteger renders = new AtomicInteger();
        Random random = new Random(1);
        for (int i = 0; i < 100; i++) {
            byte[] noise = new byte[1_000]; // gzip does not shrink it
            random.nextBytes(noise);
            pages.answer("json", "page=" + i, () -> at, () -> {
                renders.incrementAndGet();
                return new RenderedPages.Rendered(noise, true);
            }, i % 2 == 0);
            assertThat(pages.footprint()[1]).as("bytes kept after page " + i).isLessThanOrEqualTo(budget);
        }
        assertThat(pages.footprint()[0]).isBetween(4L, 8L);
        pages.answer("json", "page=99", () -> at, () -> rendered("again"));
        assertThat(renders).as("the newest kept").hasValue(100);
        assertThat(new String(pages.answer("json", "page=0", () -> at, () -> rendered("again")), StandardCharsets.UTF_8))
                .as("the eldest let go").isEqualTo("again");
        assertThat(new RenderedPages(0).answer("json", "p", () -> at, () -> rendered("none kept"))).isNotEmpty();
    }

    @Test
    void keptAnswersAreGzippedForReadersWhoAcceptItAndTheSameBytesForThoseWhoDoNot() throws Exception {
        RenderedPages pages = new RenderedPages(1 << 20);
        Snapshot at = new Snapshot(3, 0);
        String page = "{\"rows\":[" + "{\"url\":\"/caf\u00e9\",\"status\":404},".repeat(500) + "]}";
        AtomicInteger renders = new AtomicInteger();
        Supplier<RenderedPages.Rendered> render = () -> {
            renders.incrementAndGet();
            return rendered(page);
        };
        RenderedPages.Answer first = pages.answer("json", "page=1", () -> at, render, true);
        assertThat(first.gzipped()).as("kept, so sent gzipped").isTrue();
        assertThat(gunzip(first.body())).isEqualTo(page.getBytes(StandardCharsets.UTF_8));
        assertThat(first.body().length).as("a tenth of the page or less").isLessThan(page.length() / 10);
        RenderedPages.Answer plain = pages.answer("json", "page=1", () -> at, render, false);
        assertThat(plain.gzipped()).isFalse();
        assertThat(plain.body()).as("unzipped for a reader who does not accept gzip").isEqualTo(page.getBytes(StandardCharsets.UTF_8));
        assertThat(pages.answer("json", "page=1", () -> at, render, false).body()).isEqualTo(page.getBytes(StandardCharsets.UTF_8));
        assertThat(pages.answer("json", "page=1", () -> at, render, true).body()).isEqualTo(first.body());
        assertThat(renders).as("rendered once for both").hasValue(1);

        RenderedPages.Answer unkept = pages.answer("html", "page=1", () -> at,
                () -> new RenderedPages.Rendered("counting".getBytes(StandardCharsets.UTF_8), false), true);
        assertThat(unkept.gzipped()).as("an answer not kept is sent as it is: the server compresses it").isFalse();
        assertThat(new RenderedPages(0).answer("json", "p", () -> at, render, true).gzipped()).isFalse();
    }

    @Test
    void gzippedPagesLetTenTimesThePagesStayWithinTheBound() {
        long budget = 1 << 20;
        RenderedPages pages = new RenderedPages(budget);
        Snapshot at = new Snapshot(9, 0);
        AtomicInteger renders = new AtomicInteger();
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 200; i++) { // 200 pages of 45 KB: 9 MB as they are
                int n = i;
                pages.answer("json", "page=" + i, () -> at, () -> {
                    renders.incrementAndGet();
                    return rendered(("{\"id\":" + n + ",\"url\":\"/a/b/" + n + "\",\"crawler\":\"Googlebot\"},").repeat(900));
                }, round == 1 || i % 3 == 0);
                assertThat(pages.footprint()[1]).isLessThanOrEqualTo(budget);
            }
        }
        assertThat(renders).as("every page kept the first time round").hasValue(200);
    }

    @Test
    void readsTheAcceptEncodingHeader() {
        assertThat(GzipAnswer.accepted("gzip, deflate, br, zstd")).isTrue();
        assertThat(GzipAnswer.accepted("br;q=1.0, GZIP;q=0.5")).isTrue();
        assertThat(GzipAnswer.accepted("x-gzip")).isTrue();
        assertThat(GzipAnswer.accepted("gzip;q=0")).isFalse();
        assertThat(GzipAnswer.accepted("gzip; q=0.000")).isFalse();
        assertThat(GzipAnswer.accepted("gzip;q=nonsense")).isFalse();
        assertThat(GzipAnswer.accepted("deflate, br")).isFalse();
        assertThat(GzipAnswer.accepted("identity")).isFalse();
        assertThat(GzipAnswer.accepted("")).isFalse();
        assertThat(GzipAnswer.accepted(null)).isFalse();
    }

    static byte[] gunzip(byte[] gzipped) throws java.io.IOException {
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzipped))) {
            return in.readAllBytes();
        }
    }

    @Test
    void readersAskingAtOnceShareOneRendering() throws Exception {
        RenderedPages pages = new RenderedPages(1 << 20);
        CountDownLatch rendering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger renders = new AtomicInteger();
        Snapshot at = new Snapshot(7, 0);
        try (ExecutorService readers = Executors.newFixedThreadPool(8)) {
            List<Future<byte[]>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(readers.submit(() -> pages.answer("html", "page=1", () -> at, () -> {
                    renders.incrementAndGet();
                    rendering.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return rendered("shared");
                })));
            }
            assertThat(rendering.await(30, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(100); // let the others arrive and wait on the rendering
            release.countDown();
            for (Future<byte[]> answer : answers) {
                assertThat(new String(answer.get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("shared");
            }
        }
        assertThat(renders).hasValue(1);
    }

    @Test
    void aReaderWhoAsksWhileThePageIsRenderedAheadWaitsForThatRenderingAndBothFormsAreKept() throws Exception {
        RenderedPages pages = new RenderedPages(1 << 20);
        CountDownLatch rendering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger renders = new AtomicInteger();
        Snapshot at = new Snapshot(9, 0);
        try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
            Future<RenderedPages.Answer> ahead = threads.submit(() -> pages.answer("html", "page 1", () -> at, () -> {
                renders.incrementAndGet();
                rendering.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return rendered("the first page");
            }, true, true));
            assertThat(rendering.await(30, TimeUnit.SECONDS)).isTrue();
            Future<byte[]> reader = threads.submit(() -> pages.answer("html", "page 1", () -> at, () -> {
                renders.incrementAndGet();
                return rendered("rendered twice");
            }));
            Thread.sleep(100); // let the reader arrive and wait on the rendering
            release.countDown();
            assertThat(ahead.get(30, TimeUnit.SECONDS).gzipped()).as("kept").isTrue();
            assertThat(new String(reader.get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("the first page");
        }
        assertThat(renders).hasValue(1);
        long[] before = pages.footprint();
        assertThat(before[4]).as("renderings").isEqualTo(1);
        assertThat(before[5]).as("ahead of any reader").isEqualTo(1);
        // kept gzipped and as it is: neither a reader who accepts gzip nor one who does not makes anything
        RenderedPages.Answer zipped = pages.answer("html", "page 1", () -> at, () -> rendered("again"), true);
        assertThat(zipped.gzipped()).isTrue();
        assertThat(GzipAnswer.of("the first page".getBytes(StandardCharsets.UTF_8)).gzipped()).isEqualTo(zipped.body());
        assertThat(new String(pages.answer("html", "page 1", () -> at, () -> rendered("again")), StandardCharsets.UTF_8))
                .isEqualTo("the first page");
        assertThat(pages.footprint()[1]).as("no plain copy added: it was kept").isEqualTo(before[1]);
        assertThat(renders).hasValue(1);
    }

    @Test
    void answersOfOlderSnapshotsAreLetGoOnceANewerOneIsKept() {
        RenderedPages pages = new RenderedPages(1 << 20);
        Snapshot old = new Snapshot(10, 1);
        Snapshot newer = new Snapshot(12, 1);
        pages.answer("html", "page 1", () -> old, () -> rendered("old first page"), false);
        pages.answer("json", "page 1", () -> old, () -> rendered("old first page"), false);
        pages.answer("html", "page 1", () -> newer, () -> rendered("new first page"), false, true);
        assertThat(pages.footprint()[0]).isEqualTo(3);

        pages.forgetOlderThan(newer);

        assertThat(pages.footprint()[0]).as("the newer snapshot's only").isEqualTo(1);
        assertThat(pages.footprint()[1]).isEqualTo(keptBytesOfOne("new first page"));
        pages.forgetOlderThan(old);
        assertThat(pages.footprint()[0]).as("a newer snapshot's answers stay").isEqualTo(1);
    }

    /** The bytes one answer kept in both forms takes, as a fresh cache counts them. */
    private static long keptBytesOfOne(String text) {
        RenderedPages one = new RenderedPages(1 << 20);
        one.answer("html", "page 1", () -> Snapshot.EMPTY, () -> rendered(text), false, true);
        return one.footprint()[1];
    }

    @Test
    void everyReaderSeesEveryCommitThroughTheKeptPages() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC)), store.health(), ServerConfig.on("127.0.0.1", 0).withReaders(16));
            try {
                String base = "http://127.0.0.1:" + server.port();
                AtomicLong committed = new AtomicLong();
                AtomicBoolean writing = new AtomicBoolean(true);
                List<Future<Integer>> asked = new ArrayList<>();
                try (ExecutorService readers = Executors.newFixedThreadPool(6)) {
                    for (int r = 0; r < 6; r++) {
                        String path = switch (r % 3) {
                            case 0 -> "/api/crawl-errors";
                            case 1 -> "/crawl-errors";
                            default -> "/api/crawl-errors?status=404";
                        };
                        asked.add(readers.submit(() -> {
                            int answers = 0;
                            long shown = 0;
                            while (writing.get() || answers == 0) {
                                long before = committed.get();
                                long total = total(get(base + path));
                                assertThat(total).as(path + ": committed before it was asked").isGreaterThanOrEqualTo(before);
                                assertThat(total).as(path + ": never less than it showed").isGreaterThanOrEqualTo(shown);
                                shown = total;
                                answers++;
                            }
                            return answers;
                        }));
                    }
                    for (int batch = 0; batch < 20; batch++) {
                        List<CrawlerHit> hits = new ArrayList<>();
                        for (int i = 0; i < 150; i++) {
                            hits.add(googlebot(START + (batch * 150L + i) * 1_000L, "66.249.66." + (1 + i % 9), "/b" + batch + "/" + i, 404,
                                    VERIFIED));
                        }
                        store.writer().append(hits);
                        store.writer().flush();
                        committed.addAndGet(hits.size());
                        Thread.sleep(20);
                    }
                    writing.set(false);
                    for (Future<Integer> reader : asked) {
                        assertThat(reader.get(120, TimeUnit.SECONDS)).isPositive();
                    }
                }
                assertThat(total(get(base + "/api/crawl-errors"))).isEqualTo(3_000);
                assertThat(total(get(base + "/crawl-errors"))).isEqualTo(3_000);

                // a page kept while its snapshot was the newest says there is newer once there is
                String at = JSON.readTree(get(base + "/api/crawl-errors")).get("at").asText();
                assertThat(JSON.readTree(get(base + "/api/crawl-errors?at=" + at)).get("newer").asBoolean()).isFalse();
                store.verdicts().update("66.249.66.3", "Googlebot Desktop", SPOOFED);
                store.writer().flush();
                assertThat(JSON.readTree(get(base + "/api/crawl-errors?at=" + at)).get("newer").asBoolean()).isTrue();
                assertThat(total(get(base + "/api/crawl-errors"))).as("a verdict changed: a new snapshot").isLessThan(3_000);
            } finally {
                server.close();
            }
        }
    }

    @Test
    void keptPagesAreTheBytesOfAnUncachedRenderGzippedOrNot() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            List<CrawlerHit> hits = new ArrayList<>();
            for (int i = 0; i < 250; i++) {
                hits.add(googlebot(START + i * 60_000L, "66.249.66." + (1 + i % 9),
                        "/caf\u00e9/<b>\"" + i + "\\?q=\ud83d\ude00&x=" + i, i % 3 == 0 ? 404 : 500, i % 4 == 0 ? SPOOFED : VERIFIED));
            }
            store.writer().append(hits);
            store.writer().flush();
            // both wait for an HTML page's summary however loaded the machine, so both show it
            ReportConfig config = ReportConfig.in(ZoneOffset.UTC).withSummaryWait(Duration.ofSeconds(60));
            ReportServer cached = ReportServer.start(new CrawlErrorReport(store.reader(), config), store.health(), ServerConfig.on("127.0.0.1", 0));
            ReportServer uncached = ReportServer.start(new CrawlErrorReport(store.reader(), config), store.health(),
                    ServerConfig.on("127.0.0.1", 0).withPageCacheBytes(0));
            try {
                for (String path : List.of("/api/crawl-errors", "/api/crawl-errors?page=2", "/api/crawl-errors?status=500",
                        "/crawl-errors", "/crawl-errors?page=2", "/crawl-errors?verification=spoofed")) {
                    byte[] expected = bytes(uncached, path, false).body();
                    for (int i = 0; i < 3; i++) {
                        HttpResponse<byte[]> plain = bytes(cached, path, false);
                        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
                        assertThat(plain.body()).as(path + ", as it is, #" + i).isEqualTo(expected);
                        HttpResponse<byte[]> zipped = bytes(cached, path, true);
                        assertThat(zipped.headers().firstValue("Content-Encoding")).contains("gzip");
                        assertThat(zipped.headers().allValues("Vary")).contains("Accept-Encoding");
                        assertThat(gunzip(zipped.body())).as(path + ", gzipped, #" + i).isEqualTo(expected);
                    }
                }
            } finally {
                cached.close();
                uncached.close();
            }
        }
    }

    private HttpResponse<byte[]> bytes(ReportServer server, String path, boolean gzip) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(60));
        if (gzip) {
            request.header("Accept-Encoding", "gzip");
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response;
    }

    private String get(String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    /** The total a page says: the JSON's field, or the HTML page's count of error hits. */
    private static long total(String body) throws Exception {
        if (body.startsWith("{")) {
            return JSON.readTree(body).get("total").asLong();
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<span id=\"total\">(\\d+)</span>").matcher(body);
        assertThat(m.find()).as("the page's total").isTrue();
        return Long.parseLong(m.group(1));
    }
}
