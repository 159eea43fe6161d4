package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.StoreUnavailableException;
import dev.crawlerrors.text.Threads;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Fails a request to a ClickHouse server that has stopped answering, within seconds, while a long
 * query on a server that answers keeps its long timeout. A server that hangs (stopped, or cut off
 * by a network that drops packets) still has its connections accepted by the kernel, so neither
 * the connect timeout nor an answer tells it from a query that takes minutes; its {@code /ping}
 * does: once a request has waited {@link #FIRST_LOOK}, and every {@link #LOOK_EVERY} after, the
 * server is pinged, and a ping unanswered within {@link #PING} fails the request as unavailable
 * (a 503 with Retry-After to the report's readers) and abandons it.
 */
final class ClickHouseAnswerWatch {

    /** How long a request waits before its server is first pinged: a page's queries answer in milliseconds. */
    static final Duration FIRST_LOOK = Duration.ofMillis(1500);
    /** How often a server is pinged again while a request to it waits (a long count, a large insert). */
    static final Duration LOOK_EVERY = Duration.ofSeconds(5);
    /** How long a ping may take: a server that answers at all answers one in milliseconds. */
    static final Duration PING = Duration.ofSeconds(2);

    private final HttpClient client;
    private final ScheduledExecutorService looks = Executors.newSingleThreadScheduledExecutor(Threads.daemons("clickhouse-watch"));

    ClickHouseAnswerWatch(HttpClient client) {
        this.client = client;
    }

    /**
     * The answer to a request sent to {@code server}, failed with a {@link StoreUnavailableException}
     * (and the request abandoned) should the server stop answering its pings while it waits.
     */
    <T> CompletableFuture<T> watch(URI server, CompletableFuture<T> answer) {
        CompletableFuture<T> watched = new CompletableFuture<>();
        answer.whenComplete((value, failure) -> {
            if (failure == null) {
                watched.complete(value);
            } else {
                watched.completeExceptionally(failure);
            }
        });
        look(server, answer, watched, FIRST_LOOK);
        return watched;
    }

    private <T> void look(URI server, CompletableFuture<T> answer, CompletableFuture<T> watched, Duration after) {
        looks.schedule(() -> {
            if (watched.isDone()) {
                return;
            }
            HttpRequest ping = HttpRequest.newBuilder(URI.create(server + "/ping")).timeout(PING).GET().build();
            client.sendAsync(ping, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
                if (failure == null && response.statusCode() == 200) {
                    look(server, answer, watched, LOOK_EVERY);
                } else if (watched.completeExceptionally(new StoreUnavailableException("ClickHouse at " + server + " does not answer,"
                        + " not even a ping within " + PING.toSeconds() + " s (is it stopped, or cut off?)", failure))) {
                    answer.cancel(true);
                }
            });
        }, after.toMillis(), TimeUnit.MILLISECONDS);
    }
}
