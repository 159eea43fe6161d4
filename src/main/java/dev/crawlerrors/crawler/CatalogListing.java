package dev.crawlerrors.crawler;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The crawlers a catalog knows, one row each, as {@code crawl-errors crawlers} lists them: our own
 * (built in, or from the user's catalog file), then the long tail's bots that ours does not name.
 */
public final class CatalogListing {

    /**
     * One crawler.
     *
     * @param source     where the entry comes from: {@code built in}, the user's file, or the long tail's source
     * @param verifiedBy how a hit of it is checked: {@code IP list}, {@code reverse DNS}, both, a
     *                   {@code Web Bot Auth signature}, or {@code none published}
     * @param from       the lists' names and addresses, the DNS domains and the key directories the checks use; empty if none
     */
    public record Row(String name, String operator, BotType botType, String source, String verifiedBy, String from) {
    }

    /** The source of the long tail's rows. */
    public static final String LONG_TAIL = "device-detector";

    private CatalogListing() {
    }

    /**
     * The rows of {@code catalog}. An entry of ours that differs from {@code builtIn}'s of the same
     * name (or that {@code builtIn} lacks) is attributed to {@code userSource}.
     */
    public static List<Row> rows(CrawlerCatalog catalog, CrawlerCatalog builtIn, String userSource) {
        List<Row> rows = new ArrayList<>();
        Set<String> ours = new HashSet<>();
        for (Crawler crawler : catalog.crawlers()) {
            ours.add(crawler.name());
            Optional<Crawler> shipped = builtIn.crawler(crawler.name());
            String source = shipped.isPresent() && shipped.get().equals(crawler) ? "built in" : userSource;
            rows.add(new Row(crawler.name(), crawler.operator(), crawler.botType(), source, verifiedBy(crawler), from(catalog, crawler)));
        }
        catalog.longTail().ifPresent(tail -> {
            for (String name : tail.names()) {
                if (ours.contains(name)) {
                    continue;
                }
                Crawler bot = tail.crawlerNamed(name);
                rows.add(new Row(name, bot.operator(), bot.botType(), LONG_TAIL, verifiedBy(bot), ""));
            }
        });
        return rows;
    }

    private static String verifiedBy(Crawler crawler) {
        boolean lists = !crawler.ipLists().isEmpty();
        boolean dns = !crawler.dnsDomains().isEmpty();
        String byAddress = lists && dns ? "IP list or reverse DNS" : lists ? "IP list" : dns ? "reverse DNS" : null;
        if (!crawler.signatureAgents().isEmpty()) {
            return byAddress == null ? "Web Bot Auth signature" : "Web Bot Auth signature; " + byAddress;
        }
        return byAddress == null ? "none published" : byAddress;
    }

    private static String from(CrawlerCatalog catalog, Crawler crawler) {
        List<String> parts = new ArrayList<>();
        for (String list : crawler.ipLists()) {
            parts.add(catalog.list(list).map(spec -> list + " <" + spec.url() + ">").orElse(list));
        }
        if (!crawler.dnsDomains().isEmpty()) {
            parts.add("PTR in " + String.join(", ", crawler.dnsDomains()));
        }
        for (String agent : crawler.signatureAgents()) {
            parts.add("keys at " + agent + "/.well-known/http-message-signatures-directory");
        }
        return String.join("; ", parts);
    }
}
