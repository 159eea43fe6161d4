package dev.crawlerrors.crawler;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON document read into plain values with jackson-core's streaming parser: an object is a
 * {@code Map<String, Object>} in document order (a repeated name keeps its last value), an array a
 * {@code List<Object>}, and the rest {@code String}, {@code Long}, {@code BigInteger},
 * {@code Double}, {@code Boolean} or {@code null}. Only the first value of the input is read, as
 * databind's {@code readTree} does.
 *
 * <p>Why not databind's {@code ObjectMapper}, for the catalog and the IP lists every command
 * reads: its class initialiser builds a {@code SimpleDateFormat}, so {@code java.util.Calendar}
 * starts, and the JDK's locale data scans every locale it has: work at every start, for documents
 * that hold no dates.
 */
public final class JsonDocument {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonDocument() {
    }

    /**
     * The document's value, or null when {@code json} holds no value at all.
     *
     * @throws com.fasterxml.jackson.core.JsonProcessingException when it is not JSON
     */
    public static Object read(byte[] json) throws IOException {
        try (JsonParser parser = FACTORY.createParser(json)) {
            JsonToken first = parser.nextToken();
            return first == null ? null : value(parser, first);
        }
    }

    private static Object value(JsonParser parser, JsonToken token) throws IOException {
        return switch (token) {
            case START_OBJECT -> {
                Map<String, Object> object = new LinkedHashMap<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                    String name = parser.currentName();
                    object.put(name, value(parser, parser.nextToken()));
                }
                yield object;
            }
            case START_ARRAY -> {
                List<Object> array = new ArrayList<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                    array.add(value(parser, t));
                }
                yield array;
            }
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT -> parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? parser.getBigIntegerValue() : (Object) parser.getLongValue();
            case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IOException("unexpected " + token + " at " + parser.currentLocation());
        };
    }

    /** {@code value} as an object, or null when it is not one. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    /** {@code value} as an array, or null when it is not one. */
    public static List<?> array(Object value) {
        return value instanceof List<?> list ? list : null;
    }

    /**
     * The field as text, as databind's {@code asText} gives it for a scalar: a string as it is, a
     * number or boolean written out; null when the field is missing, null, an object or an array.
     */
    public static String text(Map<String, Object> object, String field) {
        Object value = object.get(field);
        return value instanceof String || value instanceof Number || value instanceof Boolean ? value.toString() : null;
    }
}
