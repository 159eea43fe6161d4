package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.SignatureStoreContract;
import dev.crawlerrors.store.StoredHit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What signature verification keeps, on a real two-shard ClickHouse cluster ({@link SignatureStoreContract}),
 * and a store of schema 3 brought to 4: its hits keep their claims and verdicts, and signed claims work.
 */
@ClickHouseTest
class ClickHouseSignaturesTest {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    private ClickHouseHitStore open(String db) {
        return ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE);
    }

    @Test
    void keepsTheReadingsOfDirectories() {
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("sig_directories"))) {
            SignatureStoreContract.keepsTheReadingsOfDirectories(store);
        }
    }

    @Test
    void keepsSignaturesUntilTheyAreSettled() {
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("sig_pending"))) {
            SignatureStoreContract.keepsSignaturesUntilTheyAreSettled(store);
        }
    }

    @Test
    void givesEachSignedGroupItsOwnVerdict() {
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("sig_claims"))) {
            SignatureStoreContract.givesEachSignedGroupItsOwnVerdict(store);
        }
    }

    @Test
    void anUpgradeFromSchemaSixKeepsItsWaitingSignaturesAndKeepsSignedRequestsAsLogged() {
        String db = ClickHouseTestCluster.database("schema6");
        try (ClickHouseHitStore store = open(db)) {
            store.signatures().keepPending(List.of(SignatureStoreContract.signature("s1", 1_000)));
        }
        // as version 6 made it: a waiting signature is one checked but for its directory
        cluster.query(1, "ALTER TABLE " + db + ".signature_pending DROP COLUMN request");
        cluster.query(1, "DROP TABLE " + db + ".schema_version");
        cluster.query(1, "CREATE TABLE " + db + ".schema_version (version UInt32, applied DateTime DEFAULT now()) ENGINE = MergeTree"
                + " ORDER BY version");
        cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (6)");

        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.signatures().pending(10)).containsExactly(SignatureStoreContract.signature("s1", 1_000));
            store.signatures().keepPending(List.of(new dev.crawlerrors.store.StoredSignature("r2", "66.1.2.3",
                    "ChatGPT agent\u001fpending r2", "", "", null, "", "", 2_000, "3:GET")));
            assertThat(store.signatures().pending(10)).extracting(dev.crawlerrors.store.StoredSignature::request).containsExactly(null, "3:GET");
        }
        assertThat(cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(ClickHouseSchema.VERSION);
    }

    @Test
    void anUpgradeFromSchemaThreeKeepsTheClaimsOfTheHitsStoredBefore() {
        String db = ClickHouseTestCluster.database("schema3");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(
                    ClickHouseHitStoreTest.hit("2025-05-14T10:00:05Z", "66.249.66.1", "/a", 404, ClickHouseHitStoreTest.VERIFIED),
                    ClickHouseHitStoreTest.hit("2025-05-14T10:03:30Z", "203.0.113.9", "/c", 404, ClickHouseHitStoreTest.SPOOFED)));
        }
        // as version 3 made it: no signature column, claims of address and crawler, no signature tables
        for (int shard = 1; shard <= cluster.shards(); shard++) {
            cluster.query(shard, "DROP TABLE " + db + ".minute_counts_of_hits");
            cluster.query(shard, "CREATE MATERIALIZED VIEW " + db + ".minute_counts_of_hits TO " + db + ".minute_counts_local AS SELECT"
                    + " intDiv(ts_ms, 60000) AS minute, writer, seq, status, bot_type, crawler, cityHash64(ip, crawler) AS claim,"
                    + " count() AS hits FROM " + db + ".hits_local GROUP BY minute, writer, seq, status, bot_type, crawler, claim");
            for (String table : List.of("hits_local", "hits")) {
                cluster.query(shard, "ALTER TABLE " + db + "." + table + " MODIFY COLUMN claim UInt64 MATERIALIZED cityHash64(ip, crawler)");
                cluster.query(shard, "ALTER TABLE " + db + "." + table + " DROP COLUMN signature");
            }
        }
        for (String table : List.of("signature_directories", "signature_pending", "signature_settled")) {
            cluster.query(1, "DROP TABLE " + db + "." + table);
        }
        cluster.query(1, "DROP TABLE " + db + ".schema_version");
        cluster.query(1, "CREATE TABLE " + db + ".schema_version (version UInt32, applied DateTime DEFAULT now()) ENGINE = MergeTree"
                + " ORDER BY version");
        cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (3)");

        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url, StoredHit::verification)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("/a", "verified"));
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(1);
            SignatureStoreContract.givesEachSignedGroupItsOwnVerdict(store);
            SignatureStoreContract.keepsSignaturesUntilTheyAreSettled(store);
        }
        assertThat(cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(ClickHouseSchema.VERSION);
    }
}
