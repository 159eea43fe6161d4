package dev.crawlerrors.crawler.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An open bot catalog vendored as data: device-detector's bots, as {@code scripts/refresh-bot-catalog.sh}
 * writes them ({@code {"source", "license", "version", "bots": [{"regex", "name", "category",
 * "producer", "url"}...]}}).
 *
 * @param source  where the data comes from
 * @param license its license
 * @param version the package and version it was taken from
 */
public record OpenBotCatalog(String source, String license, String version, BotPatterns bots) {

    /** device-detector's bots, as the jar ships them. */
    public static final String DEVICE_DETECTOR = "/device-detector/bots.json";

    private static final JsonFactory JSON = new JsonFactory();

    /** The catalog at {@code resource} in the jar. */
    public static OpenBotCatalog resource(String resource) {
        try (InputStream in = OpenBotCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(resource + " cannot be read", e);
        }
    }

    static OpenBotCatalog read(InputStream in) throws IOException {
        String source = "";
        String license = "";
        String version = "";
        List<BotPattern> bots = new ArrayList<>();
        try (JsonParser json = JSON.createParser(in)) {
            expect(json.nextToken(), JsonToken.START_OBJECT);
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                JsonToken value = json.nextToken();
                switch (field) {
                    case "source" -> source = json.getValueAsString("");
                    case "license" -> license = json.getValueAsString("");
                    case "version" -> version = json.getValueAsString("");
                    case "bots" -> {
                        expect(value, JsonToken.START_ARRAY);
                        while (json.nextToken() == JsonToken.START_OBJECT) {
                            bots.add(bot(json));
                        }
                    }
                    default -> json.skipChildren();
                }
            }
        }
        return new OpenBotCatalog(source, license, version, new BotPatterns(bots));
    }

    private static BotPattern bot(JsonParser json) throws IOException {
        String regex = null;
        String name = null;
        String category = null;
        String producer = null;
        String url = null;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String field = json.currentName();
            json.nextToken();
            String text = json.getValueAsString();
            switch (field) {
                case "regex" -> regex = text;
                case "name" -> name = text;
                case "category" -> category = text;
                case "producer" -> producer = text;
                case "url" -> url = text;
                default -> json.skipChildren();
            }
        }
        if (regex == null || name == null) {
            throw new IOException("a bot without a regex or a name near " + json.currentLocation());
        }
        return new BotPattern(regex, name, category, producer, url);
    }

    private static void expect(JsonToken actual, JsonToken expected) throws IOException {
        if (actual != expected) {
            throw new IOException("expected " + expected + ", found " + actual);
        }
    }
}
