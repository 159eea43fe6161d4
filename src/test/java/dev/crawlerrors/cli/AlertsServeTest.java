package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.alert.AlertReceiver;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --follow --alert-webhook} as a user runs it: lines appended to a followed log in real
 * time set off each kind of built-in alert once, and its resolution once, at a plain webhook on
 * loopback; a spoofed Googlebot's burst sets off nothing; a restart while an alert fires sends it
 * no second time; a receiver that is down gets the alert once it is up.
 */
@ProcessTest
@ClickHouseTest
class AlertsServeTest {

    static final String GOOGLEBOT_IP = "66.249.66.1";
    static final String SPOOFER_IP = "203.0.113.9";
    private static final DateTimeFormatter LOGGED = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    /** A combined-format line of Googlebot's agent from {@code ip}, at {@code at}. */
    static String line(String ip, Instant at, String url, int status) {
        return ip + " - - [" + LOGGED.format(at) + "] \"GET " + url + " HTTP/1.1\" " + status + " 0 \"-\" \"" + SampleLogs.GOOGLEBOT
                + "\" 0.001\n";
    }

    static void append(Path log, String lines) throws Exception {
        Files.writeString(log, lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private ServeProcess serve(Path log, String db, Path rules, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--follow", log.toString(), "--db", db, "--port", "0", "--dns-server", "none",
                "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--timezone", "UTC", "--alerts", rules.toString()));
        args.addAll(List.of(more));
        ServeProcess serve = ServeProcess.start(dir.resolve("serve-" + open.size() + ".out"), args.toArray(String[]::new));
        open.add(serve);
        return serve;
    }

    private AlertReceiver receiver() throws Exception {
        AlertReceiver receiver = new AlertReceiver();
        open.add(receiver);
        return receiver;
    }

    private Path rules(String text) throws Exception {
        return Files.writeString(dir.resolve("alerts.conf"), text);
    }

    @Test
    void eachKindFiresOnceAndResolvesOnceAndASpoofedBurstFiresNothing() throws Exception {
        AlertReceiver receiver = receiver();
        Path rules = rules("""
                # short windows, so each alert resolves within seconds
                server-error-burst min-hits=5 window=10s
                new-pattern        min-hits=3 window=10s new-for=1d
                error-rate-jump    window=10s factor=3 min-rate=0.5 min-hits=5 min-baseline-hits=20
                robots-txt
                webhook %s
                """.formatted(receiver.url()));
        Path log = dir.resolve("access.log");
        // a week of quiet crawling before: the baseline the error rate is compared with
        Instant now = Instant.now();
        StringBuilder before = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            before.append(line(GOOGLEBOT_IP, now.minusSeconds(3 * 3600 + i * 600L), "/page/" + i, 200));
        }
        append(log, before.toString());
        ServeProcess serve = serve(log, dir.resolve("hits.duckdb").toString(), rules);

        // a spoofed Googlebot's burst of 5xx on a new kind of URL: none of it counts
        StringBuilder spoofed = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            spoofed.append(line(SPOOFER_IP, Instant.now(), "/api/" + i, 503));
        }
        append(log, spoofed.toString());
        // then robots.txt answers Googlebot 500: the first alert, and nothing of the spoofer's before or with it
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/robots.txt", 500));
        JsonNode robots = receiver.await("RobotsTxtNotOk", "firing", 30);
        assertThat(robots.path("annotations").path("summary").asText()).contains("got 500 for /robots.txt");
        assertThat(robots.path("generatorURL").asText()).startsWith(serve.base() + "/crawl-errors?url=%2Frobots.txt&crawler=Googlebot")
                .contains("&at=");
        assertThat(receiver.bodies()).allSatisfy(body -> assertThat(body.path("alerts")).allSatisfy(
                alert -> assertThat(alert.path("labels").path("alertname").asText()).isEqualTo("RobotsTxtNotOk")));
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/robots.txt", 200));
        receiver.await("RobotsTxtNotOk", "resolved", 30);

        // a deploy breaks a kind of page: a 5xx burst on a new URL shape, which is an error-rate jump as well
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            burst.append(line(GOOGLEBOT_IP, Instant.now(), "/api/" + i, 503));
        }
        append(log, burst.toString());
        JsonNode server = receiver.await("CrawlerServerErrors", "firing", 30);
        assertThat(server.path("labels").path("family").asText()).isEqualTo("Google");
        assertThat(server.path("annotations").path("summary").asText()).containsPattern("got [89] server errors \\(5xx\\) in the last 10 seconds");
        JsonNode shape = receiver.await("CrawlErrorNewPattern", "firing", 30);
        assertThat(shape.path("labels").path("shape").asText()).isEqualTo("/api/{n}");
        receiver.await("CrawlErrorRateJump", "firing", 30);
        // quiet for the windows' 10 s: each resolves
        for (String name : List.of("CrawlerServerErrors", "CrawlErrorNewPattern", "CrawlErrorRateJump")) {
            receiver.await(name, "resolved", 40);
        }
        for (String name : List.of("RobotsTxtNotOk", "CrawlerServerErrors", "CrawlErrorNewPattern", "CrawlErrorRateJump")) {
            assertThat(receiver.alerts(name, "firing")).as(name + " firing").hasSize(1);
            assertThat(receiver.alerts(name, "resolved")).as(name + " resolved").hasSize(1);
        }
        String page = get(serve.base() + "/crawl-errors/alerts");
        assertThat(page).contains("id=\"none-firing\"").contains("id=\"resolved\"").contains("CrawlErrorNewPattern")
                .contains("shape=/api/{n}").contains("href=\"/crawl-errors?status=4xx&amp;status=5xx&amp;verification=verified&amp;pattern=");
        String metrics = get(serve.base() + "/metrics");
        assertThat(metrics).contains("crawl_errors_alert_notifications_total{outcome=\"sent\",receiver=\"http://127.0.0.1:");
        assertThat(metrics).containsPattern("crawl_errors_crawler_error_hits_total\\{family=\"Google\",status=\"503\",verification=\"spoofed\"} 30");
        assertThat(metrics).contains("crawl_errors_robots_txt_status{family=\"Google\"} 200.0")
                .contains("crawl_errors_follow_last_growth_timestamp_seconds{source=\"" + log + "\"}")
                .contains("crawl_errors_follow_lag_seconds{source=\"" + log + "\"}")
                .contains("crawl_errors_alerts_firing{alertname=\"CrawlerServerErrors\"} 0.0")
                .containsPattern("crawl_errors_crawler_hits_total\\{bot_type=\"[a-z_]+\",family=\"Google\",status_class=\"5xx\","
                        + "verification=\"verified\"} 9.0");
        assertThat(serve.printed()).contains("alerts: sent to http://127.0.0.1:");
    }

    @Test
    void alertVerificationWidensWhoseHitsCount() throws Exception {
        AlertReceiver receiver = receiver();
        Path rules = rules("""
                server-error-burst min-hits=5 window=10m
                webhook %s
                """.formatted(receiver.url()));
        Path log = dir.resolve("access.log");
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/", 200));
        ServeProcess serve = serve(log, dir.resolve("hits.duckdb").toString(), rules, "--alert-verification", "verified,spoofed");
        // the same spoofed burst that fires nothing by default fires once the operator counts spoofed hits
        StringBuilder spoofed = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            spoofed.append(line(SPOOFER_IP, Instant.now(), "/api/" + i, 503));
        }
        append(log, spoofed.toString());
        JsonNode alert = receiver.await("CrawlerServerErrors", "firing", 30);
        assertThat(alert.path("annotations").path("summary").asText())
                .startsWith("Google's verified or spoofed crawlers got 6 server errors (5xx)");
        assertThat(alert.path("generatorURL").asText()).startsWith(serve.base() + "/crawl-errors?")
                .contains("verification=spoofed&verification=verified");
    }

    @Test
    void aRestartWhileAnAlertFiresDoesNotSendItAgain() throws Exception {
        restartSendsNothingTwice(dir.resolve("hits.duckdb").toString());
    }

    @Test
    void onClickHouseARestartWhileAnAlertFiresDoesNotSendItAgain() throws Exception {
        ClickHouseTestCluster clickhouse = ClickHouseTestCluster.plainServer();
        restartSendsNothingTwice(clickhouse.url(ClickHouseTestCluster.database("alerts")));
    }

    /** Fires an alert, restarts serve while it holds, and sets off another to know the new one evaluated: the first came once. */
    void restartSendsNothingTwice(String db) throws Exception {
        AlertReceiver receiver = receiver();
        Path rules = rules("""
                server-error-burst min-hits=5 window=10m
                robots-txt
                webhook %s
                """.formatted(receiver.url()));
        Path log = dir.resolve("access.log");
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/robots.txt", 200));
        ServeProcess first = serve(log, db, rules);
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            burst.append(line(GOOGLEBOT_IP, Instant.now(), "/api/" + i, 503));
        }
        append(log, burst.toString());
        receiver.await("CrawlerServerErrors", "firing", 30);
        first.process().destroy();
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();

        ServeProcess second = serve(log, db, rules);
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/robots.txt", 503));
        receiver.await("RobotsTxtNotOk", "firing", 30);
        assertThat(receiver.alerts("CrawlerServerErrors", "firing")).hasSize(1);
        assertThat(receiver.alerts("CrawlerServerErrors", "resolved")).isEmpty();
        assertThat(get(second.base() + "/metrics")).contains("crawl_errors_alerts_firing{alertname=\"CrawlerServerErrors\"} 1");
        assertThat(get(second.base() + "/crawl-errors/alerts")).contains("id=\"firing\"").contains("CrawlerServerErrors")
                .contains("RobotsTxtNotOk");
    }

    @Test
    void aReceiverThatIsDownGetsTheAlertOnceItIsUp() throws Exception {
        AlertReceiver receiver = receiver();
        receiver.failFirst(2);
        Path log = dir.resolve("access.log");
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/", 200));
        // the default rules, with the webhook given on the command line
        Path rules = rules("");
        ServeProcess serve = serve(log, dir.resolve("hits.duckdb").toString(), rules, "--alert-webhook", receiver.url());
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/robots.txt", 503));
        receiver.await("RobotsTxtNotOk", "firing", 40);
        assertThat(receiver.posts()).isGreaterThanOrEqualTo(3);
        assertThat(receiver.alerts("RobotsTxtNotOk", "firing")).hasSize(1);
        assertThat(serve.printed()).contains("alerts: not sent to http://127.0.0.1:").contains("it answered 500");
        assertThat(get(serve.base() + "/metrics")).containsPattern("crawl_errors_alert_notifications_total\\{outcome=\"failed\",receiver=\"[^\"]+\"} [1-9]");
    }

    private String get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
