package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.JsonDocument;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The published examples, as fixtures ({@code signatures/vectors.json}): RFC 9421 Appendix B.2.6
 * (Ed25519, key {@code test-key-ed25519}) and the Web Bot Auth draft's test vectors (Ed25519 and
 * RSA-PSS, dictionary and legacy Signature-Agent, and a signed directory response). Each base is
 * rebuilt from the request's parts as a log holds them, byte for byte as the source prints it, and
 * each signature verifies with the JDK's providers; a request changed in one part does not.
 */
class SignatureVectorsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<JsonNode> requests() throws Exception {
        List<JsonNode> list = new ArrayList<>();
        vectors().get("requests").forEach(list::add);
        return list.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void rebuildsTheBaseAndVerifies(JsonNode vector) throws Exception {
        SignedRequest request = request(vector, vector.get("authority").asText());
        SfValue.InnerList params = params(vector);
        SigningKey key = key(vector.get("key").asText());

        byte[] base = SignatureBase.of(request, params);

        List<String> lines = new ArrayList<>();
        vector.get("base").forEach(line -> lines.add(line.asText()));
        assertThat(new String(base, StandardCharsets.UTF_8)).isEqualTo(String.join("\n", lines));
        assertThat(algorithm(params, key).verify(key.key(), base, signature(vector))).isEqualTo(SignatureAlgorithm.Check.VALID);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void aRequestForAnotherHostDoesNotVerify(JsonNode vector) throws Exception {
        SignedRequest request = request(vector, "example.org");
        SfValue.InnerList params = params(vector);
        SigningKey key = key(vector.get("key").asText());

        byte[] base = SignatureBase.of(request, params);

        assertThat(algorithm(params, key).verify(key.key(), base, signature(vector))).isEqualTo(SignatureAlgorithm.Check.INVALID);
    }

    @Test
    void thumbprintsAreTheOnesTheSourcesPrint() throws Exception {
        assertThat(key("test-key-ed25519").thumbprint()).isEqualTo("poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U");
        assertThat(key("test-key-rsa-pss").thumbprint()).isEqualTo("oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA");
        // RFC 7638 section 3.1, and RFC 8037 Appendix A.3
        assertThat(SigningKey.of(Map.of("kty", "RSA", "e", "AQAB", "n", "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFF"
                + "xuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJ"
                + "ZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8"
                + "awapJzKnqDKgw")).thumbprint()).isEqualTo("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
        assertThat(SigningKey.of(Map.of("kty", "OKP", "crv", "Ed25519", "x", "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")).thumbprint())
                .isEqualTo("kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
    }

    @Test
    void theTestKeysAreKnownAsSuch() throws Exception {
        assertThat(key("test-key-ed25519").isPublishedTestKey()).isTrue();
        assertThat(key("test-key-rsa-pss").isPublishedTestKey()).isTrue();
    }

    @Test
    void aSignedDirectoryResponseProvesItsKeys() throws Exception {
        JsonNode vector = vectors().get("signedDirectory");
        SigningKey key = key("test-key-ed25519");
        Map<String, String> headers = new HashMap<>(Map.of("signature-input", vector.get("signatureInput").asText(), "signature",
                vector.get("signature").asText(), "content-digest", vector.get("contentDigest").asText()));
        byte[] body = vector.get("body").asText().getBytes(StandardCharsets.UTF_8);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        assertThat(DirectoryProof.check(vector.get("authority").asText(), headers, body, Map.of(key.thumbprint(), key), now))
                .isEqualTo("signed by its key poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U (created 2025-01-01T00:00:00Z)");

        byte[] changed = vector.get("body").asText().replace("\"use\":\"sig\"", "\"use\":\"enc\"").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> DirectoryProof.check(vector.get("authority").asText(), headers, changed, Map.of(key.thumbprint(), key), now))
                .hasMessage("its body does not match its Content-Digest");
        assertThatThrownBy(() -> DirectoryProof.check("other.test", headers, body, Map.of(key.thumbprint(), key), now))
                .hasMessage("its own signature by key poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U does not verify");
        assertThat(DirectoryProof.check("signature-agent.test", Map.of(), body, Map.of(), now)).isEmpty();
    }

    private static SignedRequest request(JsonNode vector, String authority) {
        Map<String, String> fields = new HashMap<>();
        vector.get("fields").fields().forEachRemaining(f -> fields.put(f.getKey(), f.getValue().asText()));
        return new SignedRequest(vector.get("method").asText(), authority, vector.get("target").asText(), fields);
    }

    private static SfValue.InnerList params(JsonNode vector) throws MalformedFieldException {
        return (SfValue.InnerList) StructuredFieldParser.dictionary("Signature-Input", vector.get("signatureInput").asText()).values()
                .iterator().next();
    }

    private static byte[] signature(JsonNode vector) throws MalformedFieldException {
        SfValue.Item item = (SfValue.Item) StructuredFieldParser.dictionary("Signature", vector.get("signature").asText()).values().iterator().next();
        return ((SfValue.Bytes) item.value()).bytes();
    }

    private static SignatureAlgorithm algorithm(SfValue.InnerList params, SigningKey key) {
        Object alg = params.params().get("alg");
        return alg == null ? SignatureAlgorithm.of(key).orElseThrow() : SignatureAlgorithm.named((String) alg).orElseThrow();
    }

    private static SigningKey key(String name) throws Exception {
        return SigningKey.of(JsonDocument.object(JsonDocument.read(JSON.writeValueAsBytes(vectors().get("keys").get(name)))));
    }

    private static JsonNode vectors() throws Exception {
        try (InputStream in = SignatureVectorsTest.class.getResourceAsStream("/signatures/vectors.json")) {
            return JSON.readTree(in);
        }
    }
}
