package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.LongSet;
import dev.crawlerrors.store.UrlHeads;
import dev.crawlerrors.store.UrlKey;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBFunctions;

/**
 * What the writer adds for the URLs' states beside each batch of hits, in the batch's transaction:
 * each hit as its URL's history keeps it ({@code url_tail}: the URL's number, time, hit number,
 * status, claim and bot type, narrow and without text, until a fold sorts it into {@code url_log}),
 * and the name of each URL the store meets for the first time ({@code url_names}). Each hit again in
 * time order ({@code url_times}) with the number of its URL's host and head ({@code url_heads},
 * numbered as the store meets them), so that a view of a time range and a prefix reads numbers. On
 * the writer's thread only. The numbers of the URLs named are kept in memory (16 bytes a URL at
 * most), and the heads' numbers, read from the store when first needed.
 */
final class DuckDbUrlTail {

    private static final AtomicLong FUNCTIONS = new AtomicLong();
    /** A bot type as the histories keep it: its place in {@link BotType}, whose types are only ever added at the end. */
    static final BotType[] BOT_TYPES = BotType.values();

    private final DuckDBConnection connection;
    private final DuckDbUrlBatchSource source = new DuckDbUrlBatchSource();
    private final String function;
    private PreparedStatement insert;
    private PreparedStatement insertTimes;
    /** The numbers of the heads stored, by host and head ({@code host + '\0' + head}); null until read. */
    private java.util.Map<String, Integer> heads;
    /** The numbers of the URLs whose names are stored; null until read. */
    private LongSet named;
    private String[] hosts = new String[0];
    private String[] urls = new String[0];

    /** Registers the table function the writes read, outside any transaction (a rolled back one takes it along). */
    DuckDbUrlTail(DuckDBConnection connection) throws SQLException {
        this.connection = connection;
        this.function = "crawl_errors_urls_" + FUNCTIONS.incrementAndGet();
        DuckDBFunctions.tableFunction().withName(function).withFunction(source).register(connection);
    }

    /** Writes the tail rows and new names of a batch of hits ({@code claims}: their claim numbers; the first numbered {@code firstId}). */
    void write(List<CrawlerHit> hits, int[] claims, long firstId) throws SQLException {
        int n = hits.size();
        room(n);
        for (int i = 0; i < n; i++) {
            CrawlerHit crawlerHit = hits.get(i);
            Hit hit = crawlerHit.hit();
            String host = hit.host() == null ? "" : hit.host();
            source.keys[i] = UrlKey.number(host, hit.url());
            source.millis[i] = hit.epochMillis();
            source.ids[i] = firstId + i;
            source.statuses[i] = hit.status();
            source.claims[i] = claims[i];
            source.botTypes[i] = crawlerHit.crawler().botType().ordinal();
            hosts[i] = host;
            urls[i] = hit.url();
        }
        flush(n);
    }

    /**
     * Writes the tail rows and new names of hits stored before the store kept URL states: each row
     * its number, time, status, claim, bot type's name, host and URL.
     */
    void writeOld(List<Object[]> rows) throws SQLException {
        int n = rows.size();
        if (n == 0) {
            return;
        }
        room(n);
        for (int i = 0; i < n; i++) {
            Object[] row = rows.get(i);
            source.ids[i] = (Long) row[0];
            source.millis[i] = (Long) row[1];
            source.statuses[i] = (Integer) row[2];
            source.claims[i] = (Integer) row[3];
            source.botTypes[i] = botType((String) row[4]).ordinal();
            hosts[i] = (String) row[5];
            urls[i] = (String) row[6];
            source.keys[i] = UrlKey.number(hosts[i], urls[i]);
        }
        flush(n);
    }

    static BotType botType(String name) {
        try {
            return BotType.valueOf(name);
        } catch (IllegalArgumentException e) {
            return BotType.crawler_other;
        }
    }

    private void room(int n) {
        source.size(n);
        if (hosts.length < n) {
            hosts = new String[n];
            urls = new String[n];
        }
    }

    private void flush(int n) throws SQLException {
        source.rows = n;
        numberHeads(n);
        if (insert == null) {
            insert = connection.prepareStatement("INSERT INTO url_tail SELECT k, t, i, s::SMALLINT, c::INTEGER, b::SMALLINT FROM "
                    + function + "()");
            insertTimes = connection.prepareStatement("INSERT INTO url_times SELECT t, k, i, s::SMALLINT, c::INTEGER, b::SMALLINT,"
                    + " h::INTEGER FROM " + function + "()");
        }
        insert.execute();
        insertTimes.execute();
        if (named == null) {
            named = new LongSet();
            try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT k FROM url_names")) {
                while (rs.next()) {
                    named.add(rs.getLong(1));
                }
            }
        }
        DuckDBAppender names = null;
        try {
            for (int i = 0; i < n; i++) {
                if (named.add(source.keys[i])) {
                    if (names == null) {
                        names = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "url_names");
                    }
                    names.beginRow().append(source.keys[i]).append(hosts[i]).append(urls[i]).endRow();
                }
                hosts[i] = null;
                urls[i] = null;
            }
        } finally {
            if (names != null) {
                names.close();
            }
        }
    }

    /** Sets each row's head number, numbering and storing the heads met for the first time. */
    private void numberHeads(int n) throws SQLException {
        if (heads == null) {
            heads = new java.util.HashMap<>();
            try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT hd, host, head FROM url_heads")) {
                while (rs.next()) {
                    heads.put(rs.getString(2) + '\0' + rs.getString(3), rs.getInt(1));
                }
            }
        }
        DuckDBAppender added = null;
        try {
            for (int i = 0; i < n; i++) {
                String head = UrlHeads.of(urls[i]);
                String key = hosts[i] + '\0' + head;
                Integer number = heads.get(key);
                if (number == null) {
                    number = heads.size() + 1;
                    heads.put(key, number);
                    if (added == null) {
                        added = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "url_heads");
                    }
                    added.beginRow().append(number.intValue()).append(hosts[i]).append(head).endRow();
                }
                source.heads[i] = number;
            }
        } finally {
            if (added != null) {
                added.close();
            }
        }
    }

    /** After a rollback: what is named and which heads are numbered is read again, and the statements prepared again. */
    void forget() {
        named = null;
        heads = null;
        closeStatement();
    }

    void closeStatement() {
        for (PreparedStatement statement : new PreparedStatement[] {insert, insertTimes}) {
            try {
                if (statement != null) {
                    statement.close();
                }
            } catch (SQLException e) {
                // closing anyway
            }
        }
        insert = null;
        insertTimes = null;
    }
}
