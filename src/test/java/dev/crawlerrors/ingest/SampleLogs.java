package dev.crawlerrors.ingest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;

/** Access-log lines as the servers really write them, shared by the tests of every stage that reads logs. */
public final class SampleLogs {

    public static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    /** What the widely copied {@code log_format json_combined escape=json '{"time_local":"$time_local",...}'} writes. */
    public static final String NGINX_JSON = "{\"time_local\":\"14/May/2025:09:31:02 +0200\",\"remote_addr\":\"66.249.66.1\",\"remote_user\":\"\","
            + "\"request\":\"GET /gent/veldstraat?x=1 HTTP/1.1\",\"status\": \"404\",\"body_bytes_sent\":\"153\",\"request_time\":\"0.012\","
            + "\"http_referrer\":\"\",\"http_user_agent\":\"" + GOOGLEBOT + "\"}";

    /** Caddy 2.7's and later access log: nested request with client_ip, header arrays, ts and duration in seconds. */
    public static final String CADDY = "{\"level\":\"info\",\"ts\":1747207862.5241024,\"logger\":\"http.log.access.log0\",\"msg\":\"handled request\","
            + "\"request\":{\"remote_ip\":\"172.18.0.1\",\"remote_port\":\"41342\",\"client_ip\":\"66.249.66.1\",\"proto\":\"HTTP/2.0\","
            + "\"method\":\"GET\",\"host\":\"www.straatinfo.be\",\"uri\":\"/gent/veldstraat?x=1\",\"headers\":{\"Accept\":[\"*/*\"],"
            + "\"User-Agent\":[\"" + GOOGLEBOT + "\"],\"Accept-Encoding\":[\"gzip, deflate, br\"]},\"tls\":{\"resumed\":false,"
            + "\"version\":772,\"cipher_suite\":4865,\"proto\":\"h2\",\"server_name\":\"www.straatinfo.be\"}},\"bytes_read\":0,"
            + "\"user_id\":\"\",\"duration\":0.000929675,\"size\":10900,\"status\":404,\"resp_headers\":{\"Server\":[\"Caddy\"],"
            + "\"Content-Type\":[\"text/html; charset=utf-8\"]}}";

    /**
     * Caddy 2.0 to 2.4's access log: the client as {@code request.remote_addr}, address and port in one
     * (an IPv6 address in brackets, as a Caddy 2.3.0 log in allinurl/goaccess#2081 shows), and a
     * {@code common_log} copy of the line; Caddy 2.5.0 split the address into {@code remote_ip} and
     * {@code remote_port} and dropped {@code common_log} (caddyserver/caddy#4403).
     */
    public static final String CADDY_2_4 = "{\"level\":\"info\",\"ts\":1747207862.5241024,\"logger\":\"http.log.access.log0\","
            + "\"msg\":\"handled request\",\"request\":{\"remote_addr\":\"66.249.66.1:41342\",\"proto\":\"HTTP/2.0\",\"method\":\"GET\","
            + "\"host\":\"www.straatinfo.be\",\"uri\":\"/gent/veldstraat?x=1\",\"headers\":{\"User-Agent\":[\"" + GOOGLEBOT + "\"],"
            + "\"Accept\":[\"*/*\"],\"Accept-Encoding\":[\"gzip, deflate, br\"]},\"tls\":{\"resumed\":false,\"version\":772,"
            + "\"cipher_suite\":4865,\"proto\":\"h2\",\"proto_mutual\":true,\"server_name\":\"www.straatinfo.be\"}},"
            + "\"common_log\":\"66.249.66.1 - - [14/May/2025:07:31:02 +0000] \\\"GET /gent/veldstraat?x=1 HTTP/2.0\\\" 404 10900\","
            + "\"duration\":0.000929675,\"size\":10900,\"status\":404,\"resp_headers\":{\"Server\":[\"Caddy\"],"
            + "\"Content-Type\":[\"text/html; charset=utf-8\"]}}";

    /**
     * Caddy 2.5 and 2.6's access log: {@code remote_ip} and {@code remote_port}, no {@code client_ip} yet (2.7),
     * a {@code user_id}; {@code ts} in epoch seconds and {@code duration} in seconds, as their JSON encoder writes
     * them unless told otherwise (the shape of a Caddy 2.6.2 line in crowdsecurity/hub#995).
     */
    public static final String CADDY_2_6 = "{\"level\":\"info\",\"ts\":1747207862.5241024,\"logger\":\"http.log.access.log0\","
            + "\"msg\":\"handled request\",\"request\":{\"remote_ip\":\"66.249.66.1\",\"remote_port\":\"41342\",\"proto\":\"HTTP/2.0\","
            + "\"method\":\"GET\",\"host\":\"www.straatinfo.be\",\"uri\":\"/gent/veldstraat?x=1\",\"headers\":{\"User-Agent\":[\""
            + GOOGLEBOT + "\"],\"Accept\":[\"*/*\"],\"Accept-Encoding\":[\"gzip, deflate, br\"]},\"tls\":{\"resumed\":false,"
            + "\"version\":772,\"cipher_suite\":4865,\"proto\":\"h2\",\"server_name\":\"www.straatinfo.be\"}},\"user_id\":\"\","
            + "\"duration\":0.000929675,\"size\":10900,\"status\":404,\"resp_headers\":{\"Server\":[\"Caddy\"],"
            + "\"Content-Type\":[\"text/html; charset=utf-8\"]}}";

    /** Traefik's JSON access log (logrus sorts the keys), with the User-Agent header kept. */
    public static final String TRAEFIK = "{\"ClientAddr\":\"66.249.66.1:54321\",\"ClientHost\":\"66.249.66.1\",\"ClientPort\":\"54321\","
            + "\"ClientUsername\":\"-\",\"DownstreamContentSize\":19,\"DownstreamStatus\":404,\"Duration\":2349000,"
            + "\"OriginContentSize\":19,\"OriginDuration\":2101000,\"OriginStatus\":404,\"Overhead\":248000,"
            + "\"RequestAddr\":\"www.straatinfo.be\",\"RequestContentSize\":0,\"RequestCount\":7,\"RequestHost\":\"www.straatinfo.be\","
            + "\"RequestMethod\":\"GET\",\"RequestPath\":\"/gent/veldstraat?x=1\",\"RequestPort\":\"-\",\"RequestProtocol\":\"HTTP/1.1\","
            + "\"RequestScheme\":\"https\",\"RetryAttempts\":0,\"RouterName\":\"site@docker\",\"ServiceAddr\":\"172.18.0.3:80\","
            + "\"ServiceName\":\"site@docker\",\"ServiceURL\":\"http://172.18.0.3:80\",\"StartLocal\":\"2025-05-14T09:31:02.123456789+02:00\","
            + "\"StartUTC\":\"2025-05-14T07:31:02.123456789Z\",\"TLSCipher\":\"TLS_AES_128_GCM_SHA256\",\"TLSVersion\":\"1.3\","
            + "\"entryPointName\":\"websecure\",\"level\":\"info\",\"msg\":\"\",\"request_User-Agent\":\"" + GOOGLEBOT + "\","
            + "\"time\":\"2025-05-14T09:31:02+02:00\"}";

    /** The header IIS 10 writes at the top of each log file, with its default fields. */
    public static final String IIS_HEADER = """
            #Software: Microsoft Internet Information Services 10.0
            #Version: 1.0
            #Date: 2025-05-14 07:31:00
            #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken
            """;

    public static final String IIS_LINE = "2025-05-14 07:31:02 10.0.0.4 GET /gent/veldstraat x=1 443 - 66.249.66.1 "
            + "Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - 404 0 2 15";

    /** The header of a CloudFront standard log file (its fields are tab-separated, the directive's are not). */
    public static final String CLOUDFRONT_HEADER = """
            #Version: 1.0
            #Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end
            """;

    public static final String CLOUDFRONT_LINE = String.join("\t", "2025-05-14", "07:31:02", "AMS1-P2", "1045", "66.249.66.1", "GET",
            "d111111abcdef8.cloudfront.net", "/gent/veldstraat", "404", "-",
            "Mozilla/5.0%20(compatible;%20Googlebot/2.1;%20+http://www.google.com/bot.html)", "x=1", "-", "Error",
            "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==", "www.straatinfo.be", "https", "245", "0.002", "-", "TLSv1.3",
            "TLS_AES_128_GCM_SHA256", "Error", "HTTP/2.0", "-", "-", "51234", "0.002", "Error", "text/html", "1045", "-", "-");

    private SampleLogs() {
    }

    /** A verified Googlebot error hit for {@code /page/i}, one line with its newline. */
    public static String line(int i) {
        return "66.249.66." + (i % 250) + " - - [14/May/2025:09:31:02 +0200] \"GET /page/" + i + " HTTP/1.1\" 404 0 \"-\" "
                + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 0.001\n";
    }

    public static String lines(int from, int to) {
        StringBuilder sb = new StringBuilder();
        IntStream.rangeClosed(from, to).forEach(i -> sb.append(line(i)));
        return sb.toString();
    }

    /** The test's IP list, so every check is offline. */
    public static Path ipRanges(Path dir) throws IOException {
        Path ranges = Files.createDirectories(dir.resolve("ranges"));
        Files.writeString(ranges.resolve("common-crawlers.json"),
                "{\"creationTime\":\"2026-11-20T00:00:00\",\"prefixes\":[{\"ipv4Prefix\":\"66.249.64.0/19\"}]}");
        return ranges;
    }
}
