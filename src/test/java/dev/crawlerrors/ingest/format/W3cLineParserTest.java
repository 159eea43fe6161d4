package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.source.ReadRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.source.LogReader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class W3cLineParserTest {

    private static final String GOOGLEBOT = SampleLogs.GOOGLEBOT;
    private static final long TIME = Instant.parse("2025-05-14T07:31:02Z").toEpochMilli();

    private final W3cLineParser parser = new W3cLineParser();

    /** Parses each line in turn; directives give null. */
    private List<Hit> parseAll(String lines) throws BadLineException {
        List<Hit> hits = new ArrayList<>();
        for (String line : lines.split("\n")) {
            hits.add(parse(line));
        }
        return hits;
    }

    private Hit parse(String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    @Test
    void readsIisWithItsHeaderLinesAsDirectives() throws Exception {
        List<Hit> hits = parseAll(SampleLogs.IIS_HEADER + SampleLogs.IIS_LINE);

        assertThat(hits).hasSize(5);
        assertThat(hits.subList(0, 4)).containsOnlyNulls();
        assertThat(hits.get(4)).isEqualTo(new Hit(TIME, 0, "66.249.66.1", "GET", "/gent/veldstraat?x=1", 404, -1, null, GOOGLEBOT, 15.0, null));
        assertThat(parser.describe()).isEqualTo("W3C extended (IIS)");
    }

    /**
     * IIS ends its lines with CRLF, directives and data alike. The reader that imports use drops the
     * return; were it left on, the #Fields directive would name "time-taken\r", a field no one knows,
     * and every duration would be lost without a bad line to say so (as this test shows when it is).
     */
    @Test
    void readsAnIisLogWithCrlfLineEndsThroughTheReaderImportsUse(@TempDir Path dir) throws Exception {
        String human = "2025-05-14 07:31:05 10.0.0.4 GET / - 443 - 198.51.100.7 "
                + "Mozilla/5.0+(X11;+Linux+x86_64;+rv:138.0)+Gecko/20100101+Firefox/138.0 https://www.straatinfo.be/gent 200 0 0 4";
        Path log = dir.resolve("u_ex250514.log");
        Files.writeString(log, (SampleLogs.IIS_HEADER + SampleLogs.IIS_LINE + "\n" + human + "\n").replace("\n", "\r\n"));
        List<String> notices = new ArrayList<>();
        List<Hit> hits = new ArrayList<>();

        ParseCounts counts;
        try (LogReader reader = new LogReader(NamedFormats.chooser("auto", notices::add), 2); InputStream in = Files.newInputStream(log)) {
            counts = reader.read(in, ReadRequest.of("u_ex250514.log", AgentFilter.ALL, hits::addAll));
        }

        assertThat(hits).containsExactly(
                new Hit(TIME, 0, "66.249.66.1", "GET", "/gent/veldstraat?x=1", 404, -1, null, GOOGLEBOT, 15.0, null),
                new Hit(TIME + 3_000, 0, "198.51.100.7", "GET", "/", 200, -1, "https://www.straatinfo.be/gent",
                        "Mozilla/5.0 (X11; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0", 4.0, null));
        assertThat(counts.linesRead()).isEqualTo(6);
        // the four directives are read and counted apart from the requests
        assertThat(counts.linesParsed()).isEqualTo(2);
        assertThat(counts.linesDirective()).isEqualTo(4);
        assertThat(counts.linesBad()).isZero();
        assertThat(notices).containsExactly("format: W3C extended (IIS); auto-detected from all 6 lines of u_ex250514.log, 6 parsed");
    }

    @Test
    void readsCloudFrontWithItsUrlEncodedAgentSecondsAndHostHeader() throws Exception {
        List<Hit> hits = parseAll(SampleLogs.CLOUDFRONT_HEADER + SampleLogs.CLOUDFRONT_LINE);

        assertThat(hits.get(2)).isEqualTo(new Hit(TIME, 0, "66.249.66.1", "GET", "/gent/veldstraat?x=1", 404, 1045, null, GOOGLEBOT, 2.0,
                "www.straatinfo.be"));
        assertThat(parser.describe()).isEqualTo("W3C extended (Amazon CloudFront)");
    }

    @Test
    void cloudFrontsOwnRedirectToHttpsIsReadAsItsTarget() throws Exception {
        // as a real CloudFront log writes Googlebot asking http://www.jmglov.net/ (a distribution that redirects http to
        // https): 301, x-edge-result-type Redirect, cs-protocol http, and no Location; written anew in that shape
        String redirect = String.join("\t", "2022-09-03", "00:56:20", "DFW55-C1", "580", "66.249.73.28", "GET",
                "d111111abcdef8.cloudfront.net", "/gent/veldstraat", "301", "-",
                "Mozilla/5.0%20(compatible;%20Googlebot/2.1;%20+http://www.google.com/bot.html)", "x=1", "-", "Redirect",
                "CPL5Efkr9IFJcSzwkioyS8_wl_OlMatuxKWl7rackaFjdYXi2JZs2w==", "www.straatinfo.be", "http", "293", "0.000", "-", "-", "-",
                "Redirect", "HTTP/1.1", "-", "-", "47050", "0.000", "Redirect", "text/html", "183", "-", "-");
        // an origin's own 301 (a Miss): its target is not in the log
        String origin = redirect.replace("\tRedirect\t", "\tMiss\t").replace("\thttp\t", "\thttps\t");

        List<Hit> hits = parseAll(SampleLogs.CLOUDFRONT_HEADER + redirect + "\n" + origin);

        assertThat(hits.get(2).location()).isEqualTo("https://www.straatinfo.be/gent/veldstraat?x=1");
        assertThat(hits.get(2).status()).isEqualTo(301);
        assertThat(hits.get(3).location()).isNull();
        assertThat(parseAll(SampleLogs.CLOUDFRONT_HEADER + SampleLogs.CLOUDFRONT_LINE).get(2).location()).isNull();
    }

    @Test
    void followsAFieldsDirectiveThatChangesMidFile() throws Exception {
        parseAll(SampleLogs.IIS_HEADER + SampleLogs.IIS_LINE);

        parse("#Fields: time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)");
        Hit hit = parse("08:00:00 157.55.39.1 HEAD /brugge 301 bingbot/2.0");

        assertThat(hit.epochMillis()).isEqualTo(Instant.parse("2025-05-14T08:00:00Z").toEpochMilli());
        assertThat(hit.url()).isEqualTo("/brugge");
        assertThat(hit.userAgent()).isEqualTo("bingbot/2.0");
        assertThat(hit.hasDuration()).isFalse();
        assertThatThrownBy(() -> parse(SampleLogs.IIS_LINE)).hasMessage("the line has 15 fields; the #Fields directive names 6");
    }

    @Test
    void aDataLineBeforeAnyFieldsDirectiveIsBad() {
        assertThatThrownBy(() -> parse(SampleLogs.IIS_LINE))
                .hasMessageStartingWith("a line before any #Fields directive, so its fields are unknown; is this a W3C log? got '2025-05-14 07:31:02")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("no #Fields");
    }

    @Test
    void aFieldsDirectiveTheReportCannotUseIsBadAndSoAreTheLinesAfterIt() {
        assertThatThrownBy(() -> parse("#Fields: date time c-ip cs-method cs-uri-stem"))
                .hasMessage("the #Fields directive has no sc-status, which the report needs")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("unusable #Fields");
        assertThatThrownBy(() -> parse("2025-05-14 07:31:02 66.249.66.1 GET /"))
                .hasMessage("the fields of this line are unknown: the #Fields directive has no sc-status, which the report needs");
    }

    @Test
    void namesTheBadValue() throws Exception {
        parseAll(SampleLogs.IIS_HEADER);

        assertThatThrownBy(() -> parse(SampleLogs.IIS_LINE.replace("2025-05-14 07:31:02", "2025-02-30 07:31:02")))
                .hasMessage("'2025-02-30 07:31:02' is not a W3C date and time (date time); expected yyyy-MM-dd HH:mm:ss in UTC");
        assertThatThrownBy(() -> parse(SampleLogs.IIS_LINE.replace(" 404 0 2 15", " 4o4 0 2 15")))
                .hasMessage("'4o4' is not a sc-status; expected a three-digit status");
        assertThatThrownBy(() -> parse(SampleLogs.IIS_LINE.replace(" 404 0 2 15", " 404 0 2 fast")))
                .hasMessage("'fast' is not a time-taken; expected milliseconds");
    }

    @Test
    void theFilterSeesTheDecodedAgent() throws Exception {
        parseAll(SampleLogs.IIS_HEADER);
        byte[] line = SampleLogs.IIS_LINE.getBytes(StandardCharsets.UTF_8);
        String[] seen = new String[1];

        Hit hit = parser.parse(line, 0, line.length, (b, from, to) -> {
            seen[0] = new String(b, from, to - from, StandardCharsets.UTF_8);
            return false;
        });

        assertThat(hit).isNull();
        assertThat(seen[0]).isEqualTo(GOOGLEBOT);
    }

    @Test
    void isSequentialAndACopyStartsWithoutFields() {
        assertThat(parser.sequential()).isTrue();
        assertThat(new CombinedLineParser().sequential()).isFalse();
        assertThatThrownBy(() -> {
            parseAll(SampleLogs.IIS_HEADER);
            byte[] line = SampleLogs.IIS_LINE.getBytes(StandardCharsets.UTF_8);
            parser.copy().parse(line, 0, line.length, AgentFilter.ALL);
        }).hasMessageStartingWith("a line before any #Fields directive");
    }
}
