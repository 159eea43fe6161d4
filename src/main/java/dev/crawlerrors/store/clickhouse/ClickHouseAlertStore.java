package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.StoredAlert;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The alerts' state in a ClickHouse store, on its first shard (a few rows, read by one serve):
 * {@code alerts}, a row for each state an alert was in (an evaluation's changes in one insert), the latest (by {@code updated_ms}) its
 * state, read with {@code argMax} as merges run when they will; {@code alert_shapes}, the URL
 * shapes known to have erred, each with the first time it was seen (the smallest wins), and under
 * the empty shape, which no URL has, the hit they were read through (the largest wins). Made when
 * alerts are first used.
 */
final class ClickHouseAlertStore implements AlertStore {

    /** The shape under which {@link #shapesThrough()} is kept: no URL's shape is empty. */
    private static final String THROUGH = "";

    private final ClickHouseHttp http;
    private final URI server;
    private final String db;
    private boolean made;

    ClickHouseAlertStore(ClickHouseHttp http, URI server, String db) {
        this.http = http;
        this.server = server;
        this.db = db;
    }

    private synchronized void make() {
        if (made) {
            return;
        }
        http.execute(server, """
                CREATE TABLE IF NOT EXISTS %1$s.alerts (
                  key String,
                  firing UInt8,
                  starts_ms Int64,
                  ends_ms Int64,
                  updated_ms Int64,
                  details String
                ) ENGINE = ReplacingMergeTree(updated_ms)
                ORDER BY key""".formatted(db));
        http.execute(server, """
                CREATE TABLE IF NOT EXISTS %1$s.alert_shapes (
                  shape String,
                  first_seen_ms Int64
                ) ENGINE = MergeTree
                ORDER BY shape""".formatted(db));
        made = true;
    }

    @Override
    public synchronized List<StoredAlert> alerts(int limit) {
        make();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(server, "SELECT key, argMax(firing, updated_ms),"
                + " argMax(starts_ms, updated_ms), argMax(ends_ms, updated_ms), max(updated_ms) AS updated, argMax(details, updated_ms)"
                + " FROM " + db + ".alerts GROUP BY key ORDER BY updated DESC, key LIMIT " + limit));
        List<StoredAlert> alerts = new ArrayList<>();
        while (rows.nextRow()) {
            alerts.add(new StoredAlert(rows.text(), rows.number() == 1, rows.number(), rows.number(), rows.number(), rows.text()));
        }
        return alerts;
    }

    @Override
    public synchronized void save(List<StoredAlert> alerts) {
        if (alerts.isEmpty()) {
            return;
        }
        make();
        StringBuilder values = new StringBuilder();
        for (StoredAlert alert : alerts) {
            values.append(values.isEmpty() ? "" : ", ").append('(').append(ClickHouseSql.quote(alert.key())).append(", ")
                    .append(alert.firing() ? 1 : 0).append(", ").append(alert.startsMillis()).append(", ").append(alert.endsMillis())
                    .append(", ").append(alert.updatedMillis()).append(", ").append(ClickHouseSql.quote(alert.details())).append(')');
        }
        http.execute(server, "INSERT INTO " + db + ".alerts (key, firing, starts_ms, ends_ms, updated_ms, details) VALUES " + values);
    }

    @Override
    public synchronized void forgetResolved(long endedBeforeMillis) {
        make();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(server, "SELECT key FROM " + db + ".alerts GROUP BY key"
                + " HAVING argMax(firing, updated_ms) = 0 AND argMax(ends_ms, updated_ms) < " + endedBeforeMillis));
        List<String> keys = new ArrayList<>();
        while (rows.nextRow()) {
            keys.add(rows.text());
        }
        if (!keys.isEmpty()) {
            // every row of those keys: an alert's older rows must not stand for it once its latest is gone
            http.execute(server, "ALTER TABLE " + db + ".alerts DELETE WHERE key IN (" + ClickHouseSql.quoted(keys) + ")");
        }
    }

    @Override
    public synchronized Map<String, Long> errorShapes() {
        make();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(server, "SELECT shape, min(first_seen_ms) FROM " + db
                + ".alert_shapes WHERE shape != '' GROUP BY shape"));
        Map<String, Long> shapes = new HashMap<>();
        while (rows.nextRow()) {
            shapes.put(rows.text(), rows.number());
        }
        return shapes;
    }

    @Override
    public synchronized void addErrorShapes(Map<String, Long> shapes) {
        if (shapes.isEmpty()) {
            return;
        }
        make();
        StringBuilder values = new StringBuilder();
        for (Map.Entry<String, Long> shape : shapes.entrySet()) {
            if (shape.getKey().isEmpty()) {
                continue;
            }
            values.append(values.isEmpty() ? "" : ", ").append('(').append(ClickHouseSql.quote(shape.getKey())).append(", ")
                    .append(shape.getValue()).append(')');
        }
        if (!values.isEmpty()) {
            http.execute(server, "INSERT INTO " + db + ".alert_shapes (shape, first_seen_ms) VALUES " + values);
        }
    }

    @Override
    public synchronized long shapesThrough() {
        make();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(server, "SELECT max(first_seen_ms) FROM " + db
                + ".alert_shapes WHERE shape = " + ClickHouseSql.quote(THROUGH)));
        return rows.nextRow() ? rows.number() : 0;
    }

    @Override
    public synchronized void shapesThrough(long hits) {
        make();
        http.execute(server, "INSERT INTO " + db + ".alert_shapes (shape, first_seen_ms) VALUES (" + ClickHouseSql.quote(THROUGH) + ", "
                + hits + ")");
    }
}
