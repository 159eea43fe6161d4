package dev.crawlerrors.ingest.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyslogFrameTest {

    static final String LINE = "66.249.66.1 - - [22/Nov/2026:01:02:03 +0000] \"GET /gent/veldstraat HTTP/1.1\" 404 153 \"-\" \""
            + SampleLogs.GOOGLEBOT + "\" 0.012";

    private static String message(String frame) throws BadLineException {
        byte[] b = frame.getBytes(StandardCharsets.UTF_8);
        int start = SyslogFrame.messageStart(b, 0, b.length);
        return new String(b, start, SyslogFrame.end(b, 0, b.length) - start, StandardCharsets.UTF_8);
    }

    @Test
    void stripsTheHeaderNginxWrites() throws Exception {
        assertThat(message("<190>Nov 22 01:02:03 web1 nginx: " + LINE)).isEqualTo(LINE);
        assertThat(message("<190>Nov  2 01:02:03 web1 nginx: " + LINE)).isEqualTo(LINE);
    }

    @Test
    void stripsAnRfc3164HeaderWithoutHostNameOrWithAProcessIdOrAnIsoTime() throws Exception {
        assertThat(message("<190>Nov 22 01:02:03 nginx: " + LINE)).isEqualTo(LINE);
        assertThat(message("<190>Nov 22 01:02:03 web1 nginx[4711]: " + LINE)).isEqualTo(LINE);
        assertThat(message("<190>2026-11-22T01:02:03+01:00 web1 nginx: " + LINE)).isEqualTo(LINE);
    }

    @Test
    void keepsAllAfterTheHostWhenThereIsNoTag() throws Exception {
        assertThat(message("<190>Nov 22 01:02:03 web1 " + LINE)).isEqualTo(LINE);
        assertThat(message("<190>" + LINE)).isEqualTo(LINE);
    }

    @Test
    void stripsAnRfc5424Header() throws Exception {
        assertThat(message("<165>1 2026-11-22T01:02:03Z web1 nginx - - - " + LINE)).isEqualTo(LINE);
        assertThat(message("<165>1 2026-11-22T01:02:03.123+01:00 web1 nginx 4711 access - \uFEFF" + LINE)).isEqualTo(LINE);
        assertThat(message("<165>1 - - - - - - " + LINE)).isEqualTo(LINE);
    }

    @Test
    void dropsTheSpaceRsyslogKeepsFromAnRfc3164TagWhenItForwardsInRfc5424() throws Exception {
        // nginx's "<190>Nov 22 01:02:03 web1 nginx: LINE", forwarded with RSYSLOG_SyslogProtocol23Format
        assertThat(message("<190>1 2026-11-22T01:02:03.123456+01:00 web1 nginx - - -  " + LINE + "\n")).isEqualTo(LINE);
    }

    @Test
    void skipsRfc5424StructuredDataWithEscapedQuotesAndBrackets() throws Exception {
        String frame = "<165>1 2026-11-22T01:02:03Z web1 app - ID47 [exampleSDID@32473 iut=\"3\" eventSource=\"Appl\\\"ic]ation\"]"
                + "[examplePriority@32473 class=\"high\"] " + LINE;

        assertThat(message(frame)).isEqualTo(LINE);
    }

    @Test
    void leavesOutTheLineTerminatorSomeSendersEndDatagramsWith() throws Exception {
        assertThat(message("<190>Nov 22 01:02:03 web1 nginx: " + LINE + "\r\n")).isEqualTo(LINE);
        assertThat(message("<190>Nov 22 01:02:03 web1 nginx: " + LINE + "\0")).isEqualTo(LINE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "hello", LINE, "<>Nov 22 01:02:03 web1 nginx: x", "<192>Nov 22 01:02:03 web1 nginx: x",
            "<1900>x", "<19", "<190>Nov 22 01:02:03 web1 nginx:", "<165>1 2026-11-22T01:02:03Z web1 app - -",
            "<165>1 2026-11-22T01:02:03Z web1 app - - [unclosed x=\"]\"", "<165>1 2026-11-22T01:02:03Z web1 app - - x " + LINE})
    void refusesAFrameWithoutAHeaderOrAMessage(String frame) {
        assertThatThrownBy(() -> message(frame))
                .isInstanceOf(BadLineException.class)
                .hasMessageStartingWith("not a syslog frame: ")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("not syslog");
    }

    @Test
    void saysWhatWasWrongAndWhatIsExpected() {
        assertThatThrownBy(() -> message("hello"))
                .hasMessage("not a syslog frame: it does not start with <PRI> ('hello'); expected <PRI>Mmm dd hh:mm:ss host tag: "
                        + "MESSAGE (RFC 3164) or <PRI>1 TIME HOST APP PROCID MSGID SD MESSAGE (RFC 5424)");
    }
}
