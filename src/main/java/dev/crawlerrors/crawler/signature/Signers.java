package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who signed a request, as the catalog names it: the entry whose {@code signatureAgents} holds the
 * signer's origin ({@code https://chatgpt.com} is ChatGPT agent), else a signer of its own, named
 * after its host, of type {@code fetcher_user} and no operator (whoever runs it is not known, and
 * its name, anyone's to choose, must not become a {@linkplain Crawler#family family}); a request whose signer cannot be told is the
 * {@link #unknown()} signer's. The hosts the catalog names are where directories may be fetched
 * from unless the user says otherwise ({@link #publishedHosts}).
 */
public final class Signers {

    /** The name of a signer a request does not say. */
    public static final String UNKNOWN = "unknown signer";
    /** Signers named after their host, kept at most: the names come from anyone's requests. */
    private static final int MAX_UNNAMED = 10_000;

    private final Map<String, Crawler> byOrigin = new LinkedHashMap<>();
    private final Map<String, Crawler> others = new ConcurrentHashMap<>();
    private final Crawler unknown = new Crawler(UNKNOWN, null, BotType.fetcher_user, List.of(), List.of(), List.of(), List.of(), List.of());

    public Signers(CrawlerCatalog catalog) {
        for (Crawler crawler : catalog.crawlers()) {
            for (String agent : crawler.signatureAgents()) {
                try {
                    byOrigin.putIfAbsent(SignerOrigin.parse(agent).toString(), crawler);
                } catch (SignerOrigin.InvalidException e) {
                    // a catalog entry naming no origin signs for none
                }
            }
        }
    }

    /** The crawler that signs for {@code origin}; the unknown signer's when it is null. */
    public Crawler of(SignerOrigin origin) {
        if (origin == null) {
            return unknown;
        }
        Crawler known = byOrigin.get(origin.toString());
        if (known != null) {
            return known;
        }
        Crawler other = others.get(origin.toString());
        if (other == null) {
            if (others.size() >= MAX_UNNAMED) {
                others.clear();
            }
            String name = origin.authority();
            other = new Crawler(name, null, BotType.fetcher_user, List.of(), List.of(), List.of(), List.of(), List.of(origin.toString()));
            others.put(origin.toString(), other);
        }
        return other;
    }

    public Crawler unknown() {
        return unknown;
    }

    /** The hosts of the directories the catalog names, {@code host} or {@code host:port}: the default allow-list. */
    public Set<String> publishedHosts() {
        Set<String> hosts = new LinkedHashSet<>();
        for (String origin : byOrigin.keySet()) {
            try {
                hosts.add(SignerOrigin.parse(origin).authority());
            } catch (SignerOrigin.InvalidException e) {
                throw new IllegalStateException(e);
            }
        }
        return hosts;
    }

    /** The catalog's signing agents, each once, with the origins they sign for. */
    public Map<Crawler, List<String>> signing() {
        Map<Crawler, List<String>> signing = new LinkedHashMap<>();
        byOrigin.forEach((origin, crawler) -> signing.computeIfAbsent(crawler, c -> new ArrayList<>()).add(origin));
        return signing;
    }
}
