package dev.crawlerrors.alert;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.crawlerrors.Waits;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A receiver that fails, redirects to itself or hangs, as the alerts' bad-input section lists them:
 * each is tried again after a wait that doubles up to a minute, said in the log once a minute at
 * most, never followed, and holds back no other receiver.
 */
class WebhookSenderTest {

    private static final long NOW = 1_780_000_000_000L;
    /** The client serve's alerts use: HTTP/1.1, redirects never followed. */
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(WebhookSender.TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();

    private static List<Firing> robotsTxtFailing() {
        return List.of(new Firing("robots-txt|RobotsTxtNotOk|Google|example.org", Map.of("alertname", "RobotsTxtNotOk"),
                "Googlebot got 503 for /robots.txt", new ReportLink().with("url", List.of("/robots.txt"))));
    }

    private static WebhookSender sender(String url, AlertBook book, List<String> log, AtomicLong clock) {
        return new WebhookSender(Receiver.of(url, AlertFormat.alertmanager), book, new AlertPayload(() -> "http://127.0.0.1/"), CLIENT,
                log::add, clock::get);
    }

    @Test
    void aReceiverAnswering500IsTriedAgainEverLaterAndSaidOnceAMinute() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory(); AlertReceiver hook = new AlertReceiver()) {
            AlertBook book = new AlertBook(store.alerts(), Duration.ofHours(4), line -> { });
            book.update(robotsTxtFailing(), NOW, () -> "s1");
            List<String> log = new CopyOnWriteArrayList<>();
            AtomicLong clock = new AtomicLong(NOW);
            WebhookSender sender = sender(hook.url(), book, log, clock);
            hook.failFirst(7);

            // tried when each wait is over: after 1, 2, 4, 8, 16 and 32 s; the seventh failure is 63 s in
            long[] tries = {0, 1, 3, 7, 15, 31, 63};
            for (long at : tries) {
                clock.set(NOW + at * 1_000);
                sender.sendDue(clock.get());
            }
            assertThat(hook.posts()).isEqualTo(7);
            assertThat(sender.failed).hasValue(7);
            assertThat(log).hasSize(2);
            assertThat(log.get(0)).contains("it answered 500").contains("1 try failed").endsWith("trying again in 1 s");
            assertThat(log.get(1)).contains("6 tries failed since 63 s ago").endsWith("trying again in 60 s");

            clock.set(NOW + 123_000);
            sender.sendDue(clock.get());
            assertThat(hook.alerts("RobotsTxtNotOk", "firing")).hasSize(1);
            assertThat(sender.sent).hasValue(1);
            assertThat(log.get(2)).contains("takes alerts again, after 123 s of failures");
        }
    }

    @Test
    void aReceiverThatRedirectsToItselfIsNotFollowed() throws Exception {
        AtomicInteger posts = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
        server.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            posts.incrementAndGet();
            exchange.getResponseHeaders().add("Location", url);
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
        });
        server.start();
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            AlertBook book = new AlertBook(store.alerts(), Duration.ofHours(4), line -> { });
            book.update(robotsTxtFailing(), NOW, () -> "s1");
            List<String> log = new CopyOnWriteArrayList<>();
            WebhookSender sender = sender(url, book, log, new AtomicLong(NOW));
            sender.sendDue(NOW);
            assertThat(posts).hasValue(1);
            assertThat(sender.failed).hasValue(1);
            assertThat(log).singleElement().asString().contains("it answered 307 (a redirect to " + url + "), which alerts do not follow");
            assertThat(book.due(Receiver.of(url, AlertFormat.alertmanager), NOW)).hasSize(1);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aReceiverThatHangsHoldsBackNoOtherReceiver() throws Exception {
        CountDownLatch hanging = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "hanging-receiver");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            hanging.countDown();
            try {
                letGo.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        String stuck = "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
        try (DuckDbHitStore store = DuckDbHitStore.inMemory(); AlertReceiver hook = new AlertReceiver()) {
            AlertBook book = new AlertBook(store.alerts(), Duration.ofHours(4), line -> { });
            AtomicLong clock = new AtomicLong(System.currentTimeMillis());
            WebhookSender slow = sender(stuck, book, new CopyOnWriteArrayList<>(), clock);
            WebhookSender healthy = sender(hook.url(), book, new CopyOnWriteArrayList<>(), clock);
            try (slow; healthy) {
                slow.start();
                healthy.start();
                book.update(robotsTxtFailing(), clock.get(), () -> "s1");
                slow.wake();
                assertThat(hanging.await(30, TimeUnit.SECONDS)).isTrue();
                healthy.wake();
                // the other receiver gets the alert while the first still hangs, well within its timeout
                hook.await("RobotsTxtNotOk", "firing", 5);
                assertThat(letGo.getCount()).isEqualTo(1);
                assertThat(slow.sent).hasValue(0);
                letGo.countDown();
                Waits.await("the slow receiver's answer taken").atMost(Duration.ofSeconds(30)).until(slow.sent::get, sent -> sent == 1);
            }
        } finally {
            letGo.countDown();
            server.stop(0);
        }
    }
}
