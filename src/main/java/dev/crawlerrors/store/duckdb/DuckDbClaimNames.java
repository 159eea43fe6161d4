package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The address and crawler of each claim, by its number, read from {@code verdicts} as claims are
 * first met: a URL's history keeps a hit's claim number only ({@code url_log}), and its crawler and
 * address are read from here. Claims are numbered in order and never change, so what is read once
 * is kept; an unknown number is read with every claim after the last one known. A signed claim is
 * recorded under its crawler's name and its group ({@link CrawlerHit#signedClaim}): its crawler is
 * the name alone, so that a URL's states keep one scope for each crawler, whatever its hits'
 * signatures were grouped by (a signed import whose hits each waited in a group of their own made
 * a scope for each hit), and each name is kept once.
 */
final class DuckDbClaimNames {

    private final DuckDbQuery query;
    private String[] crawlers = new String[1024];
    private String[] ips = new String[1024];
    /** Claims below this number are read. */
    private int known = 1;
    /** Each crawler's name once, as the claims share it. */
    private final Map<String, String> crawlerNames = new HashMap<>();
    /**
     * Each address once, at most {@value #ADDRESSES_KEPT} (then an address is kept as read): a signed line waiting is a
     * claim of its own, and 150,000 of one agent's few addresses held 8 MB of equal strings in a serve.
     */
    private final Map<String, String> addresses = new HashMap<>();
    private static final int ADDRESSES_KEPT = 65_536;

    DuckDbClaimNames(DuckDbQuery query) {
        this.query = query;
    }

    /** The name of the crawler claim {@code claim} names (without a signed claim's group), or null for none. */
    synchronized String crawler(int claim) {
        ensure(claim);
        return claim > 0 && claim < known ? crawlers[claim] : null;
    }

    /** The address of claim {@code claim}, or null for none. */
    synchronized String ip(int claim) {
        ensure(claim);
        return claim > 0 && claim < known ? ips[claim] : null;
    }

    private void ensure(int claim) {
        if (claim < known) {
            return;
        }
        int from = known;
        query.run("SELECT claim_id, crawler, ip FROM verdicts WHERE claim_id >= ?", List.of(from), rs -> {
            while (rs.next()) {
                int id = rs.getInt(1);
                if (id >= crawlers.length) {
                    int size = Math.max(id + 1, crawlers.length * 2);
                    crawlers = Arrays.copyOf(crawlers, size);
                    ips = Arrays.copyOf(ips, size);
                }
                String crawler = rs.getString(2);
                crawlers[id] = crawler == null ? null : crawlerNames.computeIfAbsent(CrawlerHit.crawlerOf(crawler), name -> name);
                ips[id] = address(rs.getString(3));
                known = Math.max(known, id + 1);
            }
            return null;
        });
        if (claim >= known) {
            known = Math.max(known, from); // not recorded (yet): asked again next time
        }
    }

    private String address(String ip) {
        String kept = addresses.get(ip);
        if (kept != null) {
            return kept;
        }
        if (ip != null && addresses.size() < ADDRESSES_KEPT) {
            addresses.put(ip, ip);
        }
        return ip;
    }
}
