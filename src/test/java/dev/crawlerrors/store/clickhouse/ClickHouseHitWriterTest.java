package dev.crawlerrors.store.clickhouse;

import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.GOOGLEBOT;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.VERIFIED;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.hit;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The ClickHouse writer on a real two-shard cluster: how far each log was read, recorded with its
 * hits and compared as it commits (two writers of one log, a writer past its lease), batches larger
 * than one insert, rows spread over the shards, and rows of a batch never committed never counted.
 */
@ClickHouseTest
class ClickHouseHitWriterTest {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    private ClickHouseHitStore open(String db) {
        return ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE);
    }

    @Test
    void recordsHowFarALogWasImportedWithItsHitsAndKeepsTheLatest() {
        String db = ClickHouseTestCluster.database("progress");
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)),
                    start("f1", "access.log"), new SourceProgress("f1", "access.log", 180, 1));
            store.writer().append(List.of(), new SourceProgress("f1", "access.log", 180, 1), new SourceProgress("f1", "access.log", 360, 2)); // buffered, not yet written
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 360, 2));
            store.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, VERIFIED)),
                    start("f2", "access.log.1"), new SourceProgress("f2", "access.log.1", 90, 1));
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("f1", "f2", "f3")))
                    .containsExactlyInAnyOrder(new SourceProgress("f1", "access.log", 360, 2), new SourceProgress("f2", "access.log.1", 90, 1));
            assertThat(store.writer().imported(List.of())).isEmpty();
            assertThat(store.health().size()).isEqualTo(2);
        }
    }

    @Test
    void recordsALogsPositionOnlyFromWhereTheStoreHasItWhicheverProcessWroteIt() {
        String db = ClickHouseTestCluster.database("cas");
        SourceProgress at100 = new SourceProgress("f1", "access.log", 100, 10);
        try (ClickHouseHitStore one = open(db); ClickHouseHitStore other = open(db)) {
            one.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)), start("f1", "access.log"), at100);
            one.writer().flush();
            // another process read the same lines from the log's start: refused as its batch is claimed, and told
            other.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a-again", 404, VERIFIED)), start("f1", "access.log"), at100);
            assertThatThrownBy(other.writer()::flush).isInstanceOfSatisfying(PositionMovedException.class, e -> {
                assertThat(e.keys()).containsExactly("f1");
                assertThat(e.refused().get(0).storedUpTo()).isEqualTo(start("f1", "access.log"));
                assertThat(e.refused().get(0).hits()).extracting(h -> h.hit().url()).containsExactly("/a-again");
            });
            assertThat(other.writer().imported(List.of("f1"))).containsExactly(at100);
            // it reads on from where the store has the log
            other.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, VERIFIED)), at100,
                    new SourceProgress("f1", "access.log", 200, 20));
            other.writer().flush();
            // a writer whose lines of a log were refused as they went out (a read commits them, as serve's committer
            // does, and tells no one) is told when it appends on after them; its hits of no log are stored
            one.writer().append(List.of(hit("2025-05-14T10:00:02Z", "66.249.66.1", "/c", 404, VERIFIED),
                    hit("2025-05-14T10:00:03Z", "66.249.66.1", "/d", 404, VERIFIED)), at100, new SourceProgress("f1", "access.log", 180, 18));
            one.writer().append(List.of(hit("2025-05-14T10:00:04Z", "66.249.66.3", "/no-log", 404, VERIFIED)));
            assertThat(one.health().size()).isEqualTo(3);
            assertThatThrownBy(() -> one.writer().append(List.of(), new SourceProgress("f1", "access.log", 180, 18),
                    new SourceProgress("f1", "access.log", 190, 19))).isInstanceOfSatisfying(PositionMovedException.class,
                    e -> assertThat(e.refused().get(0).hits()).extracting(h -> h.hit().url()).containsExactly("/c", "/d"));
            one.writer().flush();
            assertThat(one.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/no-log", "/b", "/a");
            assertThat(one.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 200, 20));
        }
    }

    @Test
    void aLogsPositionAnotherWriterClaimsIsRefusedUntilItsClaimIsWithdrawnOrPastItsLife() {
        String db = ClickHouseTestCluster.database("claims");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().flush();
            // f2: claimed by another writer now; f3: claimed, and withdrawn; f4: claimed long ago, by a writer killed since
            cluster.query(1, "INSERT INTO " + db + ".log_claims (fingerprint, from_bytes, claim, withdrawn) VALUES ('f2', 0, 11, 0),"
                    + " ('f3', 0, 12, 0), ('f3', 0, 12, 1)");
            cluster.query(1, "INSERT INTO " + db + ".log_claims (fingerprint, from_bytes, claim, withdrawn, made) VALUES ('f4', 0, 13, 0,"
                    + " now() - " + (ClickHouseLogClaims.EXPIRY_SECONDS + 5) + ")");
            for (String key : List.of("f2", "f3", "f4")) {
                store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/" + key, 404, VERIFIED)), start(key, key + ".log"),
                        new SourceProgress(key, key + ".log", 100, 1));
            }
            assertThatThrownBy(store.writer()::flush).isInstanceOfSatisfying(PositionMovedException.class,
                    e -> assertThat(e.keys()).containsExactly("f2"));
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactlyInAnyOrder("/f3", "/f4");
            // its claim withdrawn, not committed: f2 is where it was, and the next writer from there goes on
            assertThat(cluster.number(1, "SELECT max(withdrawn) FROM " + db + ".log_claims WHERE fingerprint = 'f2' AND claim != 11"))
                    .isEqualTo(1);
            assertThat(store.writer().imported(List.of("f2"))).isEmpty();
        }
        // a commit made later than a claim's life allows is refused by the server itself
        long now = cluster.number(1, "SELECT toUInt64(now())");
        assertThatThrownBy(() -> cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines,"
                + " claimed) VALUES (" + Long.toUnsignedString(now << 32) + ", 1, 0, 'f5', 'f5.log', 10, 1, "
                + (now - ClickHouseLogClaims.CLAIM_SECONDS - 5) + ")")).hasMessageContaining("Code: 395");
    }

    @Test
    void answersALogsProgressByItsKeysPrefixWithItsCheckAndTheFilesReadToTheirEndBeforeAndAfterTheCommit() {
        String db = ClickHouseTestCluster.database("files");
        FileStamp first = new FileStamp("(dev=803,ino=11)", 1_200, 1_747_216_800_123_456_789L);
        FileStamp second = new FileStamp("(dev=803,ino=12)", 640, 1_747_216_801_000_000_000L);
        SourceProgress whole = new SourceProgress("abc", "access.log.1.gz", 3_000, 20, "c1", first);
        // a log that begins as abc does and is another: a key of its own under the same prefix
        SourceProgress other = new SourceProgress("abc-2", "access.log.2.gz", 1_500, 10, null, second);
        SourceProgress elsewhere = new SourceProgress("def", "other.log", 90, 1, "c3", null);
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)), start("abc", whole.name()), whole);
            store.writer().append(List.of(), start("abc-2", other.name()), other);
            store.writer().append(List.of(), start("def", elsewhere.name()), elsewhere);
            // appended, and committed or not (the store commits within a second): found all the same
            assertThat(store.writer().imported(List.of("abc"))).extracting(p -> p.readToTheEndOf(null))
                    .containsExactlyInAnyOrder(whole.readToTheEndOf(null), other.readToTheEndOf(null));
            assertThat(store.writer().importedFiles(List.of(first.key(), second.key(), "(dev=803,ino=13)"))).containsExactlyInAnyOrder(whole, other);
            store.writer().flush();
            assertThat(store.writer().imported(List.of("abc"))).containsExactlyInAnyOrder(whole.readToTheEndOf(null), other.readToTheEndOf(null));
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("abc", "def", "xyz"))).containsExactlyInAnyOrder(whole.readToTheEndOf(null),
                    other.readToTheEndOf(null), elsewhere);
            assertThat(store.writer().importedFiles(List.of(first.key(), second.key(), "(dev=803,ino=13)"))).containsExactlyInAnyOrder(whole, other);
            assertThat(store.writer().importedFiles(List.of())).isEmpty();
            // the file grew and was read to its end again: its newest stamp is the one answered
            FileStamp grown = new FileStamp(first.key(), 1_800, 1_747_216_900_000_000_000L);
            SourceProgress further = new SourceProgress("abc", "access.log.1.gz", 4_000, 27, "c4", grown);
            store.writer().append(List.of(), whole.readToTheEndOf(null), further);
            store.writer().flush();
            assertThat(store.writer().importedFiles(List.of(first.key()))).containsExactly(further);
            assertThat(store.writer().unchangedLines(java.util.Arrays.asList(grown, first, null, second))).containsExactly(27, -1, -1, other.lines());
            assertThat(store.writer().imported(List.of("abc"))).containsExactlyInAnyOrder(further.readToTheEndOf(null), other.readToTheEndOf(null));
        }
    }

    @Test
    void aRefusalToldLateCoversEveryLineOfItsLogTheWriterTookBeforeAndTheStoreKeepsTheOtherWritersPosition() throws Exception {
        // the server waits while a batch from the log's start is out; the appender sends its next batch of the log meanwhile (it
        // waits for the one before, refused, and then sends its own, which starts where the other writer stored up to)
        ClickHouseTestCluster own = ClickHouseTestCluster.ownServer();
        String db = "untold";
        SourceProgress at50 = new SourceProgress("f1", "access.log", 5_000, 50);
        SourceProgress at80 = new SourceProgress("f1", "access.log", 8_000, 80);
        SourceProgress at90 = new SourceProgress("f1", "access.log", 9_000, 90);
        long start = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();
        List<CrawlerHit> first = new ArrayList<>();
        List<CrawlerHit> second = new ArrayList<>();
        for (int i = 0; i < ClickHouseHitWriter.FLUSH_ROWS; i++) {
            first.add(hit(start + i, "66.249.66." + (i % 200), "/x" + i, 404, VERIFIED));
            second.add(hit(start + i, "66.249.66." + (i % 200), "/y" + i, 404, VERIFIED));
        }
        List<PositionMovedException.Refused> told = new CopyOnWriteArrayList<>();
        AtomicBoolean secondTaken = new AtomicBoolean();
        try (ClickHouseHitStore other = ClickHouseHitStore.open(own.location(db), ClickHouseSettings.SERVE);
             ClickHouseHitStore store = ClickHouseHitStore.open(own.location(db), ClickHouseSettings.SERVE)) {
            other.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/other", 404, VERIFIED)), start("f1", "access.log"), at50);
            other.writer().flush();
            Thread appender;
            own.pause(1);
            try {
                store.writer().append(first, start("f1", "access.log"), at50); // a full batch: it goes out, and waits for the server
                appender = Thread.ofPlatform().daemon().start(() -> {
                    try {
                        store.writer().append(second, at50, at80); // taken, and sent once the batch before is done
                        secondTaken.set(true);
                    } catch (PositionMovedException e) {
                        told.addAll(e.refused()); // the refusal came first (a commit of the writer's own took the lock before)
                    }
                });
                for (int i = 0; appender.getState() == Thread.State.NEW || appender.getState() == Thread.State.RUNNABLE; i++) {
                    assertThat(i).as("the appender waits for the batch before its own").isLessThan(12_000);
                    Thread.sleep(5);
                }
            } finally {
                own.resume(1);
            }
            appender.join(120_000);
            assertThat(appender.isAlive()).isFalse();
            for (Runnable step : List.<Runnable>of(() -> store.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/z", 404,
                    VERIFIED)), at80, at90), store.writer()::flush)) {
                try {
                    step.run();
                } catch (PositionMovedException e) {
                    told.addAll(e.refused());
                }
            }
            // told once, from where its lines start, with every hit it took of the log: the appender reads on once, from the other's
            assertThat(told).hasSize(1);
            assertThat(told.get(0).storedUpTo()).isEqualTo(start("f1", "access.log"));
            assertThat(told.get(0).hits()).hasSize(ClickHouseHitWriter.FLUSH_ROWS * (secondTaken.get() ? 2 : 1));
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(at50);
            assertThat(store.health().size()).isEqualTo(1);
        } finally {
            own.resume(1);
            own.stop();
        }
    }

    @Test
    void writesBatchesLargerThanOneInsertWithoutLosingReorderingOrRepeatingARow() {
        String db = ClickHouseTestCluster.database("batches");
        int rows = ClickHouseHitWriter.FLUSH_ROWS + 30_000; // more than one batch goes out while the appends go on
        long start = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();
        try (ClickHouseHitStore store = open(db)) {
            for (int i = 0; i < rows; i += 1000) {
                List<CrawlerHit> chunk = new ArrayList<>();
                for (int j = i; j < i + 1000; j++) {
                    chunk.add(hit(start + j / 3 * 1000L, "66.249.66." + (j % 200), "/p" + j, 404, VERIFIED));
                }
                store.writer().append(chunk, new SourceProgress("f1", "access.log", i, i), new SourceProgress("f1", "access.log", i + 1000L, i + 1000L));
                if (i == 60_000) {
                    store.verdicts().update("66.249.66.7", GOOGLEBOT.name(), new Verdict(Verification.spoofed, "PTR refuted"));
                }
            }
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.health().size()).isEqualTo(rows);
            assertThat(cluster.number(1, "SELECT uniqExact(url) FROM " + db + ".hits")).isEqualTo(rows);
            // three hits a second: an instant's hits newest first, the later stored first
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 4)).extracting(StoredHit::url)
                    .containsExactly("/p129999", "/p129998", "/p129997", "/p129996");
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", rows, rows));
            assertThat(store.verdicts().of(Verification.spoofed)).extracting(StoredVerdict::ip).containsExactly("66.249.66.7");
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(rows - rows / 200);
        }
    }

    @Test
    void aReadWhileAnotherThreadCommitsSeesEveryHitAppendedBeforeIt() throws InterruptedException {
        // as a report request does while the committer (or an import) commits what this process appended
        long start = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("mid_flush"))) {
            for (int round = 1; round <= 3; round++) {
                List<CrawlerHit> hits = new ArrayList<>();
                for (int i = 0; i < 20_000; i++) {
                    hits.add(hit(start + (round * 20_000L + i) * 1000, "66.249.66." + (i % 200), "/r" + round + "/" + i, 404, VERIFIED));
                }
                Thread committing = Thread.ofPlatform().start(() -> {
                    store.writer().append(hits);
                    store.writer().flush();
                });
                // until the batch is on its way (waiting on its insert) or the committer's lock is held
                Waits.await("the batch on its way").pollInterval(Duration.ofMillis(1))
                        .until(committing::getState, state -> state != Thread.State.RUNNABLE && state != Thread.State.NEW);

                assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(round * 20_000L);
                committing.join();
            }
        }
    }

    @Test
    void spreadsHitsOverTheShardsByAddressAsTheDistributedTableDoesAndVerdictsOverAll() {
        String db = ClickHouseTestCluster.database("shards");
        try (ClickHouseHitStore store = open(db)) {
            List<CrawlerHit> hits = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                hits.add(hit(Instant.parse("2025-05-14T00:00:00Z").plusSeconds(i).toString(), "66.249.66." + (i % 100), "/p" + i, 404,
                        VERIFIED));
            }
            store.writer().append(hits);
            store.writer().flush();
            assertThat(store.shards()).isEqualTo(2);
        }
        List<Long> held = cluster.perShard("SELECT count() FROM " + db + ".hits_local");
        assertThat(held).allMatch(n -> n > 100).satisfies(n -> assertThat(n.get(0) + n.get(1)).isEqualTo(400));
        // where halfMD5(ip) sends a row, as a Distributed insert would
        assertThat(cluster.number(1, "SELECT count() FROM " + db + ".hits_local WHERE halfMD5(ip) % 2 != 0")).isZero();
        assertThat(cluster.number(2, "SELECT count() FROM " + db + ".hits_local WHERE halfMD5(ip) % 2 != 1")).isZero();
        assertThat(cluster.number(1, "SELECT uniqExact(ip) FROM " + db + ".hits_local") + cluster.number(2, "SELECT uniqExact(ip) FROM "
                + db + ".hits_local")).isEqualTo(100);
        assertThat(cluster.perShard("SELECT count() FROM " + db + ".verdict_log_local")).containsExactly(100L, 100L);
        assertThat(cluster.number(2, "SELECT count() FROM " + db + ".hits")).isEqualTo(400);
    }

    @Test
    void rowsOfABatchNeverCommittedNeverCountEvenOnceItsWriterIsLongGone() {
        String db = ClickHouseTestCluster.database("orphans");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/committed", 404, VERIFIED)));
            store.writer().flush();
        }
        // a writer that registered, committed a batch, wrote the next one to a shard and was killed before its commit
        long now = cluster.number(1, "SELECT toUInt64(now())");
        long crashed = (now << 32) | 7;
        cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines) VALUES ("
                + Long.toUnsignedString(crashed) + ", 0, 0, '', '', 0, 0), (" + Long.toUnsignedString(crashed) + ", 1, 0, '', '', 0, 0)");
        for (int seq = 1; seq <= 2; seq++) {
            cluster.query(1, "INSERT INTO " + db + ".hits_local (ts_ms, writer, seq, n, utc_offset_minutes, ip, method, url, status,"
                    + " crawler, bot_type) VALUES (" + Instant.parse("2025-05-14T10:00:0" + seq + "Z").toEpochMilli() + ", "
                    + Long.toUnsignedString(crashed) + ", " + seq + ", " + seq + ", 0, '66.249.66.2', 'GET', '/batch" + seq + "', 404,"
                    + " 'Googlebot Desktop', 'crawler_search')");
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/batch1", "/committed");
        }
        // twenty minutes on, every writer here is past its lease: the one that closed counts whole, the killed one to its last commit
        try (ClickHouseHitStore later = ClickHouseHitStore.openWithClockAhead(cluster.location(db), ClickHouseSettings.SERVE, 1200)) {
            assertThat(later.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/batch1", "/committed");
            assertThat(later.health().size()).isEqualTo(2);
        }
    }

    @Test
    void rowsAKilledWriterLeftUncommittedAreNotCheckedAsHitsAndTheNextWriterPastItsLeaseRemovesThem() throws InterruptedException {
        String db = ClickHouseTestCluster.database("leftovers");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/committed", 404, VERIFIED)));
            store.writer().flush();
        }
        // a writer that committed its first batch, wrote its second (hits and a verdict) and was killed before committing it
        long crashed = (cluster.number(1, "SELECT toUInt64(now())") << 32) | 9;
        String writer = Long.toUnsignedString(crashed);
        cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines) VALUES ("
                + writer + ", 0, 0, '', '', 0, 0), (" + writer + ", 1, 0, '', '', 0, 0)");
        for (int seq = 1; seq <= 2; seq++) {
            cluster.query(1, "INSERT INTO " + db + ".hits_local (ts_ms, writer, seq, n, utc_offset_minutes, ip, method, url, status,"
                    + " crawler, bot_type) VALUES (" + Instant.parse("2025-05-14T10:00:0" + seq + "Z").toEpochMilli() + ", " + writer
                    + ", " + seq + ", " + seq + ", 0, '66.249.66.2', 'GET', '/batch" + seq + "', 404, 'Googlebot Desktop', 'crawler_search')");
        }
        cluster.query(1, "INSERT INTO " + db + ".verdict_log_local (ip, crawler, verification, reason, version, writer, seq) VALUES"
                + " ('66.249.66.2', 'Googlebot Desktop', 'spoofed', 'never committed', 1, " + writer + ", 2)");
        String leftover = " WHERE writer = " + writer + " AND seq = 2";

        // what check counts is what the report counts
        assertThat(ClickHouseStoreCheck.check(cluster.location(db), ClickHouseSettings.IMPORT).orElseThrow().contents().hits()).isEqualTo(2);
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.health().size()).isEqualTo(2);
        }
        assertThat(cluster.number(1, "SELECT count() FROM " + db + ".hits_local" + leftover)).as("within its lease: kept").isEqualTo(1);

        // twenty minutes on, the killed writer is past its lease: the next writer's start removes what it left, and only that
        try (ClickHouseHitStore later = ClickHouseHitStore.openWithClockAhead(cluster.location(db), ClickHouseSettings.SERVE, 1200)) {
            for (String table : List.of("hits_local", "verdict_log_local", "minute_counts_local")) {
                Waits.await("the killed writer's rows in " + table + " removed")
                        .until(() -> cluster.number(1, "SELECT count() FROM " + db + "." + table + leftover), n -> n == 0);
            }
            assertThat(later.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/batch1", "/committed");
        }
        assertThat(cluster.perShard("SELECT count() FROM " + db + ".hits_local").stream().mapToLong(Long::longValue).sum()).isEqualTo(2);
    }

    @Test
    void theServerRefusesTheCommitOfAWriterPastItsLease() {
        String db = ClickHouseTestCluster.database("lease");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().flush();
        }
        long now = cluster.number(1, "SELECT toUInt64(now())");
        long old = (now - ClickHouseSnapshots.LEASE_SECONDS - 5) << 32;
        assertThatThrownBy(() -> cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines)"
                + " VALUES (" + Long.toUnsignedString(old) + ", 1, 0, '', '', 0, 0)")).hasMessageContaining("Code: 395");
        cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines) VALUES ("
                + Long.toUnsignedString((now - 5) << 32) + ", 1, 0, '', '', 0, 0)");
    }
}
