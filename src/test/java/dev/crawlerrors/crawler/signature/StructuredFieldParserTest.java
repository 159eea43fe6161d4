package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * RFC 8941 parsing: the fields Web Bot Auth sends, the RFC's own examples, the edge cases its
 * section 4.2 names, and two properties: any text at all is parsed or refused with a
 * {@link MalformedFieldException} (never another exception), and a value written out parses back
 * to itself.
 */
class StructuredFieldParserTest {

    @Test
    void readsAWebBotAuthSignatureInput() throws Exception {
        Map<String, SfValue.Member> input = StructuredFieldParser.dictionary("Signature-Input",
                "sig2=(\"@authority\" \"signature-agent\";key=\"agent2\");created=1735689600;keyid=\"poqk\";alg=\"ed25519\""
                        + ";expires=4889289600;tag=\"web-bot-auth\"");

        SfValue.InnerList sig = (SfValue.InnerList) input.get("sig2");
        assertThat(sig.items()).extracting(SfValue.Item::value).containsExactly("@authority", "signature-agent");
        assertThat(sig.items().get(1).params()).containsExactly(Map.entry("key", "agent2"));
        assertThat(sig.params()).containsExactly(Map.entry("created", 1735689600L), Map.entry("keyid", "poqk"),
                Map.entry("alg", "ed25519"), Map.entry("expires", 4889289600L), Map.entry("tag", "web-bot-auth"));
        assertThat(StructuredFieldWriter.member(sig)).isEqualTo("(\"@authority\" \"signature-agent\";key=\"agent2\")"
                + ";created=1735689600;keyid=\"poqk\";alg=\"ed25519\";expires=4889289600;tag=\"web-bot-auth\"");
    }

    @Test
    void readsASignatureAsBytes() throws Exception {
        Map<String, SfValue.Member> signature = StructuredFieldParser.dictionary("Signature", "sig1=:AAEC:, sig2=:/w==:");

        assertThat(((SfValue.Item) signature.get("sig1")).value()).isEqualTo(new SfValue.Bytes(new byte[] {0, 1, 2}));
        assertThat(((SfValue.Item) signature.get("sig2")).value()).isEqualTo(new SfValue.Bytes(new byte[] {(byte) 0xff}));
    }

    @Test
    void readsTheRfcsDictionaryExamples() throws Exception {
        Map<String, SfValue.Member> example = StructuredFieldParser.dictionary("Example-Dict", "en=\"Applepie\", da=:w4ZibGV0w6ZydGUK:");
        assertThat(((SfValue.Item) example.get("en")).value()).isEqualTo("Applepie");

        Map<String, SfValue.Member> flags = StructuredFieldParser.dictionary("Example-Dict", "a=?0, b, c; foo=bar");
        assertThat(((SfValue.Item) flags.get("a")).value()).isEqualTo(false);
        assertThat(((SfValue.Item) flags.get("b")).value()).isEqualTo(true);
        assertThat(((SfValue.Item) flags.get("c")).params()).containsExactly(Map.entry("foo", new SfValue.Token("bar")));

        Map<String, SfValue.Member> lists = StructuredFieldParser.dictionary("Example-Dict", "rating=1.5, feelings=(joy sadness)");
        assertThat(((SfValue.Item) lists.get("rating")).value()).isEqualTo(new BigDecimal("1.5"));
        assertThat(StructuredFieldWriter.member(lists.get("feelings"))).isEqualTo("(joy sadness)");
    }

    @Test
    void aRepeatedKeyKeepsItsPlaceAndTakesTheLastValue() throws Exception {
        Map<String, SfValue.Member> dict = StructuredFieldParser.dictionary("X", "a=1, b=2, a=3");

        assertThat(dict.keySet()).containsExactly("a", "b");
        assertThat(((SfValue.Item) dict.get("a")).value()).isEqualTo(3L);
    }

    @Test
    void readsALegacySignatureAgentString() throws Exception {
        SfValue.Item item = StructuredFieldParser.item("Signature-Agent", " \"https://chatgpt.com\" ");

        assertThat(item.value()).isEqualTo("https://chatgpt.com");
    }

    @Test
    void refusesWhatTheRfcRefuses() {
        for (String bad : List.of("a=", "a=1,", "a=1,,b=2", "A=1", "a=\"unterminated", "a=\"bad \\n escape\"", "a=(1 2", "a=(1,2)",
                "a=1234567890123456", "a=1.2345", "a=1234567890123.1", "a=?2", "a=:not base64!:", "a=:abc", "a=@x", "a=1 b=2",
                "a=\"caf\u00e9\"", "a=1;", "a=1;B=2")) {
            assertThatThrownBy(() -> StructuredFieldParser.dictionary("Signature-Input", bad)).as(bad)
                    .isInstanceOf(MalformedFieldException.class).hasMessageStartingWith("Signature-Input is not a valid structured field: ");
        }
    }

    @Test
    void refusesAHugeFieldBeforeReadingIt() {
        String huge = "sig=:" + "A".repeat(1 << 20) + ":";

        assertThatThrownBy(() -> StructuredFieldParser.dictionary("Signature", huge)).isInstanceOf(MalformedFieldException.class)
                .hasMessage("Signature is 1048582 characters long, more than the 8192 a structured field may have here");
    }

    @Test
    void refusesTooManyMembers() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 65; i++) {
            many.append(i == 0 ? "" : ", ").append("k").append(i).append("=1");
        }

        assertThatThrownBy(() -> StructuredFieldParser.dictionary("Signature-Agent", many.toString()))
                .isInstanceOf(MalformedFieldException.class).hasMessageContaining("more than 64 members");
    }

    @Test
    void aMissingFieldIsSaidToBeMissing() {
        assertThatThrownBy(() -> StructuredFieldParser.dictionary("Signature", null)).hasMessage("Signature is missing");
    }

    @Property(tries = 3000)
    void anyTextIsParsedOrRefusedInWords(@ForAll("fieldLike") String text) {
        try {
            StructuredFieldParser.dictionary("F", text);
        } catch (MalformedFieldException e) {
            assertThat(e.getMessage()).startsWith("F ");
        }
        try {
            StructuredFieldParser.list("F", text);
        } catch (MalformedFieldException e) {
            assertThat(e.getMessage()).startsWith("F ");
        }
        try {
            StructuredFieldParser.item("F", text);
        } catch (MalformedFieldException e) {
            assertThat(e.getMessage()).startsWith("F ");
        }
    }

    @Property(tries = 1000)
    void aWrittenDictionaryParsesBackToItself(@ForAll("dictionaries") Map<String, SfValue.Member> dict) throws Exception {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, SfValue.Member> member : dict.entrySet()) {
            text.append(text.isEmpty() ? "" : ", ").append(member.getKey()).append('=');
            StructuredFieldWriter.member(text, member.getValue());
        }

        Map<String, SfValue.Member> parsed = StructuredFieldParser.dictionary("F", text.toString());

        assertThat(parsed).isEqualTo(dict);
    }

    @Provide
    Arbitrary<String> fieldLike() {
        Arbitrary<String> pieces = Arbitraries.of("sig", "=", "(", ")", "\"", "\\", ":", ";", ",", " ", "?1", "-", "1", ".", "5", "key",
                "AAEC", "=", "*", "@", "\t", "é", "tag=\"web-bot-auth\"", "created=1", "(\"@authority\")", "9999999999999999");
        return pieces.list().ofMaxSize(40).map(list -> String.join("", list));
    }

    @Provide
    Arbitrary<Map<String, SfValue.Member>> dictionaries() {
        Arbitrary<String> keys = Arbitraries.strings().withCharRange('a', 'z').withChars('-', '_', '.', '*').ofMinLength(1).ofMaxLength(6)
                .filter(k -> Character.isLowerCase(k.charAt(0)));
        Arbitrary<Object> bare = Arbitraries.oneOf(
                Arbitraries.longs().between(-999_999_999_999_999L, 999_999_999_999_999L).map(n -> (Object) n),
                Arbitraries.bigDecimals().between(new BigDecimal("-99999999999.999"), new BigDecimal("99999999999.999")).ofScale(3)
                        .map(StructuredFieldParserTest::asWritten),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12).map(s -> (Object) s),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8).map(s -> (Object) new SfValue.Token(s)),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(10).map(b -> (Object) new SfValue.Bytes(b)),
                Arbitraries.of(Boolean.TRUE, Boolean.FALSE).map(b -> (Object) b));
        Arbitrary<Map<String, Object>> params = Combinators.combine(keys, bare).as(Map::entry).list().ofMaxSize(3).map(entries -> {
            Map<String, Object> map = new LinkedHashMap<>();
            entries.forEach(e -> map.put(e.getKey(), e.getValue()));
            return map;
        });
        Arbitrary<SfValue.Item> items = Combinators.combine(bare.filter(v -> !Boolean.TRUE.equals(v)), params).as(SfValue.Item::new);
        Arbitrary<SfValue.Member> members = Arbitraries.oneOf(items.map(i -> (SfValue.Member) i),
                Combinators.combine(items.list().ofMaxSize(4), params).as((list, p) -> (SfValue.Member) new SfValue.InnerList(list, p)));
        return Combinators.combine(keys, members).as(Map::entry).list().ofMaxSize(5).map(entries -> {
            Map<String, SfValue.Member> map = new LinkedHashMap<>();
            entries.forEach(e -> map.put(e.getKey(), e.getValue()));
            return map;
        });
    }

    /** A decimal as the writer puts it: three fraction digits at most, trailing zeros dropped, one at least. */
    private static Object asWritten(BigDecimal d) {
        BigDecimal stripped = d.stripTrailingZeros();
        return stripped.scale() <= 0 ? stripped.setScale(1) : stripped;
    }
}
