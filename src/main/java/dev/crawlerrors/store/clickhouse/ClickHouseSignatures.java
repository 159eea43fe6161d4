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
                  request Nullable(String),
                  form_id Nullable(String)
                ) ENGINE = ReplacingMergeTree
                ORDER BY id""".formatted(db));
        tables.put("signature_forms", """
                CREATE TABLE IF NOT EXISTS %1$s.signature_forms (
                  id String,
                  form String
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
        addColumn(http, meta, db, "request", "kept");
    }

    /**
     * Version 10 on the first shard: a signed request kept as logged names the form its signer sends
     * alike on every request ({@code form_id}, {@code StoredSignature#form}, kept once in {@code
     * signature_forms}), NULL in the rows kept before, which hold their whole request. Safe to run
     * twice, and from two processes at once.
     */
    static void addForm(ClickHouseHttp http, java.net.URI meta, String db) {
        addColumn(http, meta, db, "form_id", "request");
    }

    private static void addColumn(ClickHouseHttp http, java.net.URI meta, String db, String column, String after) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT count() FROM system.columns WHERE database = "
                + ClickHouseSql.quote(db) + " AND table = 'signature_pending' AND name = " + ClickHouseSql.quote(column)));
        if (rows.nextRow() && rows.number() > 0) {
            return;
        }
        try {
            http.execute(meta, "ALTER TABLE " + db + ".signature_pending ADD COLUMN " + column + " Nullable(String) AFTER " + after);
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

    /** The forms this store kept, or found kept: a signer's form is kept once. */
    private final java.util.Set<String> keptForms = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public void keepPending(List<StoredSignature> signatures) {
        if (signatures.isEmpty()) {
            return;
        }
        keepForms(signatures);
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
            rows.tab();
            if (s.formId() == null) {
                rows.nul();
            } else {
                rows.field(s.formId());
            }
            rows.endRow();
        }
        ClickHouseHttp.await(http.insert(cluster.meta(), db + ".signature_pending (id, ip, claim_crawler, origin, keyid, alg, base, signature,"
                + " request_ms, request, form_id)", rows));
    }

    /** Keeps the forms of {@code signatures} not kept yet, before the rows that name them (a form kept twice is one: the table replaces). */
    private void keepForms(List<StoredSignature> signatures) {
        ClickHouseTsv.Writer rows = null;
        java.util.Set<String> adding = new java.util.HashSet<>();
        for (StoredSignature s : signatures) {
            if (s.formId() != null && !keptForms.contains(s.formId()) && adding.add(s.formId())) {
                if (rows == null) {
                    rows = new ClickHouseTsv.Writer(1024);
                }
                rows.field(s.formId()).tab().field(s.form()).endRow();
            }
        }
        if (rows != null) {
            ClickHouseHttp.await(http.insert(cluster.meta(), db + ".signature_forms (id, form)", rows));
            keptForms.addAll(adding);
        }
    }

    @Override
    public List<StoredSignature> pending(int max) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT id, any(ip), any(claim_crawler), any(origin),"
                + " any(keyid), any(alg), any(base), any(signature), min(request_ms) AS at, any(request), any(form_id)" + WAITING.formatted(db)
                + " GROUP BY id ORDER BY at, id LIMIT " + Math.max(0, max)));
        List<StoredSignature> signatures = new ArrayList<>();
        boolean formed = false;
        while (rows.nextRow()) {
            StoredSignature s = new StoredSignature(rows.text(), rows.text(), rows.text(), rows.text(), rows.text(), rows.text(), rows.text(),
                    rows.text(), rows.number(), rows.text(), rows.text(), null);
            formed |= s.formId() != null;
            signatures.add(s);
        }
        if (!formed) {
            return signatures;
        }
        // the forms, few (one a signer and key): read once for the rows that name them
        Map<String, String> forms = new java.util.HashMap<>();
        ClickHouseTsv.Reader kept = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT id, any(form) FROM " + db
                + ".signature_forms WHERE id IN (SELECT DISTINCT form_id" + WAITING.formatted(db) + ") GROUP BY id"));
        while (kept.nextRow()) {
            forms.put(kept.text(), kept.text());
        }
        List<StoredSignature> formedRows = new ArrayList<>(signatures.size());
        for (StoredSignature s : signatures) {
            formedRows.add(s.formId() == null ? s : new StoredSignature(s.id(), s.ip(), s.claimCrawler(), s.origin(), s.keyid(), s.alg(),
                    s.base(), s.signature(), s.requestMillis(), s.request(), s.formId(), forms.get(s.formId())));
        }
        return formedRows;
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
