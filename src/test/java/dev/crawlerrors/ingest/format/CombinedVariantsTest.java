package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The NCSA variants beside plain combined: common, and either with a virtual-host prefix. */
class CombinedVariantsTest {

    private static Hit parse(LineParser parser, String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    /**
     * Every NCSA format (combined, combined-vhost, common, common-vhost), each without a request
     * time, with nginx's {@code $request_time} (seconds, with a decimal point: 0.012 is 12 ms) and with
     * Apache's {@code %D} (microseconds, an integer: 1530 is 1.53 ms), as (format, request time, ms).
     */
    static Stream<Arguments> everyNcsaFormat() {
        List<Arguments> cases = new ArrayList<>();
        for (String format : List.of("combined", "combined-vhost", "common", "common-vhost")) {
            cases.add(Arguments.of(format, "", Double.NaN));
            cases.add(Arguments.of(format, "0.012", 12.0));
            cases.add(Arguments.of(format, "1530", 1.53));
        }
        return cases.stream();
    }

    /**
     * A Googlebot 404 in {@code format} ending in {@code requestTime}; a virtual host is written as the
     * server that writes that request time writes it: nginx's {@code $host} bare, Apache's {@code %v:%p}
     * with the port.
     */
    static String ncsaLine(String format, String requestTime) {
        String vhost = !format.endsWith("-vhost") ? "" : requestTime.contains(".") ? "www.straatinfo.be " : "www.straatinfo.be:443 ";
        String refererAndAgent = format.startsWith("combined") ? " \"https://www.straatinfo.be/gent\" \"" + SampleLogs.GOOGLEBOT + "\"" : "";
        return vhost + "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /gent/veldstraat?x=1 HTTP/1.1\" 404 196" + refererAndAgent
                + (requestTime.isEmpty() ? "" : " " + requestTime);
    }

    @ParameterizedTest(name = "{0} with request time ''{1}''")
    @MethodSource("everyNcsaFormat")
    void readsEveryNcsaFormatWithoutARequestTimeOrWithEitherServersOne(String format, String requestTime, double durationMs)
            throws Exception {
        LineParser parser = LogFormat.valueOf(format.toUpperCase(Locale.ROOT).replace('-', '_')).parser();
        boolean combined = format.startsWith("combined");

        Hit hit = parse(parser, ncsaLine(format, requestTime));

        assertThat(hit).isEqualTo(new Hit(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli(), 120, "66.249.66.1", "GET",
                "/gent/veldstraat?x=1", 404, 196, combined ? "https://www.straatinfo.be/gent" : null, combined ? SampleLogs.GOOGLEBOT : null,
                durationMs, format.endsWith("-vhost") ? "www.straatinfo.be" : null));
    }

    @Test
    void readsApacheVhostCombinedWithItsPortStrippedFromTheHost() throws Exception {
        Hit hit = parse(CombinedLineParser.combinedVhost(), "www.straatinfo.be:443 66.249.66.1 - - [14/May/2025:09:31:02 +0200] "
                + "\"GET /gent/veldstraat HTTP/1.1\" 404 196 \"-\" \"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\"");

        assertThat(hit.host()).isEqualTo("www.straatinfo.be");
        assertThat(hit.ip()).isEqualTo("66.249.66.1");
        assertThat(hit.url()).isEqualTo("/gent/veldstraat");
        assertThat(hit.status()).isEqualTo(404);
        assertThat(hit.userAgent()).isEqualTo("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)");
        assertThat(hit.hasDuration()).isFalse();
    }

    @Test
    void readsAnNginxHostPrefixWithoutPortAndARequestTime() throws Exception {
        Hit hit = parse(CombinedLineParser.combinedVhost(), "straatinfo.be 2001:4860:4801:10::1 - - [14/May/2025:09:31:02 +0200] "
                + "\"GET /gent HTTP/2.0\" 301 0 \"-\" \"Googlebot/2.1\" 0.004");

        assertThat(hit.host()).isEqualTo("straatinfo.be");
        assertThat(hit.ip()).isEqualTo("2001:4860:4801:10::1");
        assertThat(hit.durationMs()).isEqualTo(4.0);
    }

    @Test
    void rejectsAPlainCombinedLineAsVhostCombined() {
        assertThatThrownBy(() -> parse(CombinedLineParser.combinedVhost(), "66.249.66.1 - - [14/May/2025:09:31:02 +0200] "
                + "\"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\""))
                .hasMessage("expected identity and user (such as '- -') between the client address and the time; got '- '; "
                        + "is there a virtual host before the client address?");
    }

    @Test
    void rejectsAVhostCombinedLineAsCombinedSayingWhatTheHostIs() {
        assertThatThrownBy(() -> parse(CombinedLineParser.combined(), "neutralbank.example:443 66.249.66.1 - - [14/May/2025:09:31:02 +0200] "
                + "\"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\""))
                .hasMessage("'neutralbank.example:443' is not a client address (an IPv4 or IPv6 address); "
                        + "a virtual host before the address is the combined-vhost format");
        assertThatThrownBy(() -> parse(CombinedLineParser.combined(), "www.example.org 66.249.66.1 - - [14/May/2025:09:31:02 +0200] "
                + "\"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\""))
                .hasMessageEndingWith("a virtual host before the address is the combined-vhost format");
    }

    @Test
    void readsABracketedIpv6ClientWithoutItsBrackets() throws Exception {
        Hit hit = parse(CombinedLineParser.combined(), "[2001:db8::1] - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"Googlebot\"");

        assertThat(hit.ip()).isEqualTo("2001:db8::1");
    }

    @Test
    void readsCommonLinesWithoutAnAgent() throws Exception {
        Hit hit = parse(CombinedLineParser.common(), "66.249.66.1 - frank [14/May/2025:09:31:02 +0200] \"GET /antwerpen/meir?x=1 HTTP/1.1\" 500 -");

        assertThat(hit.ip()).isEqualTo("66.249.66.1");
        assertThat(Instant.ofEpochMilli(hit.epochMillis())).isEqualTo(Instant.parse("2025-05-14T07:31:02Z"));
        assertThat(hit.method()).isEqualTo("GET");
        assertThat(hit.url()).isEqualTo("/antwerpen/meir?x=1");
        assertThat(hit.status()).isEqualTo(500);
        assertThat(hit.bytes()).isEqualTo(-1);
        assertThat(hit.userAgent()).isNull();
        assertThat(hit.referer()).isNull();
        assertThat(hit.host()).isNull();
    }

    @Test
    void readsCommonWithApacheMicroseconds() throws Exception {
        Hit hit = parse(CombinedLineParser.common(), "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 512 2150");

        assertThat(hit.durationMs()).isEqualTo(2.15);
    }

    @Test
    void readsVhostCommon() throws Exception {
        Hit hit = parse(CombinedLineParser.commonVhost(), "shop.example.org 203.0.113.5 - - [01/Jan/2026:00:00:00 +0000] \"HEAD /cart HTTP/1.1\" 302 0");

        assertThat(hit.host()).isEqualTo("shop.example.org");
        assertThat(hit.method()).isEqualTo("HEAD");
        assertThat(hit.status()).isEqualTo(302);
    }

    @Test
    void commonLinesAreDroppedByAFilterThatNeedsAnAgent() throws Exception {
        byte[] line = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5".getBytes(StandardCharsets.UTF_8);
        int[] asked = {-1, -1};

        Hit hit = CombinedLineParser.common().parse(line, 0, line.length, (b, from, to) -> {
            asked[0] = from;
            asked[1] = to;
            return to > from;
        });

        assertThat(hit).isNull();
        assertThat(asked[1] - asked[0]).isZero();
    }

    @Test
    void saysWhenACommonParserMeetsACombinedLine() {
        assertThatThrownBy(() -> parse(CombinedLineParser.common(), "66.249.66.1 - - [14/May/2025:09:31:02 +0200] "
                + "\"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\""))
                .hasMessage("a quoted field follows the response size: '\"-\" \"Googlebot\"'; this looks like combined format, not common")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("not common");
    }

    @Test
    void readsTraefiksCommonLogWithItsDurationInMilliseconds() throws Exception {
        Hit hit = parse(new CombinedLineParser(), "66.249.66.1 - - [10/Oct/2025:13:55:36 +0000] \"GET /api HTTP/1.1\" 404 19 \"-\" "
                + "\"Googlebot/2.1\" 42 \"web-router@docker\" \"http://10.0.0.2:80\" 7ms");

        assertThat(hit.status()).isEqualTo(404);
        assertThat(hit.durationMs()).isEqualTo(7.0);
    }

    @Test
    void describesTheRequestTimeItRead() throws Exception {
        CombinedLineParser nginx = CombinedLineParser.combined();
        parse(nginx, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\" 0.012");
        CombinedLineParser apache = CombinedLineParser.combinedVhost();
        parse(apache, "h:80 66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\" 153");
        CombinedLineParser plain = CombinedLineParser.common();
        parse(plain, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5");

        assertThat(nginx.describe()).isEqualTo("combined with request time in seconds (nginx $request_time)");
        assertThat(apache.describe()).isEqualTo("combined-vhost with request time in microseconds (Apache %D)");
        assertThat(plain.describe()).isEqualTo("common");
    }
}
