package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Every format refuses a time outside the years 1 to 9999 as a bad time, as it refuses one that is
 * not a time: {@code 1e300} epoch seconds was stored as 1969-12-31 (the microseconds overflowed).
 */
class TimeRangeTest {

    private static Hit parse(LineParser parser, String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    private static void assertBadTime(LineParser parser, String line) {
        assertThatThrownBy(() -> parse(parser, line)).as(line).isInstanceOf(BadLineException.class)
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("bad time");
    }

    private static String json(String ts) {
        return "{\"ts\":" + ts + ",\"request\":{\"remote_ip\":\"66.249.66.1\",\"method\":\"GET\",\"uri\":\"/a\","
                + "\"headers\":{\"User-Agent\":[\"" + SampleLogs.GOOGLEBOT + "\"]}},\"status\":404}";
    }

    @Test
    void aJsonEpochBeyondTheYear9999IsABadTimeNamingItsField() throws Exception {
        JsonLineParser parser = new JsonLineParser();

        assertThatThrownBy(() -> parse(parser, json("1e300")))
                .hasMessage("'1e300' (ts) is not a time in the years 1 to 9999; expected epoch seconds (or milliseconds, "
                        + "microseconds, nanoseconds) such as 1747207862.123");
        assertBadTime(parser, json("1.7976931348623157E308"));
        assertBadTime(parser, json("\"99999999999999999999\""));
        // the largest epoch a log writes, nanoseconds past 2262, is still a time
        assertThat(parse(parser, json("9.2e18")).epochMillis()).isEqualTo(9_200_000_000_000L);
        assertThat(parse(parser, json("1747207862.5")).epochMillis()).isEqualTo(1_747_207_862_500L);
    }

    @Test
    void aCommonLogTimeInYearZeroIsABadTime() {
        assertBadTime(new CombinedLineParser(), "66.249.66.1 - - [01/Jan/0000:00:00:00 +0000] \"GET / HTTP/1.1\" 404 0 \"-\" \"Googlebot\"");
        assertBadTime(new CombinedLineParser(), "66.249.66.1 - - [31/Dec/9999:23:59:59 -0100] \"GET / HTTP/1.1\" 404 0 \"-\" \"Googlebot\"");
    }

    @Test
    void anNginxEpochOrIsoTimeOutOfRangeIsABadTime() throws Exception {
        LineParser msec = NginxFormat.compile("$remote_addr [$msec] \"$request\" $status \"$http_user_agent\"");
        LineParser iso = NginxFormat.compile("$remote_addr [$time_iso8601] \"$request\" $status \"$http_user_agent\"");

        assertBadTime(msec, "66.249.66.1 [999999999999999999] \"GET / HTTP/1.1\" 404 \"Googlebot\"");
        assertBadTime(iso, "66.249.66.1 [0000-06-01T00:00:00+00:00] \"GET / HTTP/1.1\" 404 \"Googlebot\"");
        assertThat(parse(msec, "66.249.66.1 [1747207862.123] \"GET / HTTP/1.1\" 404 \"Googlebot\"").epochMillis())
                .isEqualTo(Instant.parse("2025-05-14T07:31:02.123Z").toEpochMilli());
    }

    @Test
    void aW3cDateInYearZeroIsABadTime() throws Exception {
        W3cLineParser parser = new W3cLineParser();
        for (String directive : SampleLogs.IIS_HEADER.split("\n")) {
            parse(parser, directive);
        }

        assertBadTime(parser, SampleLogs.IIS_LINE.replace("2025-05-14", "0000-05-14"));
        assertThat(parse(parser, SampleLogs.IIS_LINE).epochMillis()).isEqualTo(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli());
    }
}
