package dev.crawlerrors.ingest.push;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedInputStream;
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

    private static final JsonFactory JSON = new JsonFactory();
    /** How far past leading white space the first byte is looked for. */
    private static final int LOOK_AHEAD = 64 * 1024;

    private JsonArrayBatch() {
    }

    /**
     * The array's elements as JSON lines when {@code body} holds a JSON array; else {@code body}'s
     * bytes as they are. The lines are made as they are read, one element at a time, so a batch
     * takes no more memory than as JSON lines; a malformed array shows as a
     * {@link MalformedArrayException} from the read that meets it.
     */
    static InputStream asLines(InputStream body) throws IOException {
        BufferedInputStream in = new BufferedInputStream(body, LOOK_AHEAD);
        in.mark(LOOK_AHEAD);
        int first = firstByteAfterWhiteSpace(in);
        in.reset();
        if (first != '[') {
            return in;
        }
        JsonParser parser = JSON.createParser(in);
        parser.nextToken(); // the array's start
        return new Lines(parser);
    }

    /** The elements of an array being parsed, one line each. */
    private static final class Lines extends InputStream {
        private final JsonParser parser;
        private final ByteArrayOutputStream element = new ByteArrayOutputStream();
        private byte[] line = new byte[0];
        private int at;
        private boolean ended;

        Lines(JsonParser parser) {
            this.parser = parser;
        }

        /** Whether there is a byte to read: the next element made into a line when this one is read. */
        private boolean fill() throws IOException {
            while (at == line.length) {
                if (ended) {
                    return false;
                }
                try {
                    JsonToken token = parser.nextToken();
                    if (token == JsonToken.END_ARRAY) {
                        ended = true;
                        if (parser.nextToken() != null) {
                            throw new MalformedArrayException("there is more after the JSON array's closing ']' at " + where(parser));
                        }
                        return false;
                    }
                    if (token == null) {
                        throw new MalformedArrayException("the JSON array ends before its closing ']'");
                    }
                    // copied as it is parsed, compact: no tree of the record is built
                    element.reset();
                    try (JsonGenerator out = JSON.createGenerator(element)) {
                        out.copyCurrentStructure(parser);
                    }
                    element.write('\n');
                    line = element.toByteArray();
                    at = 0;
                } catch (JsonProcessingException e) {
                    throw new MalformedArrayException("the JSON array is malformed at " + where(e) + ": " + e.getOriginalMessage());
                }
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            return fill() ? line[at++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, line.length - at);
            System.arraycopy(line, at, b, off, n);
            at += n;
            return n;
        }

        @Override
        public void close() throws IOException {
            parser.close();
        }
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
