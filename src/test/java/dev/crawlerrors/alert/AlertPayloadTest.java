package dev.crawlerrors.alert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a receiver is posted: Alertmanager's webhook format, Slack's text, and an Alertmanager's API. */
class AlertPayloadTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long START = Instant.parse("2026-11-29T06:30:12Z").toEpochMilli();
    private final AlertPayload payload = new AlertPayload(() -> "https://crawl.example.com/");

    private static Alert.Notice notice(String name, boolean firing, String summary) {
        return new Alert.Notice("server-error-burst|" + name + "|Google", Map.of("alertname", name, "family", "Google", "severity", "critical"),
                summary, "/crawl-errors?status=5xx&at=s1", firing, START, firing ? 0 : START + 60_000);
    }

    @Test
    void aWebhookGetsAlertmanagersFormatWithTheSummaryAndTheLink() throws Exception {
        JsonNode body = JSON.readTree(payload.body(Receiver.of("http://127.0.0.1:9/hook", AlertFormat.alertmanager),
                List.of(notice("CrawlerServerErrors", true, "Google's verified crawlers got 12 server errors"),
                        notice("Other", false, "resolved one")), START));
        assertThat(body.path("version").asText()).isEqualTo("4");
        assertThat(body.path("status").asText()).isEqualTo("firing");
        assertThat(body.path("externalURL").asText()).isEqualTo("https://crawl.example.com/crawl-errors/alerts");
        assertThat(body.path("commonLabels").path("family").asText()).isEqualTo("Google");
        assertThat(body.path("commonLabels").has("alertname")).isFalse();
        JsonNode firing = body.path("alerts").get(0);
        assertThat(firing.path("status").asText()).isEqualTo("firing");
        assertThat(firing.path("endsAt").asText()).isEqualTo("0001-01-01T00:00:00Z");
        assertThat(firing.path("startsAt").asText()).isEqualTo("2026-11-29T06:30:12Z");
        assertThat(firing.path("generatorURL").asText()).isEqualTo("https://crawl.example.com/crawl-errors?status=5xx&at=s1");
        assertThat(firing.path("fingerprint").asText()).hasSize(16);
        assertThat(body.path("alerts").get(1).path("endsAt").asText()).isEqualTo("2026-11-29T06:31:12Z");
        assertThat(body.path("text").asText()).startsWith("crawl-errors: 1 firing, 1 resolved\n[FIRING] CrawlerServerErrors: ");
    }

    @Test
    void slackGetsThePlainTextAloneWithWhatALogWroteEscaped() throws Exception {
        JsonNode body = JSON.readTree(payload.body(Receiver.of("https://hooks.slack.com/services/T/B/X", AlertFormat.slack),
                List.of(notice("RobotsTxtNotOk", true, "Googlebot got 500 for /robots.txt on <evil>&host")), START));
        assertThat(body.properties()).hasSize(1);
        assertThat(body.path("text").asText()).isEqualTo("crawl-errors: 1 firing\n[FIRING] RobotsTxtNotOk: Googlebot got 500 for "
                + "/robots.txt on &lt;evil&gt;&amp;host\n  https://crawl.example.com/crawl-errors?status=5xx&amp;at=s1");
    }

    @Test
    void anAlertmanagersApiGetsAlertsValidForFourResends() throws Exception {
        JsonNode body = JSON.readTree(payload.body(Receiver.of("http://127.0.0.1:9093/api/v2/alerts", AlertFormat.slack),
                List.of(notice("CrawlerServerErrors", true, "burst")), START));
        assertThat(body.isArray()).isTrue();
        assertThat(body.get(0).path("endsAt").asText()).isEqualTo("2026-11-29T06:34:12Z");
        assertThat(body.get(0).path("labels").path("alertname").asText()).isEqualTo("CrawlerServerErrors");
    }
}
