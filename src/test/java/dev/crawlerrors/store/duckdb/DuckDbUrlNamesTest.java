package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.UrlKey;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** URLs' names by number from memory, as {@code url_names} has them, and from the table beyond memory's bound. */
class DuckDbUrlNamesTest {

    private DuckDBConnection connection;
    private DuckDbQuery query;

    @AfterEach
    void close() throws Exception {
        if (query != null) {
            query.close();
        }
        if (connection != null) {
            connection.close();
        }
    }

    /** {@code count} names over three hosts, some of them long, escaped or not ASCII, written to {@code url_names}. */
    private Map<Long, UrlKey> stored(int count) throws Exception {
        connection = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE url_names (k BIGINT NOT NULL, host VARCHAR NOT NULL, url VARCHAR NOT NULL)");
        }
        Map<Long, UrlKey> names = new HashMap<>();
        for (int i = 0; i < count; i++) {
            String host = List.of("", "a.example", "b.example").get(i % 3);
            String url = switch (i % 4) {
                case 0 -> "/antwerpen/straat-" + i;
                case 1 -> "/stra\u00dfe/\u00e9t\u00e9/" + i + "?q=\u2603";
                case 2 -> "/long/" + "x".repeat(300 + i % 200);
                default -> "/<script>\"" + i + "\t";
            };
            names.put(UrlKey.number(host, url), new UrlKey(host, url));
        }
        write(names);
        query = new DuckDbQuery(connection, new DuckDbFailures("/memory"), 2);
        return names;
    }

    private void write(Map<Long, UrlKey> names) throws Exception {
        try (var appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "url_names")) {
            for (Map.Entry<Long, UrlKey> name : names.entrySet()) {
                appender.beginRow();
                appender.append(name.getKey());
                appender.append(name.getValue().host());
                appender.append(name.getValue().url());
                appender.endRow();
            }
        }
    }

    @Test
    void namesFromMemoryAsTheTableHasThem() throws Exception {
        Map<Long, UrlKey> names = stored(5000);
        DuckDbUrlNames urlNames = new DuckDbUrlNames(query, DuckDbUrlNames.DEFAULT_BYTES);
        List<Long> asked = new ArrayList<>(names.keySet()).subList(0, 700);
        List<Long> withUnknown = new ArrayList<>(asked);
        withUnknown.add(-5L);
        withUnknown.add(UrlKey.number("a.example", "/never/seen"));

        Map<Long, UrlKey> first = urlNames.names(withUnknown); // starts the fill, read from the table
        await(urlNames::filled);
        Map<Long, UrlKey> fromMemory = urlNames.names(withUnknown);

        Map<Long, UrlKey> expected = new HashMap<>();
        asked.forEach(k -> expected.put(k, names.get(k)));
        assertThat(first).isEqualTo(expected);
        assertThat(fromMemory).isEqualTo(expected);
        assertThat(urlNames.names(names.keySet())).isEqualTo(names);
        assertThat(urlNames.names(List.of(asked.get(3)))).containsExactly(Map.entry(asked.get(3), names.get(asked.get(3))));
        assertThat(urlNames.bytes()).isLessThanOrEqualTo(DuckDbUrlNames.DEFAULT_BYTES);
    }

    @Test
    void namesBeyondTheBoundAreReadFromTheTable() throws Exception {
        Map<Long, UrlKey> names = stored(20_000);
        long bound = 256 << 10;
        DuckDbUrlNames urlNames = new DuckDbUrlNames(query, bound);
        urlNames.names(List.of(1L));
        await(urlNames::filled);

        assertThat(urlNames.kept()).isBetween(1, names.size() - 1);
        assertThat(urlNames.bytes()).isLessThanOrEqualTo(bound);
        assertThat(urlNames.names(names.keySet())).isEqualTo(names);
    }

    @Test
    void aNameWrittenAfterTheFillIsFoundAndKept() throws Exception {
        Map<Long, UrlKey> names = stored(100);
        DuckDbUrlNames urlNames = new DuckDbUrlNames(query, DuckDbUrlNames.DEFAULT_BYTES);
        urlNames.names(List.of(1L));
        await(urlNames::filled);
        UrlKey later = new UrlKey("c.example", "/neu/\u00fc");
        write(Map.of(later.number(), later));

        assertThat(urlNames.names(List.of(later.number(), names.keySet().iterator().next())))
                .containsEntry(later.number(), later).hasSize(2);
        assertThat(urlNames.kept()).isEqualTo(names.size() + 1);
    }

    private static void await(BooleanSupplier done) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 60 s for the names to be read into memory").isLessThan(end);
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
