package dev.crawlerrors.ingest;

import dev.crawlerrors.ingest.source.ReadRequest;
import dev.crawlerrors.ingest.format.FormatChooser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import dev.crawlerrors.ingest.source.LogReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Bad lines quote what whoever sent the request wrote: the quote is shown with its controls escaped. */
class BadLineTest {

    private static final String REST = " - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 1 \"-\" \"Googlebot/2.1\"";

    private static BadLine firstBadLine(byte[] log) throws Exception {
        try (LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser()), 1)) {
            ParseCounts counts = reader.read(new ByteArrayInputStream(log), ReadRequest.of("esc.log", AgentFilter.ALL, hits -> { }));
            return counts.firstBadLines().get(0);
        }
    }

    @Test
    void showsEscBelNulC1AndBidiOverridesInABadLineAsEscapes() throws Exception {
        byte[] log = ("\u001B]0;PWNED\u0007\u001B[2J\u001B[31mevil\u0000\u009B\u202Egnp.exe" + REST + "\n").getBytes(StandardCharsets.UTF_8);

        BadLine bad = firstBadLine(log);

        assertThat(bad.message()).startsWith("'\\x1B]0;PWNED\\x07\\x1B[2J\\x1B[31mevil\\x00\\xC2\\x9B\\u202Egnp.exe' is not a client address")
                .doesNotContain("\u001B", "\u0007", "\u0000", "\u009B", "\u202E");
        assertThat(bad).hasToString("esc.log line 1: " + bad.message());
    }

    @Test
    void showsBytesThatAreNotUtf8InABadLineAsTheBytesTheyAre() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        log.write(new byte[] {'6', '6', '.', (byte) 0xFF, (byte) 0xC3, '1'});
        log.write((REST + "\n").getBytes(StandardCharsets.UTF_8));

        assertThat(firstBadLine(log.toByteArray()).message()).startsWith("'66.\\xFF\\xC31' is not a client address");
    }

    @Test
    void keepsAnExcerptToSixtyBytesCutBeforeACharacterNotInIt() throws Exception {
        // 59 ASCII bytes, then a three-byte character that the 60th byte would split
        String address = "1".repeat(59) + "日本";

        BadLine bad = firstBadLine((address + REST + "\n").getBytes(StandardCharsets.UTF_8));

        assertThat(bad.message()).startsWith("'" + "1".repeat(59) + "...' is not a client address");
    }

    @Test
    void escapesTheSourceNameAndAMessageMadeFromDecodedText() {
        BadLine bad = new BadLine("a\u001B[2J.log", 3, "bad time", "'\u202Etime' is not a time");

        assertThat(bad).hasToString("a\\x1B[2J.log line 3: '\\u202Etime' is not a time");
    }
}
