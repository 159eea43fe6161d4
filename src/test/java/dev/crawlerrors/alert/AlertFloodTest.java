package dev.crawlerrors.alert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.StoredAlert;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.Waits;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of alerts at once, as a deploy that breaks hundreds of URL shapes sets off: a new-pattern
 * rule alerts of ten shapes one by one and of the rest in one alert; the book keeps hundreds of
 * changes in one write to a real DuckDB store, and a sender reads what is due while that write runs.
 */
class AlertFloodTest {

    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, null, null);
    private static final long NOW = 1_780_000_000_000L;

    /** A real DuckDB alert store that counts its writes and, when asked, holds a write until let go. */
    private static final class WatchedStore implements AlertStore {
        final AlertStore store;
        final AtomicInteger writes = new AtomicInteger();
        volatile CountDownLatch writing = new CountDownLatch(1);
        volatile CountDownLatch letGo = new CountDownLatch(0);

        WatchedStore(AlertStore store) {
            this.store = store;
        }

        @Override
        public List<StoredAlert> alerts(int limit) {
            return store.alerts(limit);
        }

        @Override
        public void save(List<StoredAlert> alerts) {
            writes.incrementAndGet();
            writing.countDown();
            try {
                letGo.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            store.save(alerts);
        }

        @Override
        public void forgetResolved(long endedBeforeMillis) {
            store.forgetResolved(endedBeforeMillis);
        }

        @Override
        public Map<String, Long> errorShapes() {
            return store.errorShapes();
        }

        @Override
        public void addErrorShapes(Map<String, Long> shapes) {
            store.addErrorShapes(shapes);
        }

        @Override
        public long shapesThrough() {
            return store.shapesThrough();
        }

        @Override
        public void shapesThrough(long hits) {
            store.shapesThrough(hits);
        }
    }

    /** {@code count} alerts holding, one a host, as a robots.txt rule finds them on a large site. */
    private static List<Firing> firing(int count) {
        List<Firing> firing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            firing.add(new Firing("robots-txt|RobotsTxtNotOk|Google|host" + i, Map.of("alertname", "RobotsTxtNotOk", "host", "host" + i),
                    "robots.txt got 500 on host" + i, new ReportLink().with("url", List.of("/robots.txt"))));
        }
        return firing;
    }

    @Test
    void hundredsOfAlertsStartingAtOnceAreKeptInOneWriteAndResolvedInAnother() {
        try (DuckDbHitStore duckdb = DuckDbHitStore.inMemory()) {
            WatchedStore store = new WatchedStore(duckdb.alerts());
            AlertBook book = new AlertBook(store, Duration.ofHours(4), line -> { });
            assertThat(book.update(firing(400), NOW, () -> "s1")).isTrue();
            assertThat(store.writes).hasValue(1);
            assertThat(duckdb.alerts().alerts(1_000)).hasSize(400).allSatisfy(alert -> assertThat(alert.firing()).isTrue());

            assertThat(book.update(firing(100), NOW + 1_000, () -> "s2")).isTrue();
            assertThat(store.writes).hasValue(2);
            List<StoredAlert> kept = duckdb.alerts().alerts(1_000);
            assertThat(kept.stream().filter(StoredAlert::firing)).hasSize(100);
            assertThat(kept.stream().filter(alert -> !alert.firing())).hasSize(300)
                    .allSatisfy(alert -> assertThat(alert.endsMillis()).isEqualTo(NOW + 1_000));

            // a restart reads back what the book kept
            AlertBook again = new AlertBook(duckdb.alerts(), Duration.ofHours(4), line -> { });
            again.load();
            assertThat(again.firingByName()).containsEntry("RobotsTxtNotOk", 100L);
        }
    }

    @Test
    void aSenderReadsWhatIsDueWhileTheStoreKeepsTheChanges() throws Exception {
        try (DuckDbHitStore duckdb = DuckDbHitStore.inMemory()) {
            WatchedStore store = new WatchedStore(duckdb.alerts());
            store.letGo = new CountDownLatch(1);
            AlertBook book = new AlertBook(store, Duration.ofHours(4), line -> { });
            Receiver receiver = Receiver.of("http://127.0.0.1:9/hook", AlertFormat.alertmanager);
            ExecutorService threads = Executors.newCachedThreadPool();
            CompletableFuture<Boolean> evaluation = CompletableFuture.supplyAsync(() -> book.update(firing(300), NOW, () -> "s1"), threads);
            CompletableFuture<Void> delivery;
            try {
                assertThat(store.writing.await(30, TimeUnit.SECONDS)).isTrue();
                // the write is held: the sender still reads the 300 alerts due, and marks them sent
                List<Alert.Notice> due = CompletableFuture.supplyAsync(() -> book.due(receiver, NOW), threads).get(30, TimeUnit.SECONDS);
                assertThat(due).hasSize(300);
                delivery = CompletableFuture.runAsync(() -> book.delivered(receiver, due, NOW + 10), threads);
            } finally {
                store.letGo.countDown();
                threads.shutdown();
            }
            assertThat(evaluation.get(30, TimeUnit.SECONDS)).isTrue();
            delivery.get(30, TimeUnit.SECONDS);
            // the delivery's records were written after the evaluation's, so a restart sends nothing again
            AlertBook again = new AlertBook(duckdb.alerts(), Duration.ofHours(4), line -> { });
            again.load();
            assertThat(again.firingByName()).containsEntry("RobotsTxtNotOk", 300L);
            assertThat(again.due(receiver, NOW + 20)).isEmpty();
        }
    }

    @Test
    void aNewPatternRuleAlertsOfTenShapesOneByOneAndOfTheRestTogether() {
        CrawlCounts counts = new CrawlCounts(Set.of(Verification.verified), Duration.ofMinutes(10));
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            String url = "/" + word(i) + "/page";
            for (int n = 0; n <= i % 3; n++) {
                Hit hit = new Hit(NOW - 60_000 + i * 100L, 0, "66.249.66.1", "GET", url, 500, 0, null, "Googlebot/2.1", 1.0, null);
                hits.add(new CrawlerHit(hit, GOOGLEBOT, new Verdict(Verification.verified, "test")));
            }
        }
        counts.add(hits, NOW);
        NewPatternRule rule = new NewPatternRule("CrawlErrorNewPattern", "warning", 1, Duration.ofMinutes(10), Duration.ofDays(1));

        List<Firing> firing = rule.firing(counts, NOW, ZoneOffset.UTC);
        assertThat(firing).hasSize(NewPatternRule.ONE_BY_ONE + 1);
        // the shapes that first erred earliest, one by one: the same ones on every evaluation while they hold
        assertThat(firing.subList(0, NewPatternRule.ONE_BY_ONE)).extracting(f -> f.labels().get("shape"))
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, NewPatternRule.ONE_BY_ONE).mapToObj(i -> UrlShape.of("/" + word(i) + "/page"))
                        .toList());
        Firing more = firing.get(NewPatternRule.ONE_BY_ONE);
        assertThat(more.labels()).containsEntry("shape", NewPatternRule.MORE_SHAPES);
        assertThat(more.summary()).startsWith("240 more new error patterns beyond the 10 alerted one by one: 480 errors from verified"
                + " crawlers in the last 10 minutes, the most on /");
        assertThat(rule.firing(counts, NOW + 1_000, ZoneOffset.UTC)).extracting(Firing::key)
                .containsExactlyElementsOf(firing.stream().map(Firing::key).collect(Collectors.toList()));

        // a few new shapes: each its own alert, none grouped
        CrawlCounts few = new CrawlCounts(Set.of(Verification.verified), Duration.ofMinutes(10));
        few.add(hits.subList(0, 5), NOW);
        assertThat(rule.firing(few, NOW, ZoneOffset.UTC)).hasSizeLessThanOrEqualTo(NewPatternRule.ONE_BY_ONE)
                .noneSatisfy(f -> assertThat(f.labels()).containsEntry("shape", NewPatternRule.MORE_SHAPES));
    }

    @Test
    void anAlertFiringWhileAFloodIsSentGoesInTheNextMessage() throws Exception {
        try (DuckDbHitStore duckdb = DuckDbHitStore.inMemory(); AlertReceiver hook = new AlertReceiver()) {
            WatchedStore store = new WatchedStore(duckdb.alerts());
            AlertBook book = new AlertBook(store, Duration.ofHours(4), line -> { });
            Receiver receiver = Receiver.of(hook.url(), AlertFormat.alertmanager);
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            WebhookSender sender = new WebhookSender(receiver, book, new AlertPayload(() -> "http://127.0.0.1/"), client, line -> { },
                    () -> NOW + 10);
            book.update(firing(300), NOW, () -> "s1");
            store.writing = new CountDownLatch(1);
            store.letGo = new CountDownLatch(1);
            List<Firing> withProbe = new ArrayList<>(firing(300));
            withProbe.add(new Firing("robots-txt|Probe|Google|probe", Map.of("alertname", "Probe"), "robots.txt got 500 on probe",
                    new ReportLink().with("url", List.of("/robots.txt"))));
            ExecutorService threads = Executors.newCachedThreadPool();
            try {
                CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> sender.sendDue(NOW + 10), threads);
                // the first 100 of the flood went out, and their delivery is being kept when the probe fires
                assertThat(store.writing.await(30, TimeUnit.SECONDS)).isTrue();
                CompletableFuture<Boolean> firing = CompletableFuture.supplyAsync(() -> book.update(withProbe, NOW + 1_000, () -> "s2"), threads);
                Waits.await("the probe's alert due").atMost(Duration.ofSeconds(30))
                        .until(() -> book.due(receiver, NOW + 10), due -> due.stream().anyMatch(n -> n.key().contains("Probe")));
                store.letGo.countDown();
                sending.get(30, TimeUnit.SECONDS);
                assertThat(firing.get(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                store.letGo.countDown();
                threads.shutdown();
            }
            List<com.fasterxml.jackson.databind.JsonNode> bodies = hook.bodies();
            assertThat(bodies.get(0).path("alerts")).hasSize(100);
            assertThat(bodies.get(1).path("alerts").get(0).path("labels").path("alertname").asText()).isEqualTo("Probe");
            assertThat(bodies.stream().mapToInt(body -> body.path("alerts").size()).sum()).isEqualTo(301);
            assertThat(sender.sent).hasValue(301);
        }
    }

    /** A lower-case word for {@code i}, distinct for each: {@code ba}, {@code bb}, ... */
    private static String word(int i) {
        return "shelf" + (char) ('a' + i / 26 % 26) + (char) ('a' + i % 26);
    }
}
