package dev.crawlerrors.crawler.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.crawlerrors.text.Release;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Downloads from a real HTTP server on loopback that answers as a broken or hostile list host would. */
class ListFetcherTest {

    private static final String LIST = "{\"creationTime\":\"2026-11-20T00:00:00\",\"prefixes\":[{\"ipv4Prefix\":\"66.249.64.0/19\"}]}";

    private HttpServer server;
    private String base;
    private final AtomicReference<String> userAgent = new AtomicReference<>();
    private final AtomicLong bytesSent = new AtomicLong();
    private final CountDownLatch bodyEnded = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/list.json", exchange -> {
            userAgent.set(exchange.getRequestHeaders().getFirst("User-Agent"));
            byte[] body = LIST.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        // a body of a gigabyte, sent as fast as the client takes it, with no length announced
        server.createContext("/huge.json", exchange -> stream(exchange, 1L << 30, 0));
        // the same size announced up front
        server.createContext("/declared.json", exchange -> {
            exchange.sendResponseHeaders(200, 400L << 20);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write('[');
                out.flush();
                Thread.sleep(10_000);
            } catch (IOException | InterruptedException e) {
                // the client went away
            }
        });
        // a valid start, then a byte every 50 ms, for ever
        server.createContext("/trickle.json", exchange -> stream(exchange, Long.MAX_VALUE, 50));
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void stream(HttpExchange exchange, long total, long pauseMillis) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        byte[] chunk = new byte[pauseMillis > 0 ? 1 : 64 * 1024];
        java.util.Arrays.fill(chunk, (byte) ' ');
        try (OutputStream out = exchange.getResponseBody()) {
            out.write('[');
            for (long sent = 0; sent < total; sent += chunk.length) {
                out.write(chunk);
                out.flush();
                bytesSent.addAndGet(chunk.length);
                if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis);
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client went away: what these tests want
        } finally {
            bodyEnded.countDown();
        }
    }

    @Test
    void asksAsCrawlErrorsWithItsVersionAndProjectAddress() throws Exception {
        ListFetcher.Response response = new ListFetcher().fetch(base + "/list.json", null);

        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo(LIST);
        assertThat(userAgent.get()).isEqualTo("crawl-errors/" + Release.VERSION + " (+https://github.com/crawl-errors/crawl-errors)");
    }

    @Test
    void abandonsABodyThatGrowsPastTheCapAndClosesTheConnection() throws Exception {
        ListFetcher fetcher = new ListFetcher(ListFetcher.MAX_BYTES, Duration.ofSeconds(60));

        assertThatThrownBy(() -> fetcher.fetch(base + "/huge.json", null))
                .isInstanceOf(IOException.class)
                .hasMessage(base + "/huge.json sent more than the 8 MiB a list may have; the download was abandoned");

        // the server learns the client left: it stops writing long before its gigabyte
        assertThat(bodyEnded.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(bytesSent.get()).isLessThan(256L << 20);
    }

    @Test
    void refusesABodyDeclaredLargerThanTheCapWithoutReadingIt() {
        assertThatThrownBy(() -> new ListFetcher().fetch(base + "/declared.json", null))
                .isInstanceOf(IOException.class)
                .hasMessage(base + "/declared.json declares 419430400 bytes, more than the 8 MiB a list may have; not downloaded");
    }

    @Test
    void givesUpOnATricklingBodyAtTheDeadline() throws Exception {
        ListFetcher fetcher = new ListFetcher(ListFetcher.MAX_BYTES, Duration.ofSeconds(1));
        long started = System.nanoTime();

        assertThatThrownBy(() -> fetcher.fetch(base + "/trickle.json", null))
                .isInstanceOf(IOException.class)
                .hasMessage(base + "/trickle.json did not finish within 1 s; the download was abandoned");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(bodyEnded.await(30, TimeUnit.SECONDS)).as("the abandoned exchange is closed").isTrue();
    }

    @Test
    void namesTheStatusOfAnAnswerThatIsNotTheList() {
        assertThatThrownBy(() -> new ListFetcher().fetch(base + "/missing.json", null))
                .isInstanceOf(IOException.class)
                .hasMessage(base + "/missing.json answered HTTP 404");
    }
}
