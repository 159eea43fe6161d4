package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SampleLogs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

class FormatDetectorTest {

    private final List<String> notices = new ArrayList<>();
    private final FormatDetector detector = new FormatDetector(notices::add);

    static String combined(int i) {
        return "66.249.66." + (i % 250) + " - - [14/May/2025:09:31:02 +0200] \"GET /page/" + i + " HTTP/1.1\" 404 0 \"-\" \"Googlebot/2.1\" 0.012";
    }

    private static String lines(int n, IntFunction<String> line) {
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            log.append(line.apply(i)).append('\n');
        }
        return log.toString();
    }

    private FormatChooser.Choice choose(String log) throws UnrecognizedFormatException {
        return detector.choose(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), "access.log");
    }

    @Test
    void detectsNginxCombinedWithRequestTimeAndSaysSo() throws Exception {
        FormatChooser.Choice choice = choose(lines(1500, FormatDetectorTest::combined));

        assertThat(choice.detected()).isInstanceOf(CombinedLineParser.class);
        assertThat(notices).containsExactly("format: combined with request time in seconds (nginx $request_time); "
                + "auto-detected from the first 1,000 lines of access.log, 1,000 parsed");
    }

    @Test
    void replaysTheLinesItReadToDecide() throws Exception {
        String log = lines(1500, FormatDetectorTest::combined);

        FormatChooser.Choice choice = choose(log);

        assertThat(new String(choice.in().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(log);
    }

    @Test
    void detectsEachFormatFromRealLines() throws Exception {
        assertThat(describe(lines(3, i -> "www.straatinfo.be:443 " + combined(i).replace(" 0.012", "")))).isEqualTo("combined-vhost");
        assertThat(describe(lines(3, i -> combined(i).replace(" 0.012", " 1530")))).isEqualTo("combined with request time in microseconds (Apache %D)");
        assertThat(describe(lines(3, i -> "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /" + i + " HTTP/1.1\" 200 512"))).isEqualTo("common");
        assertThat(describe(lines(3, i -> "straatinfo.be 66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /" + i + " HTTP/1.1\" 200 512")))
                .isEqualTo("common-vhost");
        assertThat(describe(lines(3, i -> SampleLogs.NGINX_JSON))).isEqualTo("JSON lines");
        assertThat(describe(lines(3, i -> SampleLogs.CADDY))).isEqualTo("JSON lines (Caddy)");
        assertThat(describe(lines(3, i -> SampleLogs.CADDY_2_4))).isEqualTo("JSON lines (Caddy)");
        assertThat(describe(lines(3, i -> SampleLogs.CADDY_2_6))).isEqualTo("JSON lines (Caddy)");
        assertThat(describe(lines(3, i -> SampleLogs.TRAEFIK))).isEqualTo("JSON lines (Traefik)");
        assertThat(describe(SampleLogs.IIS_HEADER + SampleLogs.IIS_LINE + "\n")).isEqualTo("W3C extended (IIS)");
        assertThat(describe(SampleLogs.CLOUDFRONT_HEADER + SampleLogs.CLOUDFRONT_LINE)).isEqualTo("W3C extended (Amazon CloudFront)");
    }

    @Test
    void namesEachNcsaFormatWithTheRequestTimeItsLinesCarry() throws Exception {
        List<String> named = new ArrayList<>();
        for (Object[] ncsa : CombinedVariantsTest.everyNcsaFormat().map(Arguments::get).toList()) {
            named.add(describe(lines(3, i -> CombinedVariantsTest.ncsaLine((String) ncsa[0], (String) ncsa[1]))));
        }

        assertThat(named).containsExactly(
                "combined",
                "combined with request time in seconds (nginx $request_time)",
                "combined with request time in microseconds (Apache %D)",
                "combined-vhost",
                "combined-vhost with request time in seconds (nginx $request_time)",
                "combined-vhost with request time in microseconds (Apache %D)",
                "common",
                "common with request time in seconds (nginx $request_time)",
                "common with request time in microseconds (Apache %D)",
                "common-vhost",
                "common-vhost with request time in seconds (nginx $request_time)",
                "common-vhost with request time in microseconds (Apache %D)");
    }

    private String describe(String log) throws Exception {
        notices.clear();
        choose(log);
        String notice = notices.get(0);
        return notice.substring("format: ".length(), notice.indexOf("; auto-detected"));
    }

    @Test
    void warnsWhenTheDetectedLinesCarryNoAgent() throws Exception {
        choose(lines(2, i -> "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 512"));

        assertThat(notices).containsExactly("format: common; auto-detected from all 2 lines of access.log, 2 parsed; "
                + "these lines carry no user agent, so no crawler can be identified in them and none will be stored");
    }

    @Test
    void picksTheFormatThatReadsMostAndToleratesAFewBadLines() throws Exception {
        String log = "garbage\n" + lines(10, FormatDetectorTest::combined) + SampleLogs.CADDY + "\n";

        FormatChooser.Choice choice = choose(log);

        assertThat(choice.detected()).isInstanceOf(CombinedLineParser.class);
        assertThat(notices.get(0)).endsWith("auto-detected from all 12 lines of access.log, 10 parsed");
    }

    @Test
    void givesUpOnGarbageNamingTheFormatsTriedAndHowToNameOne() {
        String log = lines(9, i -> "2025-05-14T09:31:02 ERROR something failed (" + i + ")") + combined(1) + "\n";

        assertThatThrownBy(() -> choose(log))
                .isInstanceOf(UnrecognizedFormatException.class)
                .hasMessage("the log format could not be detected: 9 of all 10 lines are in none of the formats tried "
                        + "(combined-vhost, combined, common-vhost, common, json, w3c); the first such is "
                        + "'2025-05-14T09:31:02 ERROR something failed (1)'. Name the format with --format, e.g. "
                        + "--format 'nginx:<the log_format of your access_log>' or --format 'apache:<the LogFormat of your CustomLog>'");
    }

    @Test
    void givingUpQuotesTheFirstLineWithItsControlsEscaped() {
        String log = "\u001B]0;PWNED\u0007\u001B[2J\u009B\u202Eevil\n";

        assertThatThrownBy(() -> choose(log))
                .isInstanceOf(UnrecognizedFormatException.class)
                .hasMessageContaining("; the first such is '\\x1B]0;PWNED\\x07\\x1B[2J\\xC2\\x9B\\u202Eevil'. Name the format")
                .hasMessageNotContaining("\u001B");
    }

    @Test
    void forALiveSourceReadsMostlyGarbageWithTheFormatOfItsFewGoodLines() throws Exception {
        String log = lines(9, i -> "2025-05-14T09:31:02 ERROR something failed (" + i + ")") + combined(1) + "\n";

        FormatChooser.Choice choice = FormatDetector.forLiveSources(notices::add)
                .choose(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), "udp://127.0.0.1:5140");

        assertThat(choice.detected()).isInstanceOf(CombinedLineParser.class);
        assertThat(notices).containsExactly("format: combined with request time in seconds (nginx $request_time); auto-detected "
                + "from all 10 lines of udp://127.0.0.1:5140, 1 parsed (9 in no format: read as bad lines)");
    }

    @Test
    void theChosenFormatLeavesALineItRejectsToAnotherThatCarriesTheAgentButNotToCommon() throws Exception {
        FormatChooser.Choice choice = choose(lines(1500, FormatDetectorTest::combined));
        byte[] json = SampleLogs.NGINX_JSON.getBytes(StandardCharsets.UTF_8);
        // a combined line cut short after its size reads as common: it stays the bad line it is
        byte[] cut = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /a HTTP/1.1\" 404 153".getBytes(StandardCharsets.UTF_8);

        Hit hit = choice.parser().parse(json, 0, json.length, AgentFilter.ALL);

        assertThat(hit.url()).isEqualTo("/gent/veldstraat?x=1");
        assertThat(hit.userAgent()).isEqualTo(SampleLogs.GOOGLEBOT);
        assertThatThrownBy(() -> choice.parser().parse(cut, 0, cut.length, AgentFilter.ALL)).isInstanceOf(BadLineException.class);
    }

    @Test
    void forALiveSourceInNoFormatReadsEachLineAsABadLineThatSaysSo() throws Exception {
        String log = "2025-05-14T09:31:02 ERROR something failed\n";

        FormatChooser.Choice choice = FormatDetector.forLiveSources(notices::add)
                .choose(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), "drain");

        byte[] line = log.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> choice.parser().parse(line, 0, line.length - 1, AgentFilter.ALL))
                .isInstanceOf(BadLineException.class)
                .hasMessage("'2025-05-14T09:31:02 ERROR something failed' is in none of the formats tried "
                        + "(combined-vhost, combined, common-vhost, common, json, w3c); name the format with --format")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("unknown format");
        assertThat(notices).singleElement().asString().startsWith("drain: the log format could not be detected: its only line is");
    }

    @Test
    void readsAnEmptySourceAsCombinedWithoutANotice() throws Exception {
        FormatChooser.Choice choice = choose("");

        assertThat(choice.detected()).isInstanceOf(CombinedLineParser.class);
        assertThat(notices).isEmpty();
    }

    @Test
    void detectsOnAStreamThatArrivesInDribsAndKeepsItsReadError() throws Exception {
        byte[] log = lines(20, FormatDetectorTest::combined).getBytes(StandardCharsets.UTF_8);
        IOException cut = new IOException("Unexpected end of ZLIB input stream");
        InputStream trickle = new InputStream() {
            private int at;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (at >= log.length) {
                    throw cut;
                }
                int n = Math.min(len, 7);
                n = Math.min(n, log.length - at);
                System.arraycopy(log, at, b, off, n);
                at += n;
                return n;
            }
        };

        FormatChooser.Choice choice = detector.choose(trickle, "-");

        assertThat(choice.detected()).isInstanceOf(CombinedLineParser.class);
        assertThat(choice.in().readNBytes(log.length)).isEqualTo(log);
        assertThatThrownBy(() -> choice.in().read()).isSameAs(cut);
    }

    @Test
    void stopsReadingInTheReadThatBringsItsThousandthNewline() throws Exception {
        byte[] log = lines(1500, FormatDetectorTest::combined).getBytes(StandardCharsets.UTF_8);
        int thousandthNewline = -1;
        for (int i = 0, seen = 0; seen < FormatDetector.SAMPLE_LINES; i++) {
            if (log[i] == '\n') {
                seen++;
                thousandthNewline = i;
            }
        }
        ByteArrayInputStream source = new ByteArrayInputStream(log) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7));
            }
        };

        FormatChooser.Choice choice = detector.choose(source, "-");

        int read = log.length - source.available();
        assertThat(read).isBetween(thousandthNewline + 1, thousandthNewline + 7);
        assertThat(choice.in().readAllBytes()).isEqualTo(log);
    }
}
