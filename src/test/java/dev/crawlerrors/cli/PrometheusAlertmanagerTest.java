package dev.crawlerrors.cli;

import static dev.crawlerrors.cli.AlertsServeTest.GOOGLEBOT_IP;
import static dev.crawlerrors.cli.AlertsServeTest.append;
import static dev.crawlerrors.cli.AlertsServeTest.line;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.alert.AlertReceiver;
import dev.crawlerrors.ingest.SampleLogs;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped Prometheus rules with Debian's {@code prometheus}, {@code promtool},
 * {@code prometheus-alertmanager} and {@code amtool} (./run-tests installs them): promtool accepts
 * the rules and their unit tests pass; a real Prometheus scrapes a real {@code serve}, its rules fire
 * on a planted 5xx burst and reach a real Alertmanager, which posts them to a webhook on loopback;
 * serve's built-in alerts reach the same Alertmanager through its {@code /api/v2/alerts}.
 */
@ProcessTest
class PrometheusAlertmanagerTest {

    private static final Path SHIPPED = Path.of("deploy/prometheus");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    @Test
    void promtoolAndAmtoolAcceptTheShippedFilesAndTheRulesTestsPass() throws Exception {
        assertThat(run(SHIPPED, "promtool", "check", "rules", "crawl-errors.rules.yml")).contains("SUCCESS: 6 rules found");
        assertThat(run(SHIPPED, "promtool", "test", "rules", "crawl-errors.rules.test.yml")).contains("SUCCESS");
        assertThat(run(SHIPPED, "promtool", "check", "config", "prometheus.yml")).contains("SUCCESS");
        assertThat(run(SHIPPED, "amtool", "check-config", "alertmanager.yml")).contains("SUCCESS");
    }

    @Test
    void prometheusScrapesServeAndItsRulesAndTheBuiltInAlertsReachAlertmanager() throws Exception {
        AlertReceiver team = new AlertReceiver();
        open.add(team);
        int alertmanagerPort = freePort();
        Path amConfig = Files.writeString(dir.resolve("alertmanager.yml"), """
                route:
                  receiver: team
                  group_by: [alertname, kind]
                  group_wait: 1s
                  group_interval: 1s
                  repeat_interval: 4h
                receivers:
                  - name: team
                    webhook_configs:
                      - url: '%s'
                        send_resolved: true
                """.formatted(team.url()));
        start(dir.resolve("alertmanager.out"), "prometheus-alertmanager", "--config.file=" + amConfig, "--storage.path=" + dir.resolve("am"),
                "--web.listen-address=127.0.0.1:" + alertmanagerPort, "--cluster.listen-address=");
        String alertmanager = "http://127.0.0.1:" + alertmanagerPort;
        awaitUp(alertmanager + "/-/ready");

        Path log = dir.resolve("access.log");
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/", 200) + line(GOOGLEBOT_IP, Instant.now(), "/old", 503));
        ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--follow", log.toString(), "--db",
                dir.resolve("hits.duckdb").toString(), "--port", "0", "--dns-server", "none", "--ip-ranges",
                SampleLogs.ipRanges(dir).toString(), "--timezone", "UTC", "--alert-webhook", alertmanager + "/api/v2/alerts");
        open.add(serve);
        String metrics = get(serve.base() + "/metrics");
        Path scraped = Files.writeString(dir.resolve("metrics.txt"), metrics);
        assertThat(run(dir, "sh", "-c", "promtool check metrics < " + scraped)).doesNotContain("error");

        int prometheusPort = freePort();
        Path promConfig = Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                alerting:
                  alertmanagers:
                    - static_configs:
                        - targets: ['127.0.0.1:%d']
                scrape_configs:
                  - job_name: crawl-errors
                    static_configs:
                      - targets: ['%s']
                """.formatted(SHIPPED.resolve("crawl-errors.rules.yml").toAbsolutePath(), alertmanagerPort,
                URI.create(serve.base()).getAuthority()));
        start(dir.resolve("prometheus.out"), "prometheus", "--config.file=" + promConfig, "--storage.tsdb.path=" + dir.resolve("prom"),
                "--web.listen-address=127.0.0.1:" + prometheusPort);
        String prometheus = "http://127.0.0.1:" + prometheusPort;
        // the counter of verified 5xx exists and is scraped before the burst: increase() sees the burst grow it
        awaitQuery(prometheus, "crawl_errors_crawler_hits_total{status_class=\"5xx\",verification=\"verified\",family=\"Google\"} >= 1");
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            burst.append(line(GOOGLEBOT_IP, Instant.now(), "/api/" + i, 503));
        }
        append(log, burst.toString());

        // Prometheus's rule, through Alertmanager: its labels are the rule's, without the built-in's kind
        JsonNode fromPrometheus = awaitAlert(team, "CrawlerServerErrors", "", 90);
        assertThat(fromPrometheus.path("labels").path("family").asText()).isEqualTo("Google");
        assertThat(fromPrometheus.path("labels").path("severity").asText()).isEqualTo("critical");
        // serve's own alert, posted to Alertmanager's API and passed on by it
        JsonNode builtIn = awaitAlert(team, "CrawlerServerErrors", "server-error-burst", 60);
        assertThat(builtIn.path("generatorURL").asText()).startsWith(serve.base() + "/crawl-errors?status=5xx&crawler=");
        assertThat(builtIn.path("annotations").path("summary").asText()).contains("server errors (5xx)");
        JsonNode listed = JSON.readTree(get(alertmanager + "/api/v2/alerts?filter="
                + URLEncoder.encode("kind=\"server-error-burst\"", StandardCharsets.UTF_8)));
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).path("status").path("state").asText()).isEqualTo("active");
    }

    /** The alert of {@code alertname} (and built-in {@code kind}; empty for one of Prometheus's rules) the receiver got, firing. */
    private static JsonNode awaitAlert(AlertReceiver receiver, String alertname, String kind, int seconds) throws InterruptedException {
        return Waits.await(alertname + " (kind '" + kind + "') firing").atMost(Duration.ofSeconds(seconds))
                .until(() -> receiver.alerts(alertname, "firing").stream().filter(alert -> alert.path("labels").path("kind").asText().equals(kind))
                        .findFirst(), Optional::isPresent).orElseThrow();
    }

    private void awaitQuery(String prometheus, String query) throws Exception {
        // an IOException: not listening yet
        Waits.await("Prometheus to find something for " + query).pollInterval(Duration.ofMillis(200)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> !JSON.readTree(get(prometheus + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                        .path("data").path("result").isEmpty());
    }

    private void awaitUp(String url) throws Exception {
        // an IOException: not listening yet
        Waits.await(url + " to answer").atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    private void start(Path output, String... command) throws IOException {
        processes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start());
    }

    /** Runs {@code command} in {@code directory} to its end (at most a minute); what it printed, which must say it succeeded. */
    private static String run(Path directory, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ":\n" + out).isZero();
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private String get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
