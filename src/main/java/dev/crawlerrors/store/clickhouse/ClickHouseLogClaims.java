package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.PositionMovedException;
import java.net.URI;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A log's position recorded by compare-and-set on ClickHouse, where several processes write and no
 * statement compares and inserts at once. Before a batch is written, each log it moves on is
 * <i>claimed</i>, once its rows are sent and just before its commit: a row in {@code log_claims} on
 * the first shard names the log and the position its lines start from. Then the claims on those
 * positions and the logs' committed positions are read.
 * A log is the batch's only when the store has it where its lines start and no other live claim
 * names that position: of two writers that claim one position at once, each sees the other's
 * claim (reads there see every insert that landed before them), so at most one goes on, and a
 * writer that claims later sees the first's claim or its commit. A refused log's claim is withdrawn
 * and its lines taken out of the batch; its reader reads on from where the store has the log.
 *
 * <p>A claim lives {@value #CLAIM_SECONDS} s: ClickHouse itself refuses a commit that carries an older
 * one ({@code throwIf} in a column of {@code commits}), so a claim left by a killed writer holds the
 * position up for {@value #EXPIRY_SECONDS} s at most, after which others take it as gone.
 */
final class ClickHouseLogClaims {

    /**
     * How long after its claim a batch may commit, by the first shard's clock: a claim is made once
     * the batch's rows are sent, and its commit follows after two reads.
     */
    static final int CLAIM_SECONDS = 10;
    /** The age at which a claim that was neither committed nor withdrawn is taken as gone: its commit can no longer land. */
    static final int EXPIRY_SECONDS = CLAIM_SECONDS + 5;
    private static final String COLUMNS = "(fingerprint, from_bytes, claim, withdrawn)";

    private final ClickHouseHttp http;
    private final URI meta;
    private final String db;

    ClickHouseLogClaims(ClickHouseHttp http, URI meta, String db) {
        this.http = http;
        this.meta = meta;
        this.db = db;
    }

    /**
     * Claims the logs of {@code batch} and takes out of it those another writer has moved on or
     * claims: returned with the hits taken out, where this writer had them stored up to, and where
     * the store has them. The claim stays in the batch until it is committed or {@linkplain
     * #withdraw withdrawn}.
     */
    List<PositionMovedException.Refused> claim(ClickHouseBatch batch) {
        batch.claim = 0;
        batch.claimed.clear();
        if (batch.from.isEmpty()) {
            return List.of();
        }
        long claim = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        List<String> moving = moving(batch);
        if (!moving.isEmpty()) {
            ClickHouseHttp.await(http.insert(meta, db + ".log_claims " + COLUMNS, rows(batch, moving, claim, false)));
            batch.claim = claim;
        }
        Map<String, SourceProgress> stored = stored(batch);
        Set<String> refused = new HashSet<>();
        for (Map.Entry<String, SourceProgress> log : batch.from.entrySet()) {
            if (!PositionMovedException.samePlace(log.getValue(), stored.get(log.getKey()))) {
                refused.add(log.getKey());
            }
        }
        if (!moving.isEmpty()) {
            refused.addAll(claimedElsewhere(batch, claim));
            List<String> withdrawn = moving.stream().filter(refused::contains).toList();
            if (!withdrawn.isEmpty()) {
                ClickHouseHttp.await(http.insert(meta, db + ".log_claims " + COLUMNS, rows(batch, withdrawn, claim, true)));
            }
        }
        List<PositionMovedException.Refused> out = new ArrayList<>();
        for (String key : refused) {
            out.add(new PositionMovedException.Refused(key, batch.from.get(key), stored.get(key), batch.hitsOf(key)));
        }
        batch.drop(refused);
        return out;
    }

    /** Withdraws the claim the batch holds, which it will not commit: claimed again, if sent again. */
    void withdraw(ClickHouseBatch batch) {
        if (batch.claim != 0) {
            List<String> moving = moving(batch);
            if (!moving.isEmpty()) {
                ClickHouseHttp.await(http.insert(meta, db + ".log_claims " + COLUMNS, rows(batch, moving, batch.claim, true)));
            }
            batch.claim = 0;
            batch.claimed.clear();
        }
    }

    /** {@link #withdraw}, if the server takes it: else the claim is gone within {@value #EXPIRY_SECONDS} s. */
    void withdrawQuietly(ClickHouseBatch batch, RuntimeException failure) {
        try {
            withdraw(batch);
        } catch (RuntimeException again) {
            failure.addSuppressed(again);
            batch.claim = 0;
            batch.claimed.clear();
        }
    }

    /** The batch's logs it moves on: a file's stamp recorded where the log is moves nothing, and claims nothing. */
    private static List<String> moving(ClickHouseBatch batch) {
        List<String> moving = new ArrayList<>();
        for (Map.Entry<String, SourceProgress> log : batch.from.entrySet()) {
            if (!PositionMovedException.samePlace(batch.progress.get(log.getKey()), log.getValue())) {
                moving.add(log.getKey());
            }
        }
        return moving;
    }

    /** Where the store has the batch's logs, as committed by every writer; a log it has none of is not there. */
    private Map<String, SourceProgress> stored(ClickHouseBatch batch) {
        Map<String, SourceProgress> stored = new HashMap<>();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT fingerprint, argMax(name, bytes), max(bytes),"
                + " argMax(lines, bytes) FROM " + db + ".commits WHERE fingerprint IN (" + ClickHouseSql.quoted(batch.from.keySet())
                + ") GROUP BY fingerprint"));
        while (rows.nextRow()) {
            String key = rows.text();
            stored.put(key, new SourceProgress(key, rows.text(), rows.number(), rows.number()));
        }
        return stored;
    }

    /**
     * The logs whose position another live claim names too (neither withdrawn nor past its life);
     * for the others, notes in the batch when this claim was made.
     */
    private Set<String> claimedElsewhere(ClickHouseBatch batch, long claim) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT fingerprint, claim, max(withdrawn),"
                + " toUInt32(min(made)), toUInt32(now()) FROM " + db + ".log_claims WHERE (fingerprint, from_bytes) IN (SELECT fingerprint,"
                + " from_bytes FROM " + db + ".log_claims WHERE claim = " + ClickHouseSql.unsigned(claim) + ") GROUP BY fingerprint, claim"));
        Set<String> elsewhere = new HashSet<>();
        Map<String, Long> made = new LinkedHashMap<>();
        while (rows.nextRow()) {
            String key = rows.text();
            long by = rows.unsigned();
            boolean withdrawn = rows.number() == 1;
            long at = rows.number();
            long now = rows.number();
            if (by == claim) {
                made.put(key, at);
            } else if (!withdrawn && now - at < EXPIRY_SECONDS) {
                elsewhere.add(key);
            }
        }
        made.forEach((key, at) -> {
            if (!elsewhere.contains(key)) {
                batch.claimed.put(key, at);
            }
        });
        return elsewhere;
    }

    private static ClickHouseTsv.Writer rows(ClickHouseBatch batch, List<String> keys, long claim, boolean withdrawn) {
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(keys.size() * 96);
        for (String key : keys) {
            rows.field(key).tab().field(batch.from.get(key).bytes()).tab().unsigned(claim).tab().field(withdrawn ? 1 : 0).endRow();
        }
        return rows;
    }

    /** Drops the days of claims older than {@code days}: each was settled or gone long before. */
    void dropOld(int days) {
        String oldest = LocalDate.now(ZoneOffset.UTC).minusDays(days).format(DateTimeFormatter.BASIC_ISO_DATE);
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT DISTINCT partition FROM system.parts WHERE database = "
                + ClickHouseSql.quote(db) + " AND table = 'log_claims' AND active AND partition < " + ClickHouseSql.quote(oldest)));
        while (rows.nextRow()) {
            String partition = rows.text();
            if (partition.matches("[0-9]{8}")) {
                http.execute(meta, "ALTER TABLE " + db + ".log_claims DROP PARTITION " + partition);
            }
        }
    }
}
