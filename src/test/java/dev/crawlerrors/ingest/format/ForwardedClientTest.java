package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What a proxy said about the client goes with the hit, in every format that records it: nginx's
 * {@code $http_x_forwarded_for} (or {@code $http_cf_connecting_ip}), Apache's
 * {@code %{X-Forwarded-For}i}, JSON logs' fields, W3C's {@code cs(X-Forwarded-For)}. Behind a proxy
 * that is not private, the logged address stays the proxy's: only {@code --trusted-proxies} may
 * replace it.
 */
class ForwardedClientTest {

    private static final String AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    private static Hit parse(LineParser parser, String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    @Test
    void nginxKeepsXForwardedForAndTheLoggedAddress() throws Exception {
        LineParser parser = NginxFormat.compile("$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                + "\"$http_referer\" \"$http_user_agent\" \"$http_x_forwarded_for\"");

        Hit hit = parse(parser, "173.245.48.5 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"" + AGENT
                + "\" \"203.0.113.9, 66.249.66.1\"");
        Hit none = parse(parser, "173.245.48.5 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"" + AGENT + "\" \"-\"");

        assertThat(hit.ip()).isEqualTo("173.245.48.5");
        assertThat(hit.forwardedFor()).isEqualTo("203.0.113.9, 66.249.66.1");
        assertThat(none.forwardedFor()).isNull();
    }

    @Test
    void nginxKeepsCloudflaresConnectingIpWhenItLogsNoXForwardedFor() throws Exception {
        LineParser parser = NginxFormat.compile("$remote_addr [$time_local] \"$request\" $status \"$http_user_agent\" $http_cf_connecting_ip");

        Hit hit = parse(parser, "173.245.48.5 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 \"" + AGENT + "\" 66.249.66.1");

        assertThat(hit.ip()).isEqualTo("173.245.48.5");
        assertThat(hit.forwardedFor()).isEqualTo("66.249.66.1");
    }

    @Test
    void apacheKeepsTheForwardedHeaders() throws Exception {
        LineParser xff = ApacheFormat.compile("%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" \"%{X-Forwarded-For}i\"");
        LineParser trueClient = ApacheFormat.compile("%h %t \"%r\" %>s \"%{User-Agent}i\" %{True-Client-IP}i");

        assertThat(parse(xff, "173.245.48.5 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"" + AGENT
                + "\" \"66.249.66.1\"").forwardedFor()).isEqualTo("66.249.66.1");
        assertThat(parse(trueClient, "23.32.0.9 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 \"" + AGENT + "\" 66.249.66.1")
                .forwardedFor()).isEqualTo("66.249.66.1");
    }

    @Test
    void jsonKeepsXForwardedForOverTheConnectingIp() throws Exception {
        JsonLineParser parser = new JsonLineParser();
        String start = "{\"time_iso8601\":\"2025-05-14T09:31:02+02:00\",\"remote_addr\":\"173.245.48.5\",\"request\":\"GET / HTTP/1.1\","
                + "\"status\":404,\"http_user_agent\":\"" + AGENT + "\"";

        assertThat(parse(parser, start + ",\"http_x_forwarded_for\":\"66.249.66.1\",\"http_cf_connecting_ip\":\"198.51.100.1\"}")
                .forwardedFor()).isEqualTo("66.249.66.1");
        assertThat(parse(parser, start + ",\"http_cf_connecting_ip\":\"66.249.66.1\"}").forwardedFor()).isEqualTo("66.249.66.1");
        assertThat(parse(parser, start + "}").forwardedFor()).isNull();
    }

    @Test
    void w3cKeepsTheForwardedHeaderAsIisWritesIt() throws Exception {
        W3cLineParser parser = new W3cLineParser();
        parse(parser, "#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent) cs(X-Forwarded-For)");

        Hit hit = parse(parser, "2025-05-14 07:31:02 173.245.48.5 GET / 404 " + AGENT.replace(' ', '+') + " 203.0.113.9,+66.249.66.1");

        assertThat(hit.ip()).isEqualTo("173.245.48.5");
        assertThat(hit.forwardedFor()).isEqualTo("203.0.113.9, 66.249.66.1");
    }

    @Test
    void aPrivateOrLoopbackSenderStaysTheClientInEveryFormat() throws Exception {
        LineParser nginx = NginxFormat.compile("$remote_addr [$time_local] \"$request\" $status \"$http_user_agent\" \"$http_x_forwarded_for\"");
        W3cLineParser w3c = new W3cLineParser();
        parse(w3c, "#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent) cs(X-Forwarded-For)");
        String json = "{\"time_iso8601\":\"2025-05-14T09:31:02+02:00\",\"remote_addr\":\"172.17.0.1\",\"request\":\"GET / HTTP/1.1\","
                + "\"status\":404,\"http_user_agent\":\"" + AGENT + "\",\"http_x_forwarded_for\":\"66.249.66.1\"}";

        Hit fromNginx = parse(nginx, "10.0.0.2 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 \"" + AGENT + "\" \"203.0.113.9, 66.249.66.1\"");
        Hit fromW3c = parse(w3c, "2025-05-14 07:31:02 127.0.0.1 GET / 404 " + AGENT.replace(' ', '+') + " 66.249.66.1");
        Hit fromJson = parse(new JsonLineParser(), json);

        assertThat(fromNginx.ip()).isEqualTo("10.0.0.2");
        assertThat(fromNginx.forwardedFor()).isEqualTo("203.0.113.9, 66.249.66.1");
        assertThat(fromW3c.ip()).isEqualTo("127.0.0.1");
        assertThat(fromJson.ip()).isEqualTo("172.17.0.1");
        assertThat(fromJson.forwardedFor()).isEqualTo("66.249.66.1");
    }

    @Test
    void aFormatWithoutAnAddressOfItsOwnTakesTheLastForwardedOne() throws Exception {
        LineParser parser = NginxFormat.compile("[$time_local] \"$request\" $status \"$http_user_agent\" \"$proxy_add_x_forwarded_for\"");

        Hit hit = parse(parser, "[14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 \"" + AGENT + "\" \"203.0.113.9, 66.249.66.1\"");

        assertThat(hit.ip()).isEqualTo("66.249.66.1");
    }
}
