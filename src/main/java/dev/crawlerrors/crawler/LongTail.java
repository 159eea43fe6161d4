package dev.crawlerrors.crawler;

import dev.crawlerrors.crawler.catalog.BotPattern;
import dev.crawlerrors.crawler.catalog.BotPatterns;
import dev.crawlerrors.crawler.catalog.OpenBotCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bots this tool knows beyond its own catalog: device-detector's bots ({@link OpenBotCatalog},
 * vendored), with the bot types {@code long-tail-types.json} gives them. Their operators publish
 * no way to verify them that this tool knows, so their hits are {@code unverified}. Our catalog
 * speaks first; a name of the long tail that is also one of ours is ours.
 */
public final class LongTail {

    private static final String TYPES = "/long-tail-types.json";

    private final OpenBotCatalog catalog;
    private final Map<String, BotType> byCategory;
    private final Map<String, BotType> byName;
    private final Map<String, List<String>> ours;
    private volatile Map<String, BotPattern> firstByName;

    LongTail(OpenBotCatalog catalog, Map<String, BotType> byCategory, Map<String, BotType> byName, Map<String, List<String>> ours) {
        this.catalog = catalog;
        this.byCategory = Map.copyOf(byCategory);
        this.byName = Map.copyOf(byName);
        this.ours = Map.copyOf(ours);
    }

    /** device-detector's bots and our types for them, as the jar ships them. */
    public static LongTail builtIn() {
        OpenBotCatalog bots = OpenBotCatalog.resource(OpenBotCatalog.DEVICE_DETECTOR);
        try (InputStream in = LongTail.class.getResourceAsStream(TYPES)) {
            if (in == null) {
                throw new IllegalStateException(TYPES + " is missing from the jar");
            }
            return read(bots, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(TYPES + " cannot be read", e);
        }
    }

    /**
     * {@code bots} typed by a document {@code {"categories": {CATEGORY: TYPE}, "names": {NAME: TYPE},
     * "ours": {NAME: [OUR NAME...]}}}.
     */
    static LongTail read(OpenBotCatalog bots, byte[] json) throws IOException {
        Map<String, Object> root = JsonDocument.object(JsonDocument.read(json));
        if (root == null) {
            throw new IOException("not a JSON object");
        }
        Map<String, List<String>> ours = new LinkedHashMap<>();
        Map<String, Object> oursObject = JsonDocument.object(root.get("ours"));
        if (oursObject != null) {
            for (String name : oursObject.keySet()) {
                List<?> names = JsonDocument.array(oursObject.get(name));
                if (names == null) {
                    throw new IOException("ours." + name + " is not an array of names");
                }
                ours.put(name, names.stream().map(String::valueOf).toList());
            }
        }
        return new LongTail(bots, types(root, "categories"), types(root, "names"), ours);
    }

    private static Map<String, BotType> types(Map<String, Object> root, String field) throws IOException {
        Map<String, BotType> types = new LinkedHashMap<>();
        Map<String, Object> object = JsonDocument.object(root.get(field));
        if (object == null) {
            return types;
        }
        for (String key : object.keySet()) {
            String type = JsonDocument.text(object, key);
            try {
                types.put(key, BotType.valueOf(String.valueOf(type)));
            } catch (IllegalArgumentException e) {
                throw new IOException(field + "." + key + ": '" + type + "' is not one of " + Arrays.toString(BotType.values()));
            }
        }
        return types;
    }

    /** device-detector's categories and the types they are given. */
    Map<String, BotType> categoryTypes() {
        return byCategory;
    }

    /** The bots given a type of their own, by device-detector's name. */
    Map<String, BotType> nameTypes() {
        return byName;
    }

    /** device-detector's names and ours for the same agents. */
    Map<String, List<String>> oursByName() {
        return ours;
    }

    public OpenBotCatalog catalog() {
        return catalog;
    }

    public BotPatterns patterns() {
        return catalog.bots();
    }

    /** The type of the bot {@code pattern} names {@code name}: by its name, else by its category, else {@code crawler_other}. */
    public BotType type(BotPattern pattern, String name) {
        BotType type = byName.get(name);
        if (type == null) {
            type = byName.get(pattern.name());
        }
        if (type == null) {
            type = byCategory.get(pattern.category());
        }
        return type == null ? BotType.crawler_other : type;
    }

    /**
     * The names in our own catalog of crawlers whose agents device-detector calls {@code name}
     * (device-detector's Googlebot is our Googlebot Desktop, Smartphone, -Image, ...; its Baidu
     * Spider our Baiduspider); empty when ours does not know them by another name. Where ours
     * recognises an agent it names it, so this is what device-detector's name for it means here.
     */
    public List<String> ours(String name) {
        return ours.getOrDefault(name, List.of());
    }

    /**
     * Every name the long tail gives, each once, in the catalog's order ({@code $1} names spelled
     * out where the group matches a list of strings).
     */
    public List<String> names() {
        return List.copyOf(firstByName().keySet());
    }

    /** Each name the long tail gives, and the first entry that gives it (which its type and producer are taken from). */
    private Map<String, BotPattern> firstByName() {
        Map<String, BotPattern> known = firstByName;
        if (known == null) {
            Map<String, BotPattern> first = new LinkedHashMap<>();
            for (BotPattern pattern : patterns().patterns()) {
                for (String name : pattern.names()) {
                    first.putIfAbsent(name, pattern);
                }
            }
            known = Collections.unmodifiableMap(first);
            firstByName = known;
        }
        return known;
    }

    /** The bot of the long tail named {@code name} (one of {@link #names}) as a catalog entry. */
    Crawler crawlerNamed(String name) {
        BotPattern pattern = firstByName().get(name);
        if (pattern == null) {
            throw new IllegalArgumentException("the long tail has no bot named " + name);
        }
        return crawler(pattern, name);
    }

    /**
     * The bot of the long tail named {@code name} as a catalog entry (no tokens of ours, no list, no
     * DNS name), typed by the first entry that gives the name, so that a name has one type
     * whichever entry matched; {@code matched} when no entry lists the name.
     */
    Crawler crawler(BotPattern matched, String name) {
        BotPattern pattern = firstByName().getOrDefault(name, matched);
        return new Crawler(name, pattern.producer(), type(pattern, name), List.of(), List.of(), List.of(), List.of());
    }
}
