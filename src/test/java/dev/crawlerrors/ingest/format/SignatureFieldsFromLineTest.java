package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SignatureFields;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * An nginx line's three signature fields, which the parser writes straight into their text when they
 * are ASCII: the same fields, the same text and the same bytes as the fields read one by one as
 * text ({@link LogText#text}, then {@link SignatureFields#of}), whatever the line carries.
 */
class SignatureFieldsFromLineTest {

    private static final LineParser NGINX = NginxFormat.compile("$remote_addr - $remote_user [$time_local] \"$request\" $status"
            + " $body_bytes_sent \"$http_referer\" \"$http_user_agent\" \"$host\" \"$http_signature_agent\" \"$http_signature_input\""
            + " \"$http_signature\"");
    private static final AgentFilter PEOPLE = (line, from, to) -> false;

    @Test
    void fieldsAsNginxLogsThemReadAsTheirText() throws Exception {
        kept = 0;
        List<String> values = new ArrayList<>(List.of("-", "", "sig1=\\x22https://chatgpt.com\\x22", "sig1=:YWJj:",
                "sig1=(\\x22@authority\\x22);created=1;keyid=\\x22k\\x22;tag=\\x22web-bot-auth\\x22", "\\x2D", "a\\\\b", "a\\\"b",
                "trailing\\", "\\x", "\\x4", "\\xZZ", "\\x41\\x42", "h\\xC3\\xA9", "h\u00e9", "\\x7F\\x80", "x".repeat(9),
                "y".repeat(10), "z".repeat(100), "w".repeat(2_000), "\\x00\\x0a"));
        for (String agent : values) {
            for (String input : values) {
                for (String signature : List.of("-", "sig1=:YWJj:", "h\\xC3\\xA9", "\\x2D")) {
                    check(agent, input, signature);
                }
            }
        }
        assertThat(kept).isGreaterThan(1_000);
    }

    @Test
    void randomFieldsReadAsTheirText() throws Exception {
        kept = 0;
        SplittableRandom random = new SplittableRandom(35);
        for (int n = 0; n < 3_000; n++) {
            check(random(random), random(random), random(random));
        }
        assertThat(kept).isGreaterThan(1_000);
    }

    @Test
    void fieldsOfAHugeHeaderAreReadAsTextAndNoParserKeepsTheirSize() {
        // a hostile line: a 1 MB Signature-Input, then an agent's ordinary one
        LineFields fields = new LineFields();
        for (int length : new int[] {1_000_000, LineFields.SCRATCH_MAX, dev.crawlerrors.ingest.SignatureShape.Maker.MAX_ROOM, 300}) {
            String signature = "sig1=:YWJj:";
            String input = "sig1=(\\x22@authority\\x22);tag=\\x22web-bot-auth\\x22;nonce=\\x22" + "a".repeat(length) + "\\x22";
            String agent = "sig1=\\x22https://chatgpt.com\\x22";
            String line = signature + " " + input + " " + agent;
            byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
            fields.reset();
            fields.signatureFrom = 0;
            fields.signatureTo = signature.length();
            fields.signatureInputFrom = fields.signatureTo + 1;
            fields.signatureInputTo = fields.signatureInputFrom + input.length();
            fields.signatureAgentFrom = fields.signatureInputTo + 1;
            fields.signatureAgentTo = b.length;

            SignatureFields read = fields.signatureFields(b);

            assertThat(read).isEqualTo(SignatureFields.of(text(signature), text(input), text(agent)));
            assertThat(read.textUtf8()).isEqualTo(SignatureFields.of(text(signature), text(input), text(agent)).textUtf8());
            assertThat(read.signatureInput()).hasSize(input.length() - 6 * 3).endsWith("a\"");
            assertThat(fields.signatureScratchLength()).as("after %d", length).isLessThanOrEqualTo(LineFields.SCRATCH_MAX);
            // a shape longer than a signer's is not kept: the fields stay whole, and no parser keeps more than a signer's shape
            assertThat(read.shortUtf8() != null).as("short after %d", length).isEqualTo(length == 300);
        }
    }

    @Test
    void linesOfOneSignerShareTheirAgentsText() throws Exception {
        LineParser parser = NginxFormat.compile("$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent"
                + " \"$http_referer\" \"$http_user_agent\" \"$host\" \"$http_signature_agent\" \"$http_signature_input\" \"$http_signature\"");
        String chatgpt = "sig1=\\x22https://chatgpt.com\\x22";
        String other = "sig1=\\x22https://agent.bot.goog\\x22";
        String long1 = "sig1=\\x22https://" + "a".repeat(LineFields.AGENT_KEPT_MAX) + ".example\\x22";

        SignatureFields first = signed(parser, chatgpt, "one");
        SignatureFields second = signed(parser, chatgpt, "two");
        SignatureFields third = signed(parser, other, "three");
        SignatureFields fourth = signed(parser, long1, "four");
        SignatureFields fifth = signed(parser, long1, "five");
        SignatureFields sixth = signed(parser, other, "six");

        assertThat(first.signatureAgent()).isEqualTo("sig1=\"https://chatgpt.com\"");
        assertThat(second.signatureAgent()).isSameAs(first.signatureAgent());
        assertThat(third.signatureAgent()).isEqualTo("sig1=\"https://agent.bot.goog\"");
        // an agent longer than a signer's is read, not kept: the next line's is its own text
        assertThat(fifth.signatureAgent()).isEqualTo(fourth.signatureAgent()).isNotSameAs(fourth.signatureAgent());
        assertThat(sixth.signatureAgent()).isSameAs(third.signatureAgent());
        assertThat(second.signature()).isEqualTo("sig1=:two:");
    }

    @Test
    void aSignersLinesAreMadeShortAroundOneShape() throws Exception {
        LineParser parser = NginxFormat.compile("$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent"
                + " \"$http_referer\" \"$http_user_agent\" \"$host\" \"$http_signature_agent\" \"$http_signature_input\" \"$http_signature\"");
        List<SignatureFields> read = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String input = "sig1=(\\x22@method\\x22 \\x22@authority\\x22 \\x22@path\\x22);created=" + (1747180799 + i) + ";expires="
                    + (1747180860 + i) + ";keyid=\\x22k\\x22;alg=\\x22ed25519\\x22;nonce=\\x22n" + i + "=\\x22;tag=\\x22web-bot-auth\\x22";
            String line = "20.171.207.1 - - [14/May/2025:00:00:00 +0000] \"GET /a HTTP/1.1\" 404 5 \"-\" \"Mozilla/5.0 Chrome/131\""
                    + " \"www.example.com\" \"sig1=\\x22https://chatgpt.com\\x22\" \"" + input + "\" \"sig1=:c2ln" + i + ":\"";
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            SignatureFields fields = parser.parse(b, 0, b.length, PEOPLE).signed();
            read.add(fields);
            SignatureFields asText = SignatureFields.of("sig1=:c2ln" + i + ":", text(input), "sig1=\"https://chatgpt.com\"");
            assertThat(fields.shortUtf8()).as("short").isNotNull();
            assertThat(new String(fields.shortUtf8(), StandardCharsets.US_ASCII)).startsWith("~" + fields.shape().number() + ":")
                    .contains(":10:" + (1747180799 + i)).doesNotContain("keyid");
            assertThat(fields.textUtf8()).isEqualTo(asText.textUtf8());
            assertThat(fields).isEqualTo(asText);
            assertThat(fields.signatureInput()).isEqualTo(asText.signatureInput());
        }
        assertThat(read.get(1).shape()).as("one shape for the signer's lines").isSameAs(read.get(0).shape()).isSameAs(read.get(2).shape());
    }

    private static SignatureFields signed(LineParser parser, String agent, String signature) throws Exception {
        String line = "20.171.207.1 - - [14/May/2025:00:00:00 +0000] \"GET /a HTTP/1.1\" 404 5 \"-\" \"Mozilla/5.0 Chrome/131\""
                + " \"www.example.com\" \"" + agent + "\" \"sig1=(\\x22@authority\\x22);tag=\\x22web-bot-auth\\x22\" \"sig1=:"
                + signature + ":\"";
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(b, 0, b.length, PEOPLE).signed();
    }

    private static String text(String value) {
        byte[] b = value.getBytes(StandardCharsets.ISO_8859_1);
        return LogText.text(b, 0, b.length);
    }

    private static int kept;

    private static void check(String agent, String input, String signature) throws Exception {
        String line = "20.171.207.1 - - [14/May/2025:00:00:00 +0000] \"GET /a HTTP/1.1\" 404 5 \"-\" \"Mozilla/5.0 Chrome/131\""
                + " \"www.example.com\" \"" + agent + "\" \"" + input + "\" \"" + signature + "\"";
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        int from = line.indexOf("\"www.example.com\" \"");
        Hit hit;
        try {
            hit = NGINX.parse(b, 0, b.length, PEOPLE);
        } catch (dev.crawlerrors.ingest.BadLineException e) {
            return; // a field nginx would not write (a backslash before its closing quote): the line's, not the fields'
        }
        // as the fields were read before: each one as text
        String[] expected = {field(b, signature), field(b, input), field(b, agent)};
        SignatureFields asText = SignatureFields.of(expected[0], expected[1], expected[2]);
        if (hit == null) {
            return; // a person's agent whose line the filter dropped: not this path's to decide
        }
        kept++;
        SignatureFields read = hit.signed();
        assertThat(read).as(line).isEqualTo(asText);
        if (read == null) {
            return;
        }
        assertThat(read.signature()).as(line).isEqualTo(asText.signature());
        assertThat(read.signatureInput()).as(line).isEqualTo(asText.signatureInput());
        assertThat(read.signatureAgent()).as(line).isEqualTo(asText.signatureAgent());
        assertThat(read.text()).as(line).isEqualTo(asText.text());
        assertThat(read.textUtf8()).as(line).isEqualTo(asText.textUtf8());
        assertThat(from).isPositive();
    }

    /** {@code value} as LogText reads a quoted field that holds it. */
    private static String field(byte[] line, String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        return LogText.text(b, 0, b.length);
    }

    private static String random(SplittableRandom random) {
        String[] pieces = {"-", "\\x22", "\\x", "\\\\", "\\\"", "\\xc3\\xa9", "\u00e9", "\\x7f", "\\x80", "a", "sig1=", ":", "0",
                "\\x2d", "\\", "x", ";created=", ";nonce=", ";expires=1", ";"};
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        String value = text.toString();
        // a quoted field's value: nginx escapes a quote; a lone backslash before the closing quote would escape it
        return value.endsWith("\\") ? value + "x" : value;
    }
}
