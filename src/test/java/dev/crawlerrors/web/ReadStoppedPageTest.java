package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.UncountedFirstPageContract;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.ReadStoppedException;
import dev.crawlerrors.store.UrlStates;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * A page whose read of the store was stopped under way (serve stops, and interrupts the reads of its
 * warm-up, which readers may be waiting for) is answered 503 with Retry-After, to be asked again:
 * nothing is broken, and it is no 500 with a stack trace in serve's output.
 */
class ReadStoppedPageTest {

    @Test
    void aPageWhoseReadWasStoppedIs503ToBeAskedAgain() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            CrawlErrorReport report = new CrawlErrorReport(urlStatesStopped(store), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                report.startCounting();
                for (String path : new String[] {"/api/crawl-errors/patterns", "/crawl-errors/patterns"}) {
                    HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(60)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(answer.statusCode()).as(path).isEqualTo(503);
                    assertThat(answer.headers().firstValue("Retry-After")).as(path).isPresent();
                    assertThat(answer.body()).as(path).contains("was stopped (serve is stopping); ask again");
                    if (!path.startsWith("/api/")) {
                        // the page asks again by itself when Retry-After says
                        org.jsoup.nodes.Element refresh = org.jsoup.Jsoup.parse(answer.body()).selectFirst("meta[http-equiv=refresh]");
                        assertThat(refresh).as(path).isNotNull();
                        assertThat(refresh.attr("content")).isEqualTo(answer.headers().firstValue("Retry-After").orElseThrow());
                    }
                }
                // an answer that is no "come back" does not ask again
                HttpResponse<String> missing = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + server.port() + "/crawl-errors/hits/999999999")).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(missing.statusCode()).isEqualTo(404);
                assertThat(org.jsoup.Jsoup.parse(missing.body()).selectFirst("meta[http-equiv=refresh]")).isNull();
                // the warm-up's walk, stopped so too, stops the warm-up (serve's ends it without a word: serve stops)
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> server.walkPatterns(Duration.ofSeconds(30)))
                        .isInstanceOf(ReadStoppedException.class);
                // the report's other pages read on
                assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                        + "/api/crawl-errors")).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                        .isEqualTo(200);
            } finally {
                report.close();
            }
        }
    }

    /** {@code store}'s reader, its URL states' walks stopped as a read whose thread is interrupted is. */
    private static HitReader urlStatesStopped(DuckDbHitStore store) {
        UrlStates states = store.reader().urlStates();
        UrlStates stopped = (UrlStates) Proxy.newProxyInstance(UrlStates.class.getClassLoader(), new Class<?>[] {UrlStates.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("forEach")) {
                        throw new ReadStoppedException("a read of memory was stopped: its thread was interrupted", null);
                    }
                    return invoke(method, states, args);
                });
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                (proxy, method, args) -> method.getName().equals("urlStates") ? stopped : invoke(method, store.reader(), args));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
