package dev.crawlerrors.crawler;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
