package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.signature.SfValue;
import dev.crawlerrors.crawler.signature.SignatureBase;
import dev.crawlerrors.crawler.signature.SignedRequest;
import dev.crawlerrors.crawler.signature.StructuredFieldParser;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SignatureFields;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One signed request as nginx, Apache, an nginx JSON template, Caddy, Traefik and IIS log it with
 * the fields docs/verification.md gives ({@code signatures/signed-lines.json}): each parser keeps
 * the line though its user agent is a person's Chrome, and gives back the three fields as the
 * request sent them, so the signature base rebuilt from the hit is the draft's own, byte for byte.
 */
class SignedLineFormatsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A filter that takes every agent for a person's. */
    private static final AgentFilter PEOPLE = (line, from, to) -> false;

    static Stream<JsonNode> entries() throws Exception {
        List<JsonNode> list = new ArrayList<>();
        fixture().get("entries").forEach(list::add);
        return list.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void keepsASignedLineOfAPersonsAgentWithItsFields(JsonNode entry) throws Exception {
        JsonNode fixture = fixture();
        LineParser parser = parser(entry);
        Hit hit = null;
        for (JsonNode line : entry.get("lines")) {
            byte[] b = line.asText().getBytes(StandardCharsets.UTF_8);
            hit = parser.parse(b, 0, b.length, PEOPLE);
        }

        assertThat(hit).isNotNull();
        assertThat(hit.signed()).isEqualTo(new SignatureFields(fixture.get("signature").asText(), fixture.get("signatureInput").asText(),
                fixture.get("signatureAgent").asText()));
        assertThat(hit.host()).isEqualTo("example.com");
        assertThat(hit.url()).isEqualTo("/");
        SfValue.InnerList params = (SfValue.InnerList) StructuredFieldParser.dictionary("Signature-Input", hit.signed().signatureInput())
                .get("sig2");
        assertThat(new String(SignatureBase.of(SignedRequest.of(hit.method(), hit.host(), hit.url(), hit.signed().signatureAgent()), params),
                StandardCharsets.UTF_8)).startsWith("\"@authority\": example.com\n\"signature-agent\";key=\"agent2\": "
                        + "\"https://signature-agent.test\"\n\"@signature-params\": (\"@authority\" \"signature-agent\";key=\"agent2\")");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void dropsTheSameLineUnsignedAsAPersons(JsonNode entry) throws Exception {
        LineParser parser = parser(entry);
        Hit hit = null;
        for (JsonNode line : entry.get("lines")) {
            String unsigned = unsigned(line.asText(), fixture());
            byte[] b = unsigned.getBytes(StandardCharsets.UTF_8);
            hit = parser.parse(b, 0, b.length, PEOPLE);
        }

        assertThat(hit).isNull();
    }

    /** The line with its signature fields empty, as the server logs a request without them. */
    private static String unsigned(String line, JsonNode fixture) {
        String out = line;
        for (String field : List.of("signatureAgent", "signatureInput", "signature")) {
            String value = fixture.get(field).asText();
            for (String written : List.of(value, nginx(value), value.replace("\"", "\\\"").replace(" ", "+"), value.replace(" ", "+"),
                    value.replace("\"", "\\\""))) {
                out = out.replace(written, "-");
            }
        }
        return out;
    }

    private static String nginx(String value) {
        return value.replace("\"", "\\x22");
    }

    private static LineParser parser(JsonNode entry) {
        return switch (entry.get("parser").asText()) {
            case "nginx" -> NginxFormat.compile(entry.get("format").asText());
            case "apache" -> ApacheFormat.compile(entry.get("format").asText());
            case "json" -> new JsonLineParser();
            case "w3c" -> new W3cLineParser();
            default -> throw new IllegalArgumentException(entry.get("parser").asText());
        };
    }

    private static JsonNode fixture() throws Exception {
        try (InputStream in = SignedLineFormatsTest.class.getResourceAsStream("/signatures/signed-lines.json")) {
            return JSON.readTree(in);
        }
    }
}
