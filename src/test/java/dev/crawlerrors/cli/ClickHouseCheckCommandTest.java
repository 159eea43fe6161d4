package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code crawl-errors check --db clickhouse://...} against the two-shard test cluster. */
@ClickHouseTest
class ClickHouseCheckCommandTest {

    private static final Crawler GOOGLEBOT = new Crawler("Googlebot", "Google", BotType.crawler_search, List.of("Googlebot"), null, null,
            null);

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    /** A store of three hits from three addresses (over both shards) and one log. */
    private String store(String name) {
        String db = ClickHouseTestCluster.database(name);
        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.IMPORT)) {
            List<CrawlerHit> hits = List.of(hit("66.249.66.1", "/a"), hit("66.249.66.2", "/b"), hit("66.249.66.3", "/c"));
            store.writer().append(hits, new SourceProgress("f1", "access.log", 0, 0), new SourceProgress("f1", "access.log", 300, 3));
        }
        return db;
    }

    private static CrawlerHit hit(String ip, String url) {
        return new CrawlerHit(new Hit(1_747_216_800_000L, 0, ip, "GET", url, 404, 0, null, "Googlebot", Double.NaN, null), GOOGLEBOT,
                new Verdict(Verification.verified, "in Google's list"));
    }

    @Test
    void saysASoundStoreIsSoundWithWhatItHoldsAndItsShards() {
        String db = store("check_sound");

        CommandRun run = CommandRun.of("check", "--db", cluster.url(db));

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("Store " + cluster.url(db) + ": sound. 3 crawler hits, 3 verdicts, 1 log imported;"
                + " schema version 9; 2 shards answering, ");
        assertThat(cluster.perShard("SELECT count() FROM " + db + ".hits_local")).doesNotContain(0L);
    }

    @Test
    void aDatabaseWithNoStoreIsNoStoreAndIsNotMade() {
        String db = ClickHouseTestCluster.database("check_none");

        CommandRun run = CommandRun.of("check", "--db", cluster.url(db));

        assertThat(run.exit()).isEqualTo(CheckCommand.NO_STORE);
        assertThat(run.err()).isEqualTo("crawl-errors: there is no store at " + cluster.url(db) + ": pass the --db that import and serve"
                + " use (its database is made by the first import or serve)\n");
        assertThat(cluster.number(1, "SELECT count() FROM system.databases WHERE name = '" + db + "'")).isZero();
    }

    @Test
    void aShardThatLostATableIsDamagedAndSaysWhichShard() {
        String db = store("check_lost");
        cluster.query(2, "DROP TABLE " + db + ".hits_local");

        CommandRun run = CommandRun.of("check", "--db", cluster.url(db));

        assertThat(run.exit()).isEqualTo(CheckCommand.DAMAGED);
        assertThat(run.err()).isEqualTo("crawl-errors: the store " + cluster.url(db) + " is damaged: shard 2 (" + cluster.shard(2)
                + ") has no table " + db + ".hits_local; restore it from a backup, or move it aside and import the logs again (they are"
                + " the source of truth)\n");
    }

    @Test
    void aStoreOfANewerSchemaOrAServerThatDoesNotAnswerCannotBeChecked() throws Exception {
        String db = store("check_newer");
        cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (99)");

        CommandRun newer = CommandRun.of("check", "--db", cluster.url(db));

        assertThat(newer.exit()).isEqualTo(CheckCommand.NOT_CHECKED);
        assertThat(newer.err()).startsWith("crawl-errors: the ClickHouse database " + db + " was made by a newer crawl-errors (schema 99;");

        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        CommandRun gone = CommandRun.of("check", "--db", "clickhouse://127.0.0.1:" + port + "/crawl");
        assertThat(gone.exit()).isEqualTo(CheckCommand.NOT_CHECKED);
        assertThat(gone.err()).startsWith("crawl-errors: cannot reach ClickHouse at http://127.0.0.1:" + port + " (connection refused)");
    }
}
