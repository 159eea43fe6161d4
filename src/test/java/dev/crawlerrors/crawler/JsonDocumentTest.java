package dev.crawlerrors.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonDocumentTest {

    private static Object read(String json) throws IOException {
        return JsonDocument.read(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsObjectsArraysAndScalarsInDocumentOrder() throws IOException {
        Object value = read("""
                {"b": [1, 2.5, "x\\u00e9", true, false, null, {"n": {}}], "a": 18446744073709551616, "b2": []}
                """);

        Map<String, Object> root = JsonDocument.object(value);
        assertThat(root).containsOnlyKeys("b", "a", "b2");
        assertThat(List.copyOf(root.keySet())).containsExactly("b", "a", "b2");
        assertThat(JsonDocument.array(root.get("b"))).isEqualTo(Arrays.asList(1L, 2.5, "xé", true, false, null, Map.of("n", Map.of())));
        assertThat(root.get("a")).isEqualTo(new BigInteger("18446744073709551616"));
        assertThat(JsonDocument.array(root.get("b2"))).isEmpty();
    }

    @Test
    void textIsAScalarWrittenOutAndNothingForTheRest() throws IOException {
        Map<String, Object> root = JsonDocument.object(read("{\"s\": \"x\", \"n\": 19, \"t\": true, \"z\": null, \"o\": {}, \"l\": []}"));

        assertThat(JsonDocument.text(root, "s")).isEqualTo("x");
        assertThat(JsonDocument.text(root, "n")).isEqualTo("19");
        assertThat(JsonDocument.text(root, "t")).isEqualTo("true");
        for (String none : Arrays.asList("z", "o", "l", "missing")) {
            assertThat(JsonDocument.text(root, none)).as(none).isNull();
        }
    }

    @Test
    void aRepeatedNameKeepsItsLastValueAndOnlyTheFirstValueIsRead() throws IOException {
        assertThat(read("{\"a\": 1, \"a\": 2} [3]")).isEqualTo(Map.of("a", 2L));
        assertThat(read("  ")).isNull();
        assertThat(JsonDocument.object(read("[1]"))).isNull();
        assertThat(JsonDocument.array(read("{}"))).isNull();
    }

    @Test
    void badJsonIsAJacksonErrorThatSaysWhere() {
        assertThatThrownBy(() -> read("{\"a\": [1, 2}")).isInstanceOf(JsonProcessingException.class)
                .hasMessageContaining("line: 1");
        assertThatThrownBy(() -> read("{\"a\": ")).isInstanceOf(JsonProcessingException.class);
    }
}
