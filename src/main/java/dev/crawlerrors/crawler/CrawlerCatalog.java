package dev.crawlerrors.crawler;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The crawlers this tool knows, and the published IP lists that verify them. Data, not code: the
 * built-in catalog is the {@code crawlers.json} resource.
 */
public final class CrawlerCatalog {

    private static final String BUILT_IN = "/crawlers.json";
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final List<Crawler> crawlers;
    private final Map<String, IpListSpec> lists;

    public CrawlerCatalog(List<Crawler> crawlers, List<IpListSpec> lists) {
        this.crawlers = List.copyOf(crawlers);
        Map<String, IpListSpec> byName = new LinkedHashMap<>();
        lists.forEach(list -> byName.put(list.name(), list));
        this.lists = Map.copyOf(byName);
        for (Crawler crawler : crawlers) {
            for (String list : crawler.ipLists()) {
                if (!byName.containsKey(list)) {
                    throw new IllegalArgumentException("crawler " + crawler.name() + " names IP list " + list
                            + ", which the catalog does not define");
                }
            }
        }
    }

    /** The catalog shipped in the jar. */
    public static CrawlerCatalog builtIn() {
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
        CatalogFile file = JSON.readValue(in, CatalogFile.class);
        return new CrawlerCatalog(file.crawlers(), file.lists());
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
            user = JSON.readValue(in, CatalogFile.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + " is not a crawler catalog: " + e.getOriginalMessage());
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
            return new CrawlerCatalog(List.copyOf(byName.values()), List.copyOf(allLists.values()));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage());
        }
    }

    public List<Crawler> crawlers() {
        return crawlers;
    }

    public Optional<IpListSpec> list(String name) {
        return Optional.ofNullable(lists.get(name));
    }

    public Optional<Crawler> crawler(String name) {
        return crawlers.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    private record CatalogFile(List<IpListSpec> lists, List<Crawler> crawlers) {
    }
}
