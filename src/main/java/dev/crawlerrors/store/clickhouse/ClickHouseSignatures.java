package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StoredDirectory;
import dev.crawlerrors.store.StoredSignature;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What signature verification keeps, on the first shard (it is small, and every process asks
 * there): {@code signature_directories}, every reading of a signer's key directory, and the
 * signatures waiting for one, as ClickHouse keeps what changes, by appending:
 * {@code signature_pending} holds each once kept, {@code signature_settled} each once checked
 * again, and a signature waits while it is in the first and not the second.
 */
final class ClickHouseSignatures implements SignatureStore {

    private static final String WAITING = " FROM %1$s.signature_pending WHERE id NOT IN (SELECT id FROM %1$s.signature_settled)";

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;

    ClickHouseSignatures(ClickHouseHttp http, ClickHouseCluster cluster, String db) {
        this.http = http;
        this.cluster = cluster;
        this.db = db;
    }

    /** The tables, as {@link ClickHouseSchema} makes them on the first shard. */
    static void tables(Map<String, String> tables, String db) {
        tables.put("signature_directories", """
                CREATE TABLE IF NOT EXISTS %1$s.signature_directories (
                  origin String,
                  fetched_ms Int64,
                  source String,
                  jwks String,
                  proof String,
                  recorded DateTime DEFAULT now()
                ) ENGINE = MergeTree
                ORDER BY (origin, fetched_ms)""".formatted(db));
        tables.put("signature_pending", """
                CREATE TABLE IF NOT EXISTS %1$s.signature_pending (
                  id String,
                  ip String,
                  claim_crawler String,
                  origin String,
                  keyid String,
                  alg Nullable(String),
                  base String,
                  signature String,
                  request_ms Int64,
                  kept DateTime DEFAULT now(),
                  request Nullable(String)
                ) ENGINE = ReplacingMergeTree
                ORDER BY id""".formatted(db));
        tables.put("signature_settled", """
                CREATE TABLE IF NOT EXISTS %1$s.signature_settled (
                  id String,
                  settled DateTime DEFAULT now()
                ) ENGINE = MergeTree
                ORDER BY id""".formatted(db));
    }

    /**
     * Version 7 on the first shard: a waiting signature may be a signed request as logged
     * ({@code request}, {@code StoredSignature#request}), NULL in the rows kept before. Safe to run
     * twice, and from two processes at once.
     */
    static void addRequest(ClickHouseHttp http, java.net.URI meta, String db) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT count() FROM system.columns WHERE database = "
                + ClickHouseSql.quote(db) + " AND table = 'signature_pending' AND name = 'request'"));
        if (rows.nextRow() && rows.number() > 0) {
            return;
        }
        try {
            http.execute(meta, "ALTER TABLE " + db + ".signature_pending ADD COLUMN request Nullable(String) AFTER kept");
        } catch (ClickHouseException e) {
            if (e.code() != ClickHouseException.DUPLICATE_COLUMN) {
                throw new dev.crawlerrors.store.StoreException("cannot bring the store's tables on ClickHouse at " + meta
                        + " to schema " + ClickHouseSchema.VERSION + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void keepDirectory(StoredDirectory reading) {
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(reading.json().length() + 256);
        rows.field(reading.origin()).tab().field(reading.fetchedMillis()).tab().field(reading.source()).tab().field(reading.json()).tab()
                .field(reading.proof()).endRow();
        ClickHouseHttp.await(http.insert(cluster.meta(), db + ".signature_directories (origin, fetched_ms, source, jwks, proof)", rows));
    }

    @Override
    public List<StoredDirectory> directories() {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT origin, fetched_ms, source, jwks, proof FROM "
                + db + ".signature_directories ORDER BY fetched_ms, origin"));
        List<StoredDirectory> readings = new ArrayList<>();
        while (rows.nextRow()) {
            readings.add(new StoredDirectory(rows.text(), rows.number(), rows.text(), rows.text(), rows.text()));
        }
        return readings;
    }

    @Override
    public void keepPending(List<StoredSignature> signatures) {
        if (signatures.isEmpty()) {
            return;
        }
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(signatures.size() * 512);
        for (StoredSignature s : signatures) {
            rows.field(s.id()).tab().field(s.ip()).tab().field(s.claimCrawler()).tab().field(s.origin()).tab().field(s.keyid()).tab();
            if (s.alg() == null) {
                rows.nul();
            } else {
                rows.field(s.alg());
            }
            rows.tab().field(s.base()).tab().field(s.signature()).tab().field(s.requestMillis()).tab();
            if (s.request() == null) {
                rows.nul();
            } else {
                rows.field(s.request());
            }
            rows.endRow();
        }
        ClickHouseHttp.await(http.insert(cluster.meta(), db + ".signature_pending (id, ip, claim_crawler, origin, keyid, alg, base, signature,"
                + " request_ms, request)", rows));
    }

    @Override
    public List<StoredSignature> pending(int max) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT id, any(ip), any(claim_crawler), any(origin),"
                + " any(keyid), any(alg), any(base), any(signature), min(request_ms) AS at, any(request)" + WAITING.formatted(db)
                + " GROUP BY id ORDER BY at, id LIMIT " + Math.max(0, max)));
        List<StoredSignature> signatures = new ArrayList<>();
        while (rows.nextRow()) {
            signatures.add(new StoredSignature(rows.text(), rows.text(), rows.text(), rows.text(), rows.text(), rows.text(), rows.text(),
                    rows.text(), rows.number(), rows.text()));
        }
        return signatures;
    }

    @Override
    public long pendingCount() {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT uniqExact(id)" + WAITING.formatted(db)));
        return rows.nextRow() ? rows.number() : 0;
    }

    @Override
    public void settled(Collection<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(ids.size() * 32);
        for (String id : ids) {
            rows.field(id).endRow();
        }
        ClickHouseHttp.await(http.insert(cluster.meta(), db + ".signature_settled (id)", rows));
    }
}
