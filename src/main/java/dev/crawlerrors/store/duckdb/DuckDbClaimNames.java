package dev.crawlerrors.store.duckdb;

import java.util.Arrays;
import java.util.List;

/**
 * The address and crawler of each claim, by its number, read from {@code verdicts} as claims are
 * first met: a URL's history keeps a hit's claim number only ({@code url_log}), and its crawler and
 * address are read from here. Claims are numbered in order and never change, so what is read once
 * is kept; an unknown number is read with every claim after the last one known.
 */
final class DuckDbClaimNames {

    private final DuckDbQuery query;
    private String[] crawlers = new String[1024];
    private String[] ips = new String[1024];
    /** Claims below this number are read. */
    private int known = 1;

    DuckDbClaimNames(DuckDbQuery query) {
        this.query = query;
    }

    /** The crawler claim {@code claim} names, or null for none. */
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
                crawlers[id] = rs.getString(2);
                ips[id] = rs.getString(3);
                known = Math.max(known, id + 1);
            }
            return null;
        });
        if (claim >= known) {
            known = Math.max(known, from); // not recorded (yet): asked again next time
        }
    }
}
