package dev.crawlerrors.crawler;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The crawlers this tool knows, and the published IP lists that verify them. Data, not code: the
 * built-in catalog is the {@code crawlers.json} resource, our own, and behind it the long tail of
 * bots that device-detector knows ({@link LongTail}), which speaks only where ours is silent.
 */
public final class CrawlerCatalog {

    private static final String BUILT_IN = "/crawlers.json";

    private final List<Crawler> crawlers;
    private final Map<String, IpListSpec> lists;
    private final LongTail longTail;
    private volatile CrawlerIdentifier namer;

    /** A catalog of {@code crawlers} alone, without the long tail. */
    public CrawlerCatalog(List<Crawler> crawlers, List<IpListSpec> lists) {
        this(crawlers, lists, null);
    }

    /** A catalog of {@code crawlers} with {@code longTail} (null for none) behind them. */
    public CrawlerCatalog(List<Crawler> crawlers, List<IpListSpec> lists, LongTail longTail) {
        this.longTail = longTail == null ? null : longTail.besides(crawlers);
        this.crawlers = List.copyOf(crawlers);
        Map<String, IpListSpec> byName = new LinkedHashMap<>();
        lists.forEach(list -> byName.put(list.name(), list));
        this.lists = Collections.unmodifiableMap(byName);
        for (Crawler crawler : crawlers) {
            for (String list : crawler.ipLists()) {
                if (!byName.containsKey(list)) {
                    throw new IllegalArgumentException("crawler " + crawler.name() + " names IP list " + list
                            + ", which the catalog does not define");
                }
            }
        }
    }

    /** The catalog shipped in the jar: {@code crawlers.json} and the long tail. */
    public static CrawlerCatalog builtIn() {
        return ownBuiltIn().withLongTail(LongTail.builtIn());
    }

    /** {@code crawlers.json} alone, without the long tail. */
    public static CrawlerCatalog ownBuiltIn() {
        try (InputStream in = CrawlerCatalog.class.getResourceAsStream(BUILT_IN)) {
            if (in == null) {
                throw new IllegalStateException(BUILT_IN + " is missing from the jar");
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CrawlerCatalog read(InputStream in) throws IOException {
        CatalogFile file = CatalogFile.read(in.readAllBytes());
        return new CrawlerCatalog(file.crawlers(), file.lists());
    }

    /** This catalog's own crawlers with {@code tail} behind them. */
    public CrawlerCatalog withLongTail(LongTail tail) {
        return new CrawlerCatalog(crawlers, List.copyOf(lists.values()), tail);
    }

    /** The bots known beyond this catalog's own crawlers, if any. */
    public Optional<LongTail> longTail() {
        return Optional.ofNullable(longTail);
    }

    /**
     * This catalog with a user's catalog file (same JSON shape as the built-in one) laid over it:
     * an entry with a built-in name replaces it, new names are added, and so are new lists.
     *
     * @throws IOException with the file name and what is wrong in it
     */
    public CrawlerCatalog extendedWith(Path file) throws IOException {
        CatalogFile user;
        try (InputStream in = Files.newInputStream(file)) {
            user = CatalogFile.read(in.readAllBytes());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + " is not a crawler catalog: " + e.getOriginalMessage());
        } catch (NotACatalog e) {
            throw new IOException(file + " is not a crawler catalog: " + e.getMessage());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(file + " does not exist");
        }
        Map<String, Crawler> byName = new LinkedHashMap<>();
        crawlers.forEach(c -> byName.put(c.name(), c));
        for (Crawler crawler : user.crawlers() == null ? List.<Crawler>of() : user.crawlers()) {
            if (crawler.name() == null || crawler.name().isBlank() || crawler.tokens().isEmpty() || crawler.botType() == null) {
                throw new IOException(file + ": every crawler needs a name, a botType and at least one token; got " + crawler);
            }
            byName.put(crawler.name(), crawler);
        }
        Map<String, IpListSpec> allLists = new LinkedHashMap<>(lists);
        (user.lists() == null ? List.<IpListSpec>of() : user.lists()).forEach(l -> allLists.put(l.name(), l));
        try {
            return new CrawlerCatalog(List.copyOf(byName.values()), List.copyOf(allLists.values()), longTail);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
    }

    public List<Crawler> crawlers() {
        return crawlers;
    }

    /** Every published list the catalog defines, in its order. */
    public List<IpListSpec> lists() {
        return List.copyOf(lists.values());
    }

    public Optional<IpListSpec> list(String name) {
        return Optional.ofNullable(lists.get(name));
    }

    /** The crawler of this catalog's own named {@code name}, exactly. */
    public Optional<Crawler> crawler(String name) {
        return crawlers.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /**
     * The name, as the catalog spells it, of the crawler or long-tail bot a person typed as
     * {@code typed}, in any case: ours before the long tail's, an exact spelling before another.
     */
    public Optional<String> knownName(String typed) {
        for (Crawler crawler : crawlers) {
            if (crawler.name().equals(typed)) {
                return Optional.of(crawler.name());
            }
        }
        for (Crawler crawler : crawlers) {
            if (crawler.name().equalsIgnoreCase(typed)) {
                return Optional.of(crawler.name());
            }
        }
        if (longTail == null) {
            return Optional.empty();
        }
        Optional<String> listed = longTail.listedName(typed);
        if (listed.isPresent()) {
            return listed;
        }
        // a name the long tail gives by what an agent says (Doximity-Diffbot): the name of an agent that says only that
        return namer().identify(typed).map(Crawler::name).filter(typed::equalsIgnoreCase);
    }

    /** Names agents as imports do, for the names only an agent can give; made when first asked. */
    private CrawlerIdentifier namer() {
        CrawlerIdentifier identifier = namer;
        if (identifier == null) {
            identifier = new CrawlerIdentifier(this);
            namer = identifier;
        }
        return identifier;
    }

    /**
     * The names of the crawlers a person means by {@code typed}, in any case: the crawler of that
     * name, else our crawlers whose agents say it as their token: a family, whose members tell
     * themselves apart by what else the agent says ({@code Googlebot}: Googlebot Smartphone and
     * Googlebot Desktop), or one crawler's own token ({@code Naverbot}: Yeti). Empty when none.
     */
    public List<String> namesFor(String typed) {
        Optional<String> name = knownName(typed);
        if (name.isPresent()) {
            return List.of(name.get());
        }
        String token = typed.strip();
        return crawlers.stream().filter(c -> c.tokens().stream().anyMatch(token::equalsIgnoreCase)).map(Crawler::name).toList();
    }

    /** The names that hold {@code typed}, in any case, ours first: the choices to offer a person whose name matched none. */
    public List<String> namesLike(String typed) {
        String lower = typed.strip().toLowerCase(Locale.ROOT);
        if (lower.isEmpty()) {
            return List.of();
        }
        return names().stream().filter(name -> name.toLowerCase(Locale.ROOT).contains(lower)).toList();
    }

    /** Every name a hit's crawler can have: ours, then the long tail's that ours does not stand for. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        crawlers.forEach(c -> names.add(c.name()));
        if (longTail != null) {
            Set<String> ours = new HashSet<>(names);
            longTail.names().stream().filter(name -> !ours.contains(name)).forEach(names::add);
        }
        return names;
    }

    /**
     * A catalog document: {@code {"lists": [IpListSpec...], "crawlers": [Crawler...]}}, each field
     * named as the records' components. Unknown fields are ignored; a missing one is null.
     */
    private record CatalogFile(List<IpListSpec> lists, List<Crawler> crawlers) {

        static CatalogFile read(byte[] json) throws IOException {
            Map<String, Object> root = JsonDocument.object(JsonDocument.read(json));
            if (root == null) {
                throw new NotACatalog("it is not a JSON object");
            }
            List<IpListSpec> lists = objects(root, "lists", list -> new IpListSpec(text(list, "name"), text(list, "operator"),
                    text(list, "url"), texts(list, "aliases")));
            List<Crawler> crawlers = objects(root, "crawlers", crawler -> new Crawler(text(crawler, "name"),
                    text(crawler, "operator"), botType(crawler), texts(crawler, "tokens"), texts(crawler, "alsoContains"),
                    texts(crawler, "ipLists"), texts(crawler, "dnsDomains")));
            return new CatalogFile(lists, crawlers);
        }

        private interface Entry<T> {
            T from(Map<String, Object> object) throws NotACatalog;
        }

        private static <T> List<T> objects(Map<String, Object> parent, String field, Entry<T> entry) throws NotACatalog {
            Object value = parent.get(field);
            if (value == null) {
                return null;
            }
            List<?> items = JsonDocument.array(value);
            if (items == null) {
                throw new NotACatalog("\"" + field + "\" is not an array");
            }
            List<T> result = new ArrayList<>(items.size());
            for (Object item : items) {
                Map<String, Object> object = JsonDocument.object(item);
                if (object == null) {
                    throw new NotACatalog("\"" + field + "\" holds " + item + ", which is not an object");
                }
                result.add(entry.from(object));
            }
            return result;
        }

        private static String text(Map<String, Object> object, String field) throws NotACatalog {
            Object value = object.get(field);
            String text = JsonDocument.text(object, field);
            if (value != null && text == null) {
                throw new NotACatalog("\"" + field + "\" is " + value + ", not text");
            }
            return text;
        }

        private static List<String> texts(Map<String, Object> object, String field) throws NotACatalog {
            Object value = object.get(field);
            if (value == null) {
                return null;
            }
            List<?> items = JsonDocument.array(value);
            if (items == null) {
                throw new NotACatalog("\"" + field + "\" is " + value + ", not an array of text");
            }
            List<String> texts = new ArrayList<>(items.size());
            for (Object item : items) {
                if (!(item instanceof String || item instanceof Number || item instanceof Boolean)) {
                    throw new NotACatalog("\"" + field + "\" holds " + item + ", which is not text");
                }
                texts.add(item.toString());
            }
            return texts;
        }

        private static BotType botType(Map<String, Object> crawler) throws NotACatalog {
            String name = text(crawler, "botType");
            if (name == null) {
                return null;
            }
            try {
                return BotType.valueOf(name);
            } catch (IllegalArgumentException e) {
                throw new NotACatalog("botType '" + name + "' is not one of " + Arrays.toString(BotType.values()));
            }
        }
    }

    /** A JSON document that does not have the catalog's shape. */
    private static final class NotACatalog extends IOException {
        NotACatalog(String message) {
            super(message);
        }
    }
}
