package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class NginxFormatTest {

    /** nginx's built-in combined format plus $request_time, as docs/formats.md tells users to configure it. */
    static final String COMBINED_WITH_TIME = "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
            + "\"$http_referer\" \"$http_user_agent\" $request_time";

    private static Hit parse(LineParser parser, String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    @Test
    void readsACombinedLineWithRequestTime() throws Exception {
        Hit hit = parse(NginxFormat.compile(COMBINED_WITH_TIME), "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerpen/meir?p=2 HTTP/1.1\" "
                + "404 153 \"https://www.google.com/\" \"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 0.012");

        assertThat(hit).isEqualTo(new Hit(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli(), 120, "66.249.66.1", "GET",
                "/antwerpen/meir?p=2", 404, 153, "https://www.google.com/",
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 12.0, null));
    }

    @Test
    void readsTheSameLineAsCombinedLineParser() throws Exception {
        String[] lines = {
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot/2.1\" 0.004",
            "2001:4860:4801:10::1 - frank [01/Jan/2026:00:15:00 -0500] \"HEAD /x?y=1 HTTP/2.0\" 301 0 \"https://example.org/\" \"Googlebot-Image/1.0\" 0.000",
            "203.0.113.9 - - [14/May/2025:09:31:02 +0200] \"GET /caf\\xC3\\xA9 HTTP/1.1\" 404 0 \"-\" \"Mozilla/5.0 \\\"quoted\\\" Googlebot\" 1.250",
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"-\" 400 0 \"-\" \"-\" 0.000",
        };
        LineParser compiled = NginxFormat.compile(COMBINED_WITH_TIME);
        for (String line : lines) {
            assertThat(parse(compiled, line)).as(line).isEqualTo(parse(new CombinedLineParser(), line));
        }
    }

    @Test
    void readsLinesWrittenBeforeTheRequestTimeWasAdded() throws Exception {
        Hit hit = parse(NginxFormat.compile(COMBINED_WITH_TIME), "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\"");

        assertThat(hit.status()).isEqualTo(200);
        assertThat(hit.hasDuration()).isFalse();
    }

    @Test
    void acceptsTheWholeLogFormatDirectiveAsPastedFromNginxConf() throws Exception {
        LineParser parser = NginxFormat.compile("log_format main '$remote_addr - $remote_user [$time_local] \"$request\" '\n"
                + "                  '$status $body_bytes_sent \"$http_referer\" '\n"
                + "                  '\"$http_user_agent\" \"$http_x_forwarded_for\"';");

        Hit hit = parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /a HTTP/1.1\" 404 0 \"-\" \"Googlebot/2.1\" \"-\"");

        assertThat(hit.url()).isEqualTo("/a");
        assertThat(hit.ip()).isEqualTo("66.249.66.1");
        assertThat(parser.describe())
                .isEqualTo("nginx format '$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                        + "\"$http_referer\" \"$http_user_agent\" \"$http_x_forwarded_for\"'");
    }

    @Test
    void keepsTheLoggedClientWhateverForwardedForSays() throws Exception {
        LineParser parser = NginxFormat.compile("$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                + "\"$http_referer\" \"$http_user_agent\" \"$http_x_forwarded_for\"");

        Hit behindProxy = parse(parser, "10.0.0.2 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\" "
                + "\"66.249.66.1, 192.0.2.7, 66.249.66.20\"");
        Hit direct = parse(parser, "198.51.100.4 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\" \"66.249.66.1\"");

        assertThat(behindProxy.ip()).as("only --trusted-proxies makes a private sender a proxy").isEqualTo("10.0.0.2");
        assertThat(behindProxy.forwardedFor()).isEqualTo("66.249.66.1, 192.0.2.7, 66.249.66.20");
        assertThat(direct.ip()).isEqualTo("198.51.100.4");
    }

    @Test
    void readsACustomFormatWithHostIsoTimeSplitRequestAndUpstreamTimes() throws Exception {
        LineParser parser = NginxFormat.compile("$host $remote_addr [$time_iso8601] $request_method $uri?$args $status "
                + "$bytes_sent rt=$request_time urt=\"$upstream_response_time\" ua=\"$http_user_agent\" $connection");

        Hit hit = parse(parser, "www.straatinfo.be:443 2a03:2880:f800:1::1 [2025-05-14T09:31:02+02:00] POST /api/zoek?q=meir 503 "
                + "390 rt=0.250 urt=\"0.100, 0.148\" ua=\"meta-externalagent/1.1\" 8812");

        assertThat(hit.host()).isEqualTo("www.straatinfo.be");
        assertThat(hit.ip()).isEqualTo("2a03:2880:f800:1::1");
        assertThat(Instant.ofEpochMilli(hit.epochMillis())).isEqualTo(Instant.parse("2025-05-14T07:31:02Z"));
        assertThat(hit.offsetMinutes()).isEqualTo(120);
        assertThat(hit.method()).isEqualTo("POST");
        assertThat(hit.url()).isEqualTo("/api/zoek?q=meir");
        assertThat(hit.status()).isEqualTo(503);
        assertThat(hit.bytes()).isEqualTo(390);
        assertThat(hit.durationMs()).isEqualTo(250.0);
        assertThat(hit.userAgent()).isEqualTo("meta-externalagent/1.1");
    }

    @Test
    void fallsBackToTheUpstreamTimesWhenThereIsNoRequestTime() throws Exception {
        LineParser parser = NginxFormat.compile("$remote_addr [$time_local] \"$request\" $status $upstream_response_time \"$http_user_agent\"");

        Hit hit = parse(parser, "66.249.66.1 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 502 0.030, 0.002 : 0.001 \"Googlebot\"");
        Hit none = parse(parser, "66.249.66.1 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 - \"Googlebot\"");

        assertThat(hit.durationMs()).isEqualTo(33.0);
        assertThat(hit.userAgent()).isEqualTo("Googlebot");
        assertThat(none.hasDuration()).isFalse();
    }

    @Test
    void readsMsecAsUtcAndBracedVariableNames() throws Exception {
        LineParser parser = NginxFormat.compile("${msec} ${remote_addr} \"${request_uri}\" ${status} \"${http_user_agent}\"");

        Hit hit = parse(parser, "1747207862.123 66.249.66.1 \"/gent?x=1\" 410 \"Googlebot\"");

        assertThat(hit.epochMillis()).isEqualTo(1_747_207_862_123L);
        assertThat(hit.offsetMinutes()).isZero();
        assertThat(hit.url()).isEqualTo("/gent?x=1");
        assertThat(hit.method()).isEmpty();
    }

    @Test
    void skipsVariablesItDoesNotKnow() throws Exception {
        LineParser parser = NginxFormat.compile("$remote_addr $ssl_protocol/$ssl_cipher [$time_local] \"$request\" $status \"$http_user_agent\" $gzip_ratio");

        Hit hit = parse(parser, "66.249.66.1 TLSv1.3/TLS_AES_256_GCM_SHA384 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 \"Googlebot\" 2.41");

        assertThat(hit.status()).isEqualTo(200);
        assertThat(hit.userAgent()).isEqualTo("Googlebot");
    }

    @Test
    void namesTheFieldTheValueAndWhatWasExpected() {
        LineParser parser = NginxFormat.compile(COMBINED_WITH_TIME);

        assertThatThrownBy(() -> parse(parser, "66.249.66.1 - - [13/Aug/2025] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\" 0.1"))
                .hasMessage("'13/Aug/2025' is not a $time_local; expected dd/MMM/yyyy:HH:mm:ss Z")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("bad time");
        assertThatThrownBy(() -> parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 2xx 5 \"-\" \"x\" 0.1"))
                .hasMessage("'2xx' is not a $status; expected a three-digit status");
        assertThatThrownBy(() -> parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\" fast"))
                .hasMessage("'fast' is not a $request_time; expected seconds such as 0.012");
        assertThatThrownBy(() -> parse(parser, "{\"remote_addr\":\"66.249.66.1\"}"))
                .hasMessage("'{\"remote_addr\":\"66.249.66.1\"}' is not a $remote_addr; expected an IPv4 or IPv6 address");
        assertThatThrownBy(() -> parse(parser, "66.249.66.1 | - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .hasMessage("expected ' - ' after $remote_addr; got ' | - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\"...'");
        assertThatThrownBy(() -> parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Goo"))
                .hasMessage("$http_user_agent has no closing quote; the line looks truncated");
    }

    @Test
    void rejectsAFormatItCannotUseAndSaysWhatIsMissing() {
        assertThatThrownBy(() -> NginxFormat.compile("$remote_addr \"$request\" $status"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the nginx format has no field for a time: $time_local, $time_iso8601 or $msec; the report needs it");
        assertThatThrownBy(() -> NginxFormat.compile("$remote_addr [$time_local] $status"))
                .hasMessage("the nginx format has no field for the request: $request, $request_uri or $uri; the report needs it");
        assertThatThrownBy(() -> NginxFormat.compile("$remote_addr [$time_local] \"$request\""))
                .hasMessage("the nginx format has no field for $status; the report needs it");
        assertThatThrownBy(() -> NginxFormat.compile("[$time_local] \"$request\" $status"))
                .hasMessage("the nginx format has no field for the client address: $remote_addr; the report needs it");
        assertThatThrownBy(() -> NginxFormat.compile("$remote_addr$remote_user [$time_local] \"$request\" $status"))
                .hasMessageStartingWith("nginx format '$remote_addr$remote_user [$time_local] \"$request\" $status': "
                        + "$remote_addr and $remote_user have nothing between them");
        assertThatThrownBy(() -> NginxFormat.compile("  "))
                .hasMessageStartingWith("the nginx format is empty");
    }

    @Test
    void aFormatWithoutAnAgentAsksTheFilterAboutAnEmptyOne() throws Exception {
        FieldLineParser parser = (FieldLineParser) NginxFormat.compile("$remote_addr [$time_local] \"$request\" $status");
        byte[] line = "66.249.66.1 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200".getBytes(StandardCharsets.UTF_8);

        assertThat(parser.hasAgent()).isFalse();
        assertThat(parser.parse(line, 0, line.length, (b, from, to) -> to > from)).isNull();
        assertThat(parser.parse(line, 0, line.length, AgentFilter.ALL).userAgent()).isNull();
    }

    @Test
    void theFilterSeesTheAgentBytesBeforeAnyStringIsBuilt() throws Exception {
        LineParser parser = NginxFormat.compile(COMBINED_WITH_TIME);
        byte[] line = "1.2.3.4 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Mozilla/5.0 Firefox/138.0\" 0.001"
                .getBytes(StandardCharsets.UTF_8);
        String[] seen = new String[1];

        Hit hit = parser.parse(line, 0, line.length, (b, from, to) -> {
            seen[0] = new String(b, from, to - from, StandardCharsets.UTF_8);
            return false;
        });

        assertThat(hit).isNull();
        assertThat(seen[0]).isEqualTo("Mozilla/5.0 Firefox/138.0");
    }
}
