package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JsonLineParserTest {

    private final JsonLineParser parser = new JsonLineParser();

    private Hit parse(String line) throws BadLineException {
        return parse(parser, line);
    }

    private static Hit parse(LineParser parser, String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    @Test
    void readsNginxEscapeJsonWithTheUsualKeys() throws Exception {
        assertThat(parse(SampleLogs.NGINX_JSON)).isEqualTo(new Hit(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli(), 120, "66.249.66.1", "GET",
                "/gent/veldstraat?x=1", 404, 153, null, SampleLogs.GOOGLEBOT, 12.0, null));
    }

    /** The hit of {@link SampleLogs#CADDY} and the older Caddys' lines for it, from {@code ip}, its time at {@code offsetMinutes}. */
    private static Hit caddyHit(String ip, int offsetMinutes) {
        return new Hit(1_747_207_862_524L, offsetMinutes, ip, "GET", "/gent/veldstraat?x=1", 404, 10900, null, SampleLogs.GOOGLEBOT,
                0.929675, "www.straatinfo.be");
    }

    @Test
    void readsWhereARedirectWentFromNginxJsonAndCaddysResponseHeaders() throws Exception {
        String nginx = SampleLogs.NGINX_JSON.replace("\"status\": \"404\"", "\"status\": \"301\",\"sent_http_location\":\"/gent/veldstraat/\"");
        String caddy = SampleLogs.CADDY.replace("\"status\":404", "\"status\":308")
                .replace("\"resp_headers\":{", "\"resp_headers\":{\"Location\":[\"/gent/veldstraat/?x=1\"],");

        assertThat(nginx).contains("\"sent_http_location\"");
        assertThat(parse(nginx).location()).isEqualTo("/gent/veldstraat/");
        assertThat(parse(caddy).location()).isEqualTo("/gent/veldstraat/?x=1");
        assertThat(parse(SampleLogs.CADDY).location()).isNull();
    }

    @Test
    void readsCaddysNestedRequestWithTheClientBehindItsProxy() throws Exception {
        assertThat(parse(SampleLogs.CADDY)).isEqualTo(caddyHit("66.249.66.1", 0));
        assertThat(parser.describe()).isEqualTo("JSON lines (Caddy)");
    }

    @Test
    void readsCaddyBefore25WhoseRemoteAddrHoldsThePort() throws Exception {
        String ipv6 = SampleLogs.CADDY_2_4.replace("\"remote_addr\":\"66.249.66.1:41342\"", "\"remote_addr\":\"[2001:4860:4801:10::1]:52814\"");

        assertThat(parse(SampleLogs.CADDY_2_4)).isEqualTo(caddyHit("66.249.66.1", 0));
        assertThat(parse(ipv6)).isEqualTo(caddyHit("2001:4860:4801:10::1", 0));
        assertThat(parser.describe()).isEqualTo("JSON lines (Caddy)");
    }

    @Test
    void readsCaddy25And26WithRemoteIpAndNoClientIp() throws Exception {
        // time_format iso8601 makes them write ts as zap's ISO layout, offset without a colon (allinurl/goaccess#2780)
        String isoTime = SampleLogs.CADDY_2_6.replace("\"ts\":1747207862.5241024", "\"ts\":\"2025-05-14T09:31:02.524+0200\"");

        assertThat(parse(SampleLogs.CADDY_2_6)).isEqualTo(caddyHit("66.249.66.1", 0));
        assertThat(parse(isoTime)).isEqualTo(caddyHit("66.249.66.1", 120));
    }

    @Test
    void ofCaddysClientKeysTheNewestWinsWhateverTheirOrder() throws Exception {
        String all = "{\"ts\":1747207862.5,\"request\":{\"client_ip\":\"66.249.66.1\",\"remote_ip\":\"10.0.0.2\","
                + "\"remote_addr\":\"10.0.0.3:41342\",\"method\":\"GET\",\"uri\":\"/\"},\"status\":404}";

        assertThat(parse(all).ip()).isEqualTo("66.249.66.1");
        assertThat(parse(all.replace("\"client_ip\":\"66.249.66.1\",", "")).ip()).isEqualTo("10.0.0.2");
    }

    @Test
    void readsTraefiksStartTimeAndNanosecondDuration() throws Exception {
        assertThat(parse(SampleLogs.TRAEFIK)).isEqualTo(new Hit(Instant.parse("2025-05-14T07:31:02.123Z").toEpochMilli(), 120, "66.249.66.1",
                "GET", "/gent/veldstraat?x=1", 404, 19, null, SampleLogs.GOOGLEBOT, 2.349, "www.straatinfo.be"));
        assertThat(parser.describe()).isEqualTo("JSON lines (Traefik)");
    }

    /**
     * Traefik v2 writes ServiceURL as Go's url.URL, an object (Traefik 2.11 in traefik/traefik#10891; an IPv6
     * client as ClientAddr "[::1]:59922" and ClientHost "::1" in traefik/traefik#6130). Its Host and Path
     * are the backend's, not the request's.
     */
    @Test
    void readsTraefikV2WithItsNestedServiceUrlAndAnIpv6Client() throws Exception {
        String line = "{\"ClientAddr\":\"[2001:4860:4801:10::1]:54321\",\"ClientHost\":\"2001:4860:4801:10::1\",\"ClientPort\":\"54321\","
                + "\"ClientUsername\":\"-\",\"DownstreamContentSize\":19,\"DownstreamStatus\":404,\"Duration\":17277000,"
                + "\"OriginContentSize\":19,\"OriginDuration\":17188000,\"OriginStatus\":404,\"Overhead\":89000,"
                + "\"RequestAddr\":\"www.straatinfo.be\",\"RequestContentSize\":0,\"RequestCount\":1,\"RequestHost\":\"www.straatinfo.be\","
                + "\"RequestMethod\":\"GET\",\"RequestPath\":\"/gent/veldstraat?x=1\",\"RequestPort\":\"-\",\"RequestProtocol\":\"HTTP/2.0\","
                + "\"RequestScheme\":\"https\",\"RetryAttempts\":0,\"RouterName\":\"site@docker\",\"ServiceAddr\":\"10.0.0.5:80\","
                + "\"ServiceName\":\"site@docker\",\"ServiceURL\":{\"Scheme\":\"http\",\"Opaque\":\"\",\"User\":null,\"Host\":\"10.0.0.5:80\","
                + "\"Path\":\"/backend\",\"RawPath\":\"\",\"OmitHost\":false,\"ForceQuery\":false,\"RawQuery\":\"\",\"Fragment\":\"\","
                + "\"RawFragment\":\"\"},\"StartLocal\":\"2025-05-14T09:31:02.123456789+02:00\","
                + "\"StartUTC\":\"2025-05-14T07:31:02.123456789Z\",\"TLSCipher\":\"TLS_AES_128_GCM_SHA256\",\"TLSVersion\":\"1.3\","
                + "\"entryPointName\":\"websecure\",\"level\":\"info\",\"msg\":\"\",\"request_User-Agent\":\"" + SampleLogs.GOOGLEBOT + "\","
                + "\"time\":\"2025-05-14T09:31:02+02:00\"}";

        assertThat(parse(line)).isEqualTo(new Hit(Instant.parse("2025-05-14T07:31:02.123Z").toEpochMilli(), 120, "2001:4860:4801:10::1",
                "GET", "/gent/veldstraat?x=1", 404, 19, null, SampleLogs.GOOGLEBOT, 17.277, "www.straatinfo.be"));
        assertThat(parser.describe()).isEqualTo("JSON lines (Traefik)");
    }

    @Test
    void traefikLinesWithoutTheAgentHeaderAreDroppedByACrawlerFilter() throws Exception {
        byte[] line = SampleLogs.TRAEFIK.replace(",\"request_User-Agent\":\"" + SampleLogs.GOOGLEBOT + "\"", "").getBytes(StandardCharsets.UTF_8);

        assertThat(parser.parse(line, 0, line.length, (b, from, to) -> to > from)).isNull();
        assertThat(parser.parse(line, 0, line.length, AgentFilter.ALL).userAgent()).isNull();
    }

    @Test
    void theFilterSeesTheDecodedAgentBeforeTheLineIsParsed() throws Exception {
        byte[] line = "{\"http_user_agent\":\"Mozilla\\/5.0 \\\"Firefox\\\" caf\\u00e9 \\ud83d\\ude00\", this is not JSON}".getBytes(StandardCharsets.UTF_8);
        String[] seen = new String[1];

        Hit hit = parser.parse(line, 0, line.length, (b, from, to) -> {
            seen[0] = new String(b, from, to - from, StandardCharsets.UTF_8);
            return false;
        });

        assertThat(hit).isNull();
        assertThat(seen[0]).isEqualTo("Mozilla/5.0 \"Firefox\" café \uD83D\uDE00");
    }

    @Test
    void readsKeysAsTheVariablesAnNginxJsonTemplatePutsInThem() throws Exception {
        LineParser custom = NginxFormat.compile("log_format crawl escape=json '{\"t\":\"$msec\",\"ip\":\"$remote_addr\",'\n"
                + "  '\"m\":\"$request_method\",\"u\":\"$request_uri\",\"s\":$status,\"rt\":$request_time,\"ua\":\"$http_user_agent\",\"h\":\"$host\"}';");

        Hit hit = parse(custom, "{\"t\":\"1747207862.123\",\"ip\":\"66.249.66.1\",\"m\":\"GET\",\"u\":\"/a?b=c\",\"s\":410,\"rt\":0.250,"
                + "\"ua\":\"Googlebot/2.1\",\"h\":\"straatinfo.be\"}");

        assertThat(hit).isEqualTo(new Hit(1_747_207_862_123L, 0, "66.249.66.1", "GET", "/a?b=c", 410, -1, null, "Googlebot/2.1", 250.0,
                "straatinfo.be"));
        assertThatThrownBy(() -> NginxFormat.compile("{\"ip\":\"$remote_addr\",\"s\":$status,\"u\":\"$request_uri\"}"))
                .hasMessage("the nginx JSON format has no key for a time: $time_iso8601, $time_local or $msec; the report needs it");
    }

    @Test
    void readsIsoTimesWithoutOffsetEpochMillisAndGoDurations() throws Exception {
        Hit iso = parse("{\"time\":\"2025-05-14 07:31:02\",\"ip\":\"66.249.66.1\",\"method\":\"GET\",\"path\":\"/x\",\"query\":\"y=1\","
                + "\"status\":301,\"duration\":\"1.5ms\"}");
        Hit millis = parse("{\"timestamp\":1747207862123,\"remote_addr\":\"66.249.66.1\",\"uri\":\"/\",\"status\":\"200\"}");

        assertThat(iso.epochMillis()).isEqualTo(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli());
        assertThat(iso.url()).isEqualTo("/x?y=1");
        assertThat(iso.durationMs()).isEqualTo(1.5);
        assertThat(millis.epochMillis()).isEqualTo(1_747_207_862_123L);
        assertThat(millis.method()).isEmpty();
    }

    @Test
    void namesWhatIsWrongOrMissing() {
        assertThatThrownBy(() -> parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .hasMessageStartingWith("expected a JSON object, starting with '{'; got '66.249.66.1 - - [")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("not JSON");
        assertThatThrownBy(() -> parse("{\"time\":\"2025-05-14T07:31:02Z\",\"status\":200"))
                .hasMessage("the JSON object does not end with '}'; the line looks truncated");
        assertThatThrownBy(() -> parse("{\"time\":\"2025-05-14T07:31:02Z\" \"status\":200}"))
                .hasMessageStartingWith("not a JSON object: Unexpected character ('\"' (code 34)): was expecting comma to separate Object entries");
        assertThatThrownBy(() -> parse("{\"remote_addr\":\"66.249.66.1\",\"request_uri\":\"/\",\"status\":200}"))
                .hasMessage("the JSON object has no time (looked for time_iso8601, time_local, msec, time, ts, StartUTC)");
        assertThatThrownBy(() -> parse("{\"time\":\"yesterday\",\"remote_addr\":\"66.249.66.1\",\"request_uri\":\"/\",\"status\":200}"))
                .hasMessage("'yesterday' (time) is not a time; expected ISO 8601 such as 2025-05-14T09:31:02+02:00, dd/MMM/yyyy:HH:mm:ss Z or epoch seconds");
        assertThatThrownBy(() -> parse("{\"ts\":1747207862,\"remote_addr\":\"66.249.66.1\",\"request_uri\":\"/\",\"status\":0}"))
                .hasMessage("'0' (status) is not a status; expected a three-digit status");
    }

    @Test
    void quotesAtMostSixtyCharactersOfABadValueWithItsControlsEscaped() {
        String hostile = "\u001b]0;PWNED\u0007" + "9".repeat(60_000);

        assertThatThrownBy(() -> parse("{\"time\":\"" + hostile.replace("\u001b", "\\u001b").replace("\u0007", "\\u0007")
                + "\",\"remote_addr\":\"66.249.66.1\",\"request_uri\":\"/\",\"status\":200}"))
                .hasMessage("'\\x1B]0;PWNED\\x07" + "9".repeat(50) + "...' (time) is not a time; expected ISO 8601 such as"
                        + " 2025-05-14T09:31:02+02:00, dd/MMM/yyyy:HH:mm:ss Z or epoch seconds");
    }
}
