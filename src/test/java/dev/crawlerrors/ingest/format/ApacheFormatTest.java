package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ApacheFormatTest {

    /** Apache's combined LogFormat plus %D, as docs/formats.md tells users to configure it. */
    static final String COMBINED_WITH_TIME = "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D";

    private static Hit parse(LineParser parser, String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    @Test
    void readsACombinedLineWithMicroseconds() throws Exception {
        Hit hit = parse(ApacheFormat.compile(COMBINED_WITH_TIME), "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /gent/veldstraat HTTP/1.1\" "
                + "404 - \"-\" \"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 1530");

        assertThat(hit).isEqualTo(new Hit(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli(), 120, "66.249.66.1", "GET",
                "/gent/veldstraat", 404, -1, null, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", 1.53, null));
    }

    @Test
    void readsWhereARedirectWentFromTheLocationResponseHeader() throws Exception {
        LineParser parser = ApacheFormat.compile(COMBINED_WITH_TIME + " \"%{Location}o\"");

        Hit hit = parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /gent HTTP/1.1\" 301 - \"-\" \"Googlebot/2.1\" 1530"
                + " \"https://www.straatinfo.be/gent/\"");

        assertThat(hit.location()).isEqualTo("https://www.straatinfo.be/gent/");
        assertThat(parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /gent/ HTTP/1.1\" 304 - \"-\" \"Googlebot/2.1\" 12 \"-\"")
                .location()).isNull();
    }

    @Test
    void readsDebiansVhostCombinedDirectiveAsPastedFromApache2Conf() throws Exception {
        LineParser parser = ApacheFormat.compile("LogFormat \"%v:%p %h %l %u %t \\\"%r\\\" %>s %O \\\"%{Referer}i\\\" \\\"%{User-Agent}i\\\"\" vhost_combined");

        Hit hit = parse(parser, "www.straatinfo.be:443 157.55.39.10 - - [14/May/2025:09:31:02 +0200] \"GET /brugge HTTP/1.1\" 301 512 \"-\" "
                + "\"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)\"");

        assertThat(hit.host()).isEqualTo("www.straatinfo.be");
        assertThat(hit.ip()).isEqualTo("157.55.39.10");
        assertThat(hit.status()).isEqualTo(301);
        assertThat(hit.bytes()).isEqualTo(512);
        assertThat(parser.describe())
                .isEqualTo("Apache format '%v:%p %h %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\"'");
    }

    @Test
    void readsEscapedQuotesInTheRequestAndAgent() throws Exception {
        Hit hit = parse(ApacheFormat.compile(COMBINED_WITH_TIME), "203.0.113.9 - - [14/May/2025:09:31:02 +0200] \"GET /a\\\"b HTTP/1.1\" 404 0 "
                + "\"-\" \"Mozilla/5.0 \\\"quoted\\\" \\\\ Googlebot\" 12");

        assertThat(hit.url()).isEqualTo("/a\"b");
        assertThat(hit.userAgent()).isEqualTo("Mozilla/5.0 \"quoted\" \\ Googlebot");
    }

    @Test
    void readsACustomFormatWithSplitRequestEpochTimeAndConditions() throws Exception {
        LineParser parser = ApacheFormat.compile("%a %{msec}t %m %U%q %H %>s %B %{ms}T %V \"%400,501{User-agent}i\" \"%{X-Forwarded-For}i\" %{SSL_PROTOCOL}x %%");

        Hit hit = parse(parser, "2001:db8::7 1747207862123 GET /antwerpen?page=2 HTTP/2.0 500 0 87 straatinfo.be "
                + "\"Googlebot/2.1\" \"-\" TLSv1.3 %");

        assertThat(hit.ip()).isEqualTo("2001:db8::7");
        assertThat(hit.epochMillis()).isEqualTo(1_747_207_862_123L);
        assertThat(hit.method()).isEqualTo("GET");
        assertThat(hit.url()).isEqualTo("/antwerpen?page=2");
        assertThat(hit.status()).isEqualTo(500);
        assertThat(hit.bytes()).isZero();
        assertThat(hit.durationMs()).isEqualTo(87.0);
        assertThat(hit.host()).isEqualTo("straatinfo.be");
        assertThat(hit.userAgent()).isEqualTo("Googlebot/2.1");
    }

    @Test
    void readsWholeSecondsAndAnEmptyQueryString() throws Exception {
        Hit hit = parse(ApacheFormat.compile("%h %t \"%m %U%q %H\" %s %T \"%{User-Agent}i\""),
                "66.249.66.1 [14/May/2025:09:31:02 +0200] \"GET /leuven HTTP/1.1\" 200 2 \"Googlebot\"");

        assertThat(hit.url()).isEqualTo("/leuven");
        assertThat(hit.durationMs()).isEqualTo(2000.0);
    }

    @Test
    void readsTheCommonLogTimeWrittenWithAStrftimeFormat() throws Exception {
        Hit hit = parse(ApacheFormat.compile("%h [%{%d/%b/%Y:%H:%M:%S %z}t] \"%r\" %>s"),
                "66.249.66.1 [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200");

        assertThat(Instant.ofEpochMilli(hit.epochMillis())).isEqualTo(Instant.parse("2025-05-14T07:31:02Z"));
    }

    @Test
    void namesTheDirectiveTheValueAndWhatWasExpected() {
        LineParser parser = ApacheFormat.compile(COMBINED_WITH_TIME);

        assertThatThrownBy(() -> parse(parser, "66.249.66.1 - - [13/Aug/2025] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .hasMessage("'[13/Aug/2025]' is not a %t; expected [dd/MMM/yyyy:HH:mm:ss Z]");
        assertThatThrownBy(() -> parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5k \"-\" \"x\""))
                .hasMessage("'5k' is not a %b; expected a size in bytes or '-'");
        assertThatThrownBy(() -> parse(parser, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\" 12ms"))
                .hasMessage("'12ms' is not a %D; expected microseconds");
    }

    @Test
    void rejectsAFormatItCannotUseAndSaysWhatIsMissing() {
        assertThatThrownBy(() -> ApacheFormat.compile("%h \"%r\" %>s"))
                .hasMessage("the Apache format has no field for a time: %t (or %{sec}t, %{msec}t, %{usec}t); the report needs it");
        assertThatThrownBy(() -> ApacheFormat.compile("%h %{%Y%m%d}t \"%r\" %>s"))
                .hasMessageContaining("a %{...}t other than");
        assertThatThrownBy(() -> ApacheFormat.compile("%h %t %>s"))
                .hasMessage("the Apache format has no field for the request: %r or %U; the report needs it");
        assertThatThrownBy(() -> ApacheFormat.compile("%h %t \"%r\""))
                .hasMessage("the Apache format has no field for the status: %>s or %s; the report needs it");
        assertThatThrownBy(() -> ApacheFormat.compile("%h %t \"%r\" %>s 100%"))
                .hasMessage("the Apache format has '%' at character 19, which is not a directive; write %% for a percent sign");
    }
}
