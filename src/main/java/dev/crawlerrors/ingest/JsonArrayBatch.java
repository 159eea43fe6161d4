package dev.crawlerrors.ingest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A drain batch of JSON records sent as one JSON array, as JSON lines: one compact line per
 * element, in order. Shippers batch that way (Fluent Bit's http output with {@code Format json},
 * for one), and a pretty-printed array spreads each record over many lines, which JSON lines
 * cannot read. Element N becomes line N, so a bad record is reported by its place in the array.
 */
final class JsonArrayBatch {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How far past leading white space the first byte is looked for. */
    private static final int LOOK_AHEAD = 64 * 1024;

    private JsonArrayBatch() {
    }

    /** The array's elements as JSON lines when {@code body} holds a JSON array; else {@code body}'s bytes as they are. */
    static InputStream asLines(InputStream body) throws IOException {
        BufferedInputStream in = new BufferedInputStream(body, LOOK_AHEAD);
        in.mark(LOOK_AHEAD);
        int first = firstByteAfterWhiteSpace(in);
        in.reset();
        if (first != '[') {
            return in;
        }
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        try (JsonParser parser = JSON.createParser(in)) {
            parser.nextToken(); // the array's start
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token == null) {
                    throw new MalformedArrayException("the JSON array ends before its closing ']'");
                }
                JSON.writeValue(lines, JSON.readTree(parser));
                lines.write('\n');
            }
            if (parser.nextToken() != null) {
                throw new MalformedArrayException("there is more after the JSON array's closing ']' at "
                        + where(parser));
            }
        } catch (JsonProcessingException e) {
            throw new MalformedArrayException("the JSON array is malformed at " + where(e) + ": " + e.getOriginalMessage());
        }
        return new ByteArrayInputStream(lines.toByteArray());
    }

    private static int firstByteAfterWhiteSpace(InputStream in) throws IOException {
        for (int i = 0; i < LOOK_AHEAD; i++) {
            int b = in.read();
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b;
            }
        }
        return -1;
    }

    private static String where(JsonParser parser) {
        return "line " + parser.currentLocation().getLineNr() + ", column " + parser.currentLocation().getColumnNr();
    }

    private static String where(JsonProcessingException e) {
        return e.getLocation() == null ? "its end" : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    /** A body that starts as a JSON array and is not one: its records cannot be told apart. */
    static final class MalformedArrayException extends IOException {
        MalformedArrayException(String message) {
            super(message);
        }
    }
}
