package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CombinedLineParserTest {

    private final CombinedLineParser parser = new CombinedLineParser();

    private Hit parse(String line) throws BadLineException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(bytes, 0, bytes.length, AgentFilter.ALL);
    }

    @Test
    void readsAnNginxCombinedLineWithRequestTimeInSeconds() throws Exception {
        Hit hit = parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 162 \"-\" "
                + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 0.012");

        assertThat(hit.ip()).isEqualTo("66.249.66.1");
        assertThat(Instant.ofEpochMilli(hit.epochMillis())).isEqualTo(Instant.parse("2025-05-14T07:31:02Z"));
        assertThat(hit.offsetMinutes()).isEqualTo(120);
        assertThat(hit.method()).isEqualTo("GET");
        assertThat(hit.url()).isEqualTo("/antwerp/meir");
        assertThat(hit.status()).isEqualTo(308);
        assertThat(hit.bytes()).isEqualTo(162);
        assertThat(hit.referer()).isNull();
        assertThat(hit.userAgent()).isEqualTo("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)");
        assertThat(hit.durationMs()).isEqualTo(12.0);
    }

    @Test
    void givesTheHitsOfOneAgentAndAddressOneStringEach() throws Exception {
        String agent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        Hit first = parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /a HTTP/1.1\" 404 1 \"-\" \"" + agent + "\" 0.012");
        Hit second = parse("66.249.66.1 - - [14/May/2025:09:31:03 +0200] \"POST /b HTTP/1.1\" 404 1 \"-\" \"" + agent + "\" 0.012");
        Hit other = parse("66.249.66.10 - - [14/May/2025:09:31:04 +0200] \"PUT /c HTTP/1.1\" 404 1 \"-\" \"" + agent + "/\" 0.012");

        assertThat(second.userAgent()).isEqualTo(agent).isSameAs(first.userAgent());
        assertThat(second.ip()).isEqualTo("66.249.66.1").isSameAs(first.ip());
        assertThat(other.userAgent()).isEqualTo(agent + "/");
        assertThat(other.ip()).isEqualTo("66.249.66.10");
        assertThat(List.of(first.method(), second.method(), other.method())).containsExactly("GET", "POST", "PUT");
        assertThat(first.method()).as("a constant, not a string a hit").isSameAs("GET");
        assertThat(second.method()).isSameAs("POST");
    }

    @Test
    void undoesTheEscapesOfARecurringAgentEveryTime() throws Exception {
        String line = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 1 \"-\" \"Googlebot \\\"x\\\" \\x41\" 0.012";

        assertThat(parse(line).userAgent()).isEqualTo("Googlebot \"x\" A");
        assertThat(parse(line).userAgent()).isEqualTo("Googlebot \"x\" A");
    }

    @Test
    void readsApacheMicrosecondsAsMilliseconds() throws Exception {
        Hit hit = parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 304 - \"-\" \"Googlebot\" 153");

        assertThat(hit.durationMs()).isEqualTo(0.153);
        assertThat(hit.bytes()).isEqualTo(-1);
    }

    @Test
    void hasNoDurationWhenTheLogCarriesNoRequestTime() throws Exception {
        Hit hit = parse("66.249.66.1 - - [14/May/2025:09:31:02 +0000] \"GET / HTTP/1.1\" 404 10 \"-\" \"Googlebot\"");

        assertThat(hit.hasDuration()).isFalse();
    }

    @Test
    void readsAnIpv6ClientAndANegativeOffset() throws Exception {
        Hit hit = parse("2001:4860:4801:10::1 - frank [01/Jan/2026:00:15:00 -0500] \"HEAD /x?y=1 HTTP/2.0\" 200 0 "
                + "\"https://example.org/\" \"Googlebot-Image/1.0\" 0.000");

        assertThat(hit.ip()).isEqualTo("2001:4860:4801:10::1");
        assertThat(Instant.ofEpochMilli(hit.epochMillis())).isEqualTo(Instant.parse("2026-01-01T05:15:00Z"));
        assertThat(hit.offsetMinutes()).isEqualTo(-300);
        assertThat(hit.method()).isEqualTo("HEAD");
        assertThat(hit.url()).isEqualTo("/x?y=1");
        assertThat(hit.referer()).isEqualTo("https://example.org/");
        assertThat(hit.durationMs()).isEqualTo(0.0);
    }

    @Test
    void undoesEscapedQuotesInTheAgentAndRequest() throws Exception {
        Hit hit = parse("203.0.113.9 - - [14/May/2025:09:31:02 +0200] \"GET /a\\\"b HTTP/1.1\" 404 0 \"-\" "
                + "\"Mozilla/5.0 \\\"quoted\\\" \\\\ Googlebot\" 0.001");

        assertThat(hit.url()).isEqualTo("/a\"b");
        assertThat(hit.userAgent()).isEqualTo("Mozilla/5.0 \"quoted\" \\ Googlebot");
    }

    private static final String LINE = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 162 \"-\" "
            + "\"Googlebot/2.1\" 0.012";

    @Test
    void findsTheEndOfItsLineAtTheNewlineAndLeavesOutACarriageReturn() throws Exception {
        String second = LINE.replace("meir", "groenplaats");
        byte[] chunk = (LINE + "\r\n" + second + "\n").getBytes(StandardCharsets.UTF_8);

        Hit first = parser.parseLine(chunk, 0, chunk.length, AgentFilter.ALL);
        int firstEnd = parser.lineEnd();
        Hit next = parser.parseLine(chunk, firstEnd + 1, chunk.length, AgentFilter.ALL);
        int nextEnd = parser.lineEnd();

        assertThat(firstEnd).isEqualTo(LINE.length() + 1);
        assertThat(nextEnd).isEqualTo(chunk.length - 1);
        assertThat(first).isEqualTo(parse(LINE));
        assertThat(first.durationMs()).isEqualTo(12.0);
        assertThat(next.url()).isEqualTo("/antwerp/groenplaats");
    }

    @Test
    void endsALineWithoutNewlineAtTheLimitAndKeepsAReturnThatEndsNoLine() throws Exception {
        byte[] chunk = (LINE + "\r").getBytes(StandardCharsets.UTF_8);

        Hit hit = parser.parseLine(chunk, 0, chunk.length, AgentFilter.ALL);

        assertThat(parser.lineEnd()).isEqualTo(chunk.length);
        assertThat(hit.durationMs()).isNaN(); // "0.012\r" is no number, as when the cut line is parsed
        assertThat(hit).isEqualTo(parser.parse(chunk, 0, chunk.length, AgentFilter.ALL));
    }

    @Test
    void readsQuotedFieldsHoldingTheBytesItsWordTestTakesForAQuoteOrANewline() throws Exception {
        // '*' (0x2A) and 0x02 pass the one test per word that finds a quote or a newline: each is
        // checked off by its byte, wherever it falls in a word, the closing quote's word included
        for (String stars : new String[] {"*", "**", "*******", "********", "a*\u0002*b", "\u0002"}) {
            String line = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /x" + stars + " HTTP/1.1\" 200 5 \"" + stars
                    + "/" + stars + "\" \"Googlebot/2.1" + stars + "\" 0.012";
            byte[] chunk = (line + "\n" + LINE + "\n").getBytes(StandardCharsets.UTF_8);

            Hit hit = parser.parseLine(chunk, 0, chunk.length, AgentFilter.ALL);

            assertThat(parser.lineEnd()).isEqualTo(line.length());
            assertThat(hit.url()).isEqualTo("/x" + stars);
            assertThat(hit.referer()).isEqualTo(stars + "/" + stars);
            assertThat(hit.userAgent()).isEqualTo("Googlebot/2.1" + stars);
            assertThat(hit.durationMs()).isEqualTo(12.0);
            assertThat(hit).isEqualTo(parse(line));
        }
    }

    @Test
    void aQuotedFieldDoesNotRunOnIntoTheNextLine() {
        String[] truncated = {
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/me",
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"https://exa",
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googl",
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot \\\"",
        };
        for (String line : truncated) {
            // the next line's quotes would close the field if the search ran on past the newline
            byte[] chunk = (line + "\n" + LINE + "\n").getBytes(StandardCharsets.UTF_8);

            assertThatThrownBy(() -> parser.parseLine(chunk, 0, chunk.length, AgentFilter.ALL))
                    .as(line).isInstanceOf(BadLineException.class);
        }
    }

    @Test
    void theIdentityAndUserDoNotRunOnIntoTheNextLine() {
        byte[] chunk = ("66.249.66.1 - -\n" + LINE + "\n").getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> parser.parseLine(chunk, 0, chunk.length, AgentFilter.ALL)).isInstanceOf(BadLineException.class);
    }

    @Test
    void handsTheFilterTheAgentsHashAlsoWhenItHoldsEscapedQuotes() throws Exception {
        String[] agents = {"Googlebot/2.1", "", "G", "Mozilla/5.0 \\\"quoted\\\" Googlebot", "\\\"", "\\\\",
            "1234567\\\"9abcdef\\\"xyz Googlebot/2.1 +http://www.google.com/bot.html"};
        for (String agent : agents) {
            byte[] chunk = (LINE.replace("Googlebot/2.1", agent) + "\n").getBytes(StandardCharsets.UTF_8);
            int[] seen = new int[3];
            AgentFilter recording = new AgentFilter() {
                @Override
                public boolean mayBeCrawler(byte[] line, int from, int to) {
                    throw new AssertionError("the parser computed the hash");
                }

                @Override
                public boolean mayBeCrawler(byte[] line, int from, int to, int hash) {
                    seen[0] = from;
                    seen[1] = to;
                    seen[2] = hash;
                    return true;
                }
            };

            Hit hit = parser.parseLine(chunk, 0, chunk.length, recording);

            byte[] expected = agent.getBytes(StandardCharsets.UTF_8);
            assertThat(new String(chunk, seen[0], seen[1] - seen[0], StandardCharsets.UTF_8)).as(agent).isEqualTo(agent);
            assertThat(seen[2]).as(agent).isEqualTo(AgentFilter.hash(expected, 0, expected.length));
            assertThat(hit.userAgent()).as(agent).isEqualTo(agent.isEmpty() ? null : LogText.text(expected, 0, expected.length));
        }
    }

    @Test
    void decodesNginxHexEscapesAsUtf8() throws Exception {
        Hit hit = parse("203.0.113.9 - - [14/May/2025:09:31:02 +0200] \"GET /caf\\xC3\\xA9 HTTP/1.1\" 404 0 \"-\" \"Googlebot\\x22\"");

        assertThat(hit.url()).isEqualTo("/café");
        assertThat(hit.userAgent()).isEqualTo("Googlebot\"");
    }

    @Test
    void keepsARequestLineThatIsOnlyADash() throws Exception {
        Hit hit = parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"-\" 400 0 \"-\" \"-\"");

        assertThat(hit.method()).isEmpty();
        assertThat(hit.url()).isEqualTo("-");
        assertThat(hit.userAgent()).isNull();
    }

    @Test
    void ignoresTrailingFieldsThatAreNotARequestTime() throws Exception {
        Hit hit = parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googlebot\" \"10.0.0.1\"");

        assertThat(hit.status()).isEqualTo(200);
        assertThat(hit.hasDuration()).isFalse();
    }

    @Test
    void dropsTheLineWhenTheFilterRejectsItsAgent() throws Exception {
        byte[] line = ("1.2.3.4 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Mozilla/5.0 Firefox\"")
                .getBytes(StandardCharsets.UTF_8);

        Hit hit = parser.parse(line, 0, line.length, (b, from, to) ->
                !new String(b, from, to - from, StandardCharsets.UTF_8).contains("Firefox"));

        assertThat(hit).isNull();
    }

    @Test
    void reusesTheTimeOfTheLineBeforeOnlyWhenItsBytesAreTheSame() throws Exception {
        String tail = " \"GET / HTTP/1.1\" 404 5 \"-\" \"Googlebot\"";
        assertThat(parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200]" + tail).epochMillis())
                .isEqualTo(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli());
        assertThat(parse("66.249.66.2 - - [14/May/2025:09:31:02 +0200]" + tail).epochMillis())
                .isEqualTo(Instant.parse("2025-05-14T07:31:02Z").toEpochMilli());
        // the same wall-clock time in another offset is another instant
        Hit other = parse("66.249.66.3 - - [14/May/2025:09:31:02 +0000]" + tail);
        assertThat(other.epochMillis()).isEqualTo(Instant.parse("2025-05-14T09:31:02Z").toEpochMilli());
        assertThat(other.offsetMinutes()).isZero();
        assertThatThrownBy(() -> parse("66.249.66.4 - - [14/May/2025:09:31:62 +0000]" + tail)).isInstanceOf(BadLineException.class);
    }

    @Test
    void readsAnotherDayOrMinuteAtTheSameClockPositionsAsThatTime() throws Exception {
        // the repeated-time check compares the time as words: each part of the time must still count
        String tail = " \"GET / HTTP/1.1\" 404 5 \"-\" \"Googlebot\"";
        parse("66.249.66.1 - - [14/May/2025:23:59:02 +0200]" + tail);
        assertThat(parse("66.249.66.1 - - [15/May/2025:23:59:02 +0200]" + tail).epochMillis())
                .isEqualTo(Instant.parse("2025-05-15T21:59:02Z").toEpochMilli());
        assertThat(parse("66.249.66.1 - - [15/May/2026:23:59:02 +0200]" + tail).epochMillis())
                .isEqualTo(Instant.parse("2026-05-15T21:59:02Z").toEpochMilli());
        assertThat(parse("66.249.66.1 - - [15/May/2026:23:58:02 +0200]" + tail).epochMillis())
                .isEqualTo(Instant.parse("2026-05-15T21:58:02Z").toEpochMilli());
    }

    @Test
    void refusesATimeOfZeroBytesInAFreshParser() {
        // a fresh parser has read no time yet: nothing may pass for "the same time as before"
        assertThatThrownBy(() -> parse("1.2.3.4 - - [" + "\0".repeat(26) + "] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .isInstanceOf(BadLineException.class);
    }

    @Test
    void refusesTextAfterTheAgentEvenWhenTheFilterWouldDropTheLine() {
        byte[] line = "203.0.113.9 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Mozilla/5.0\"garbage"
                .getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> parser.parse(line, 0, line.length, (b, from, to) -> false)).isInstanceOf(BadLineException.class);
    }

    @Test
    void namesTheBadTimeAndWhatWasExpected() {
        assertThatThrownBy(() -> parse("1.2.3.4 - - [13/Aug/2025 10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .isInstanceOf(BadLineException.class)
                .hasMessage("'13/Aug/2025 10:00:00 +0000' is not a combined-log time; expected dd/MMM/yyyy:HH:mm:ss Z")
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("bad time");
    }

    @Test
    void rejectsImpossibleDates() {
        assertThatThrownBy(() -> parse("1.2.3.4 - - [31/Feb/2025:10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .hasMessageContaining("is not a combined-log time");
        assertThatThrownBy(() -> parse("1.2.3.4 - - [01/Foo/2025:10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .hasMessageContaining("is not a combined-log time");
        assertThatThrownBy(() -> parse("1.2.3.4 - - [01/Jan/20x5:10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""))
                .hasMessageContaining("is not a combined-log time");
    }

    @Test
    void rejectsTruncatedLines() {
        assertThatThrownBy(() -> parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/me"))
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 \"-\" \"Googl"))
                .hasMessageContaining("truncated");
    }

    @Test
    void saysWhenALineIsInCommonRatherThanCombinedFormat() {
        assertThatThrownBy(() -> parse("66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5"))
                .hasMessageContaining("combined, not common format");
    }

    @Test
    void rejectsGarbage() {
        assertThatThrownBy(() -> parse("\u0000\u0001binary garbage")).isInstanceOf(BadLineException.class);
        assertThatThrownBy(() -> parse("hello world")).isInstanceOf(BadLineException.class);
        assertThatThrownBy(() -> parse(" leading space")).isInstanceOf(BadLineException.class);
        assertThatThrownBy(() -> parse("1.2.3.4 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 2000 5 \"-\" \"x\""))
                .hasMessageContaining("three-digit status");
        assertThatThrownBy(() -> parse("1.2.3.4 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5x \"-\" \"x\""))
                .hasMessageContaining("not a response size");
    }

    @Test
    void computesEpochDaysLikeJavaTime() {
        for (int year : new int[] {1970, 1999, 2000, 2024, 2025, 2100}) {
            for (int month = 1; month <= 12; month++) {
                assertThat(LogTime.daysFromCivil(year, month, 1))
                        .isEqualTo(java.time.LocalDate.of(year, month, 1).toEpochDay());
            }
        }
    }
}
