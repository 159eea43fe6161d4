package dev.crawlerrors.crawler;

import dev.crawlerrors.crawler.catalog.BotPattern;
import dev.crawlerrors.crawler.catalog.BotPatterns;
import dev.crawlerrors.crawler.catalog.OpenBotCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The bots this tool knows beyond its own catalog: device-detector's bots ({@link OpenBotCatalog},
 * vendored), with the bot types {@code long-tail-types.json} gives them. Their operators publish
 * no way to verify them that this tool knows, so their hits are {@code unverified}. Our catalog
 * speaks first, and the long tail never gives a name ours uses ({@link #besides}): an agent ours did
 * not recognise is not one of ours, so device-detector's "Googlebot" entry, which also matches
 * Google Web Preview and a dozen other Google fetchers, names each for what it is.
 */
public final class LongTail {

    private static final String TYPES = "/long-tail-types.json";

    private final OpenBotCatalog catalog;
    private final Map<String, BotType> byCategory;
    private final Map<String, BotType> byName;
    private final Map<String, List<String>> ours;
    /** The names ours uses, in lower case: our crawlers' names and tokens, and the long tail's own names for them. */
    private final Set<String> reserved;
    private volatile Map<String, BotPattern> firstByName;

    LongTail(OpenBotCatalog catalog, Map<String, BotType> byCategory, Map<String, BotType> byName, Map<String, List<String>> ours) {
        this(catalog, byCategory, byName, ours, Set.of());
    }

    private LongTail(OpenBotCatalog catalog, Map<String, BotType> byCategory, Map<String, BotType> byName,
            Map<String, List<String>> ours, Set<String> reserved) {
        this.catalog = catalog;
        this.byCategory = Map.copyOf(byCategory);
        this.byName = Map.copyOf(byName);
        this.ours = Map.copyOf(ours);
        this.reserved = Set.copyOf(reserved);
    }

    /**
     * This long tail behind {@code crawlers}: it gives none of their names or tokens, nor its own
     * names for them ({@code "ours"} of {@code long-tail-types.json}), to an agent.
     */
    LongTail besides(List<Crawler> crawlers) {
        Set<String> names = new HashSet<>();
        for (Crawler crawler : crawlers) {
            names.add(crawler.name().toLowerCase(Locale.ROOT));
            crawler.tokens().forEach(token -> names.add(token.toLowerCase(Locale.ROOT)));
        }
        ours.keySet().forEach(name -> names.add(name.toLowerCase(Locale.ROOT)));
        return new LongTail(catalog, byCategory, byName, ours, names);
    }

    /** Whether {@code name} is one ours uses, in any case. */
    boolean isOurs(String name) {
        return reserved.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Whether {@code name} says one of ours where a name starts ({@code APIs-Google-Mobile} says
     * APIs-Google): ours would recognise an agent that says it, so the long tail never gives it.
     */
    private boolean holdsOurs(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String ours : reserved) {
            for (int at = lower.indexOf(ours); at >= 0; at = lower.indexOf(ours, at + 1)) {
                if (at == 0 || !Character.isLetterOrDigit(lower.charAt(at - 1)) && lower.charAt(at - 1) != '-') {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The name the long tail gives {@code agent}, which {@code match} matched: the entry's, or where
     * that is a name ours uses, the agent's own name for what the entry matched
     * ({@link BotPattern#matchedName}: Google Web Preview, Slack-ImgProxy); where that too is one
     * of ours, the entry's name with {@code lookalike} after it.
     */
    public String name(BotPatterns.PatternMatch match, String agent) {
        if (!isOurs(match.name())) {
            return match.name();
        }
        return match.pattern().matchedName(agent).filter(name -> !name.isEmpty() && !isOurs(name))
                .orElse(match.name() + LOOKALIKE);
    }

    private static final String LOOKALIKE = " lookalike";

    /** The name the long tail lists ({@link #names}) typed as {@code typed}, in any case, as it spells it. */
    Optional<String> listedName(String typed) {
        return names().stream().filter(name -> name.equalsIgnoreCase(typed)).findFirst();
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

    /**
     * The type of the bot {@code pattern} names {@code name}: by its name (or the name it extends,
     * {@code Google-AdWords-Express} by {@code Google-Adwords}), else by its category, else
     * {@code crawler_other}.
     */
    public BotType type(BotPattern pattern, String name) {
        BotType type = byName.get(name);
        if (type == null && !name.equals(pattern.name())) {
            type = byNameItExtends(name);
        }
        if (type == null) {
            type = byName.get(pattern.name());
        }
        if (type == null) {
            type = byCategory.get(pattern.category());
        }
        return type == null ? BotType.crawler_other : type;
    }

    /** The type of the longest typed name that {@code name} continues after a {@code -}, in any case; null when none. */
    private BotType byNameItExtends(String name) {
        String best = null;
        for (String typed : byName.keySet()) {
            if (name.length() > typed.length() && name.charAt(typed.length()) == '-' && name.regionMatches(true, 0, typed, 0, typed.length())
                    && (best == null || typed.length() > best.length())) {
                best = typed;
            }
        }
        return best == null ? null : byName.get(best);
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
     * out where the group matches a list of strings; an entry whose name is one of ours by what
     * each alternative matches, where that is known).
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
                    if (!isOurs(name)) {
                        first.putIfAbsent(name, pattern);
                        continue;
                    }
                    for (String matched : pattern.matchedNames()) {
                        if (!holdsOurs(matched)) {
                            first.putIfAbsent(matched, pattern);
                        }
                    }
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
