package dev.crawlerrors.alert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.crawlerrors.Waits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain webhook receiver on loopback, as a team's own endpoint would be: it keeps every body it is
 * posted, and answers 500 to the first {@link #failFirst} posts (a receiver that is down).
 */
public final class AlertReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final List<JsonNode> bodies = new ArrayList<>();
    private final AtomicInteger failing = new AtomicInteger();
    private final AtomicInteger posts = new AtomicInteger();

    public AlertReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            posts.incrementAndGet();
            if (failing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                exchange.sendResponseHeaders(500, -1);
            } else {
                synchronized (bodies) {
                    bodies.add(JSON.readTree(body));
                }
                exchange.sendResponseHeaders(200, -1);
            }
            exchange.close();
        });
        server.start();
    }

    /** Its URL, {@code http://127.0.0.1:PORT/hook}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    /** Answers 500 to the next {@code n} posts. */
    public void failFirst(int n) {
        failing.set(n);
    }

    /** How many posts it got, taken or not. */
    public int posts() {
        return posts.get();
    }

    /** The bodies it took, in order. */
    public List<JsonNode> bodies() {
        synchronized (bodies) {
            return List.copyOf(bodies);
        }
    }

    /** The alerts it took (Alertmanager's webhook format) of {@code alertname} with {@code status} (firing, resolved). */
    public List<JsonNode> alerts(String alertname, String status) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode body : bodies()) {
            for (JsonNode alert : body.path("alerts")) {
                if (alert.path("labels").path("alertname").asText().equals(alertname) && alert.path("status").asText().equals(status)) {
                    found.add(alert);
                }
            }
        }
        return found;
    }

    /** Waits at most {@code seconds} for an alert of {@code alertname} with {@code status}; the one found. */
    public JsonNode await(String alertname, String status, int seconds) throws InterruptedException {
        return Waits.await("a " + status + " alert " + alertname).atMost(Duration.ofSeconds(seconds))
                .until(() -> alerts(alertname, status), found -> !found.isEmpty()).get(0);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
