package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The text fields of log lines: where a quoted field ends (escaped quotes, a line cut short, the
 * word-at-a-time scan agreeing with a plain one), request lines, the servers' escapes undone, and
 * excerpts of bad values that are short and safe to show.
 */
class LogTextTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The closing quote as reading escapes left to right finds it: the plain definition the fast scans must agree with. */
    private static int plainClosingQuote(byte[] b, int p, int limit) {
        for (int i = p; i < limit; i++) {
            if (b[i] == '\n') {
                return -1;
            }
            if (b[i] == '\\') {
                i++;
            } else if (b[i] == '"') {
                return i;
            }
        }
        return -1;
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc\" rest", "a\\\"b\" rest", "a\\\\\" rest", "a\\\\\\\"b\" rest", "\"", "Mozilla/5.0 (compatible; Googlebot/2.1)\" 0.1",
            "*\u0002*\u0002* stars and 0x02 before the quote in one word\"", "0123456\\\"89abcdef0123\\\\\"x", "no closing quote at all",
            "the line ends\nbefore \"the quote\"", "\\"})
    void findsTheClosingQuoteAsReadingEscapesLeftToRightDoes(String field) {
        byte[] b = bytes(field);

        int expected = plainClosingQuote(b, 0, b.length);
        assertThat(LogText.closingQuoteInLine(b, 0, b.length)).as(field).isEqualTo(expected);
        assertThat((int) LogText.closingQuoteInLineHashed(b, 0, b.length)).as(field).isEqualTo(expected);
        if (field.indexOf('\n') < 0) {
            assertThat(LogText.closingQuote(b, 0, b.length)).as(field).isEqualTo(expected);
        }
    }

    @Test
    void hashesTheQuotedFieldAsTheAgentFilterDoes() {
        byte[] b = bytes("\"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)\" 200");
        int quote = LogText.closingQuoteInLine(b, 1, b.length);

        long found = LogText.closingQuoteInLineHashed(b, 1, b.length);

        assertThat((int) found).isEqualTo(quote);
        assertThat((int) (found >>> 32)).isEqualTo(AgentFilter.hash(b, 1, quote));
    }

    @Test
    void stopsAtTheLimitNotAtAQuoteBeyondIt() {
        byte[] b = bytes("a field cut short here\" and more");

        assertThat(LogText.closingQuoteInLine(b, 0, 10)).isEqualTo(-1);
        assertThat(LogText.closingQuote(b, 0, 10)).isEqualTo(-1);
    }

    @ParameterizedTest
    @CsvSource({
            "'GET /a?b=1 HTTP/1.1', GET, /a?b=1",
            "'HEAD / HTTP/2.0', HEAD, /",
            "'PROPFIND /dav HTTP/1.1', PROPFIND, /dav",
            "'GET /no-protocol', GET, /no-protocol",
            "'/only-a-target', '', /only-a-target",
            "'GET /with space HTTP/1.1', GET, /with space"})
    void splitsARequestLineIntoMethodAndTarget(String line, String method, String url) {
        byte[] b = bytes(line);

        assertThat(LogText.requestMethod(b, 0, b.length)).isEqualTo(method);
        assertThat(LogText.requestUrl(b, 0, b.length)).isEqualTo(url);
    }

    @Test
    void givesTheCrawlersMethodsAsOneStringEach() {
        byte[] first = bytes("GET /a HTTP/1.1");
        byte[] second = bytes("GET /b HTTP/1.1");

        assertThat(LogText.requestMethod(first, 0, first.length)).isSameAs(LogText.requestMethod(second, 0, second.length));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "plain text|plain text",
            "say \\\"hi\\\"|say \"hi\"",
            "back\\\\slash|back\\slash",
            "\\xC3\\xA9t\\xC3\\xA9|été",
            "not hex \\xZZ|not hex \\xZZ",
            "cut \\x4|cut \\x4",
            "trailing\\|trailing\\"})
    void undoesTheServersEscapes(String logged, String text) {
        byte[] b = bytes(logged);

        assertThat(LogText.text(b, 0, b.length)).isEqualTo(text);
    }

    @Test
    void readsADashOrNothingAsNull() {
        byte[] b = bytes("- x");

        assertThat(LogText.dashIsNull(b, 0, 1)).isNull();
        assertThat(LogText.dashIsNull(b, 1, 1)).isNull();
        assertThat(LogText.dashIsNull(b, 2, 3)).isEqualTo("x");
        assertThat(LogText.isDash(b, 0, 2)).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html)|true|Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "a+b|false|a+b",
            "%2Fpath%20with%2bplus|true|/path with+plus",
            "bad %G1 escape|false|bad %G1 escape"})
    void undoesW3cEncodings(String logged, boolean plusIsSpace, String text) {
        byte[] b = bytes(logged);
        byte[] out = new byte[b.length];

        int n = LogText.w3cDecode(b, 0, b.length, plusIsSpace, out);

        assertThat(new String(out, 0, n, StandardCharsets.UTF_8)).isEqualTo(text);
    }

    @Test
    void findsTheLastByteWithinTheRange() {
        byte[] b = bytes("a b c d");

        assertThat(LogText.lastIndexOf(b, 0, b.length, (byte) ' ')).isEqualTo(5);
        assertThat(LogText.lastIndexOf(b, 0, 5, (byte) ' ')).isEqualTo(3);
        assertThat(LogText.lastIndexOf(b, 4, 5, (byte) ' ')).isEqualTo(-1);
    }

    @Test
    void excerptsAShortValueWhole() {
        byte[] b = bytes("13/Aug/2025");

        assertThat(LogText.excerpt(b, 0, b.length)).isEqualTo("13/Aug/2025");
        assertThat(LogText.excerpt("13/Aug/2025")).isEqualTo("13/Aug/2025");
    }

    @Test
    void cutsALongValueAtSixtyBytesBeforeACharacterItWouldSplit() {
        byte[] ascii = bytes("x".repeat(100));
        byte[] accents = bytes("x".repeat(59) + "é".repeat(10));

        assertThat(LogText.excerpt(ascii, 0, ascii.length)).isEqualTo("x".repeat(60) + "...");
        assertThat(LogText.excerpt(accents, 0, accents.length)).isEqualTo("x".repeat(59) + "...");
        assertThat(LogText.excerpt("y".repeat(100))).isEqualTo("y".repeat(60) + "...");
    }

    @Test
    void showsControlsAndBytesThatAreNotUtf8Escaped() {
        byte[] b = {'a', 0x1B, '[', '3', '1', 'm', (byte) 0xFF, 'z'};

        String excerpt = LogText.excerpt(b, 0, b.length);

        assertThat(excerpt).doesNotContain("\u001B").doesNotContain("\uFFFD").contains("\\x1B").contains("\\xFF");
        assertThat(LogText.excerpt("bell\u0007")).doesNotContain("\u0007");
    }
}
