package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.VERIFIED;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.hit;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StoredHit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How far each log was read, as the DuckDB store's writer records and answers it: committed and
 * appended progress, the compare-and-set that keeps two writers of one log from storing a line
 * twice, and the files found unchanged only with the stamp they were recorded with.
 */
class DuckDbLedgerTest {

    @TempDir
    Path dir;

    @Test
    void recordsHowFarALogWasImportedWithItsHitsAndKeepsTheLatest() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)),
                    start("f1", "access.log"), new SourceProgress("f1", "access.log", 180, 1));
            store.writer().append(List.of(), new SourceProgress("f1", "access.log", 180, 1), new SourceProgress("f1", "access.log", 360, 2));
            store.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, VERIFIED)),
                    start("f2", "access.log.1"), new SourceProgress("f2", "access.log.1", 90, 1));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().imported(List.of("f1", "f2", "f3")))
                    .containsExactlyInAnyOrder(new SourceProgress("f1", "access.log", 360, 2), new SourceProgress("f2", "access.log.1", 90, 1));
            assertThat(store.writer().imported(List.of())).isEmpty();
            assertThat(store.health().size()).isEqualTo(2);
        }
    }

    @Test
    void recordsALogsPositionOnlyFromWhereTheStoreHasItAndRefusesAWriterThatReadFromElsewhere() {
        Path file = dir.resolve("store.duckdb");
        SourceProgress at100 = new SourceProgress("f1", "access.log", 100, 10);
        SourceProgress at200 = new SourceProgress("f1", "access.log", 200, 20);
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED)), start("f1", "access.log"), at100);
            // a second reader of the same log, from its start: its lines are stored already, and its hits are not stored again
            assertThatThrownBy(() -> store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED)),
                    start("f1", "access.log.1"), new SourceProgress("f1", "access.log.1", 100, 10)))
                    .isInstanceOf(PositionMovedException.class)
                    .hasMessage("access.log.1: another writer stored lines of it while this one read from line 1 (the store has it up to line 10"
                            + " now); read on from there")
                    .satisfies(e -> assertThat(((PositionMovedException) e).keys()).containsExactly("f1"));
            store.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/second", 404, VERIFIED)), at100, at200);
            store.writer().flush();
            // committed now: compared with what the store holds
            assertThatThrownBy(() -> store.writer().append(List.of(), at100, new SourceProgress("f1", "access.log", 150, 15)))
                    .isInstanceOf(PositionMovedException.class);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(at200);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThatThrownBy(() -> store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED)),
                    start("f1", "access.log"), at100)).isInstanceOf(PositionMovedException.class);
            store.writer().append(List.of(hit("2025-05-14T10:00:02Z", "66.249.66.1", "/third", 404, VERIFIED)), at200,
                    new SourceProgress("f1", "access.log", 300, 30));
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/third", "/second", "/first");
        }
    }

    /**
     * A file is unchanged only with the very stamp it was recorded with, whichever way the store
     * compares: reading every recorded file (few recorded), handing the stamps to a query (many more
     * recorded than asked about), or, before a commit, against what was appended.
     */
    @Test
    void findsAFileUnchangedOnlyWithTheStampItWasRecordedWithWhicheverWayTheStampsAreCompared() {
        Path file = dir.resolve("store.duckdb");
        List<FileStamp> recorded = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            for (int i = 0; i < 40; i++) {
                FileStamp stamp = new FileStamp("(dev=803,ino=" + i + ")", 1_000 + i, 1_747_216_800_000_000_000L + i);
                recorded.add(stamp);
                store.writer().append(List.of(), start("f" + i, "E2.b" + i + ".gz"), new SourceProgress("f" + i, "E2.b" + i + ".gz", 5_000 + i, 20 + i,
                        "c" + i, stamp));
            }
            // not committed yet: what was appended answers
            assertThat(store.writer().unchangedLines(List.of(recorded.get(3), new FileStamp("(dev=803,ino=3)", 1_003, 1L)))).containsExactly(23, -1);
        }
        FileStamp grown = new FileStamp("(dev=803,ino=5)", 2_000, 1_747_216_800_000_000_005L);
        FileStamp touched = new FileStamp("(dev=803,ino=6)", 1_006, 1_747_216_900_000_000_000L);
        FileStamp otherDevice = new FileStamp("(dev=804,ino=7)", 1_007, 1_747_216_800_000_000_007L);
        FileStamp unknown = new FileStamp("(dev=803,ino=99)", 1_000, 1_747_216_800_000_000_000L);
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            // eleven asked about, forty recorded: every recorded file read
            List<FileStamp> asked = new ArrayList<>(recorded.subList(0, 5));
            asked.addAll(Arrays.asList(grown, touched, otherDevice, unknown, null, recorded.get(39)));
            assertThat(store.writer().unchangedLines(asked)).containsExactly(20, 21, 22, 23, 24, -1, -1, -1, -1, -1, 59);
            // three asked about, forty recorded: the stamps handed to the query
            assertThat(store.writer().unchangedLines(Arrays.asList(recorded.get(8), touched, null, recorded.get(9))))
                    .containsExactly(28, -1, -1, 29);
            assertThat(store.writer().unchangedLines(List.of())).isEmpty();
            // a file read again to its end: its new stamp is the one recorded, whether committed or not
            store.writer().append(List.of(), start("f5b", "E2.b5.gz"), new SourceProgress("f5b", "E2.b5.gz", 9_000, 40, "c5b", grown));
            assertThat(store.writer().unchangedLines(List.of(grown, recorded.get(5)))).containsExactly(40, -1);
            store.writer().flush();
            assertThat(store.writer().unchangedLines(List.of(grown, recorded.get(5)))).containsExactly(40, -1);
            assertThat(store.writer().unchangedLines(recorded.subList(10, 40))).containsExactly(
                    recorded.subList(10, 40).stream().mapToLong(stamp -> 20 + Long.parseLong(stamp.key().replaceAll("\\D+", " ").trim().split(" ")[1]))
                            .toArray());
        }
    }

    @Test
    void findsProgressAppendedSinceANewStoreOpenedAndProgressStoredBeforeItOpened() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED))); // hits without a log
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            store.writer().append(List.of(), start("f1", "access.log"), new SourceProgress("f1", "access.log", 180, 1)); // buffered, not yet written
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 180, 1));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 180, 1));
        }
    }

    @Test
    void saysWhetherItRecordsProgressAtAll() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)));
            assertThat(store.writer().recordsProgress()).as("hits without a log").isFalse();

            store.writer().append(List.of(), start("f1", "access.log"), new SourceProgress("f1", "access.log", 10, 1));
            assertThat(store.writer().recordsProgress()).as("appended, not committed").isTrue();
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().recordsProgress()).isTrue();
        }
    }

    @Test
    void findsEachLogsProgressByItsKeysPrefixBeforeAndAfterItReadsEveryPrefixIntoItsFilter() {
        Path file = dir.resolve("store.duckdb");
        int logs = 3 * DuckDbLedger.PREFIX_QUERIES_BEFORE_LOADING;
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            for (int i = 0; i < logs; i++) {
                store.writer().append(List.of(), start("f" + i + "-1", "access.log." + i), new SourceProgress("f" + i + "-1", "access.log." + i, 100 + i, i));
            }
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            for (int i = 0; i < logs; i++) {
                assertThat(store.writer().imported(List.of("f" + i))).as("query " + i)
                        .containsExactly(new SourceProgress("f" + i + "-1", "access.log." + i, 100 + i, i));
                assertThat(store.writer().imported(List.of("g" + i))).as("a log never recorded").isEmpty();
            }
            store.writer().append(List.of(), start("g1", "new.log"), new SourceProgress("g1", "new.log", 5, 1));
            assertThat(store.writer().imported(List.of("g1", "f0"))).containsExactlyInAnyOrder(new SourceProgress("g1", "new.log", 5, 1),
                    new SourceProgress("f0-1", "access.log.0", 100, 0));
        }
    }

    @Test
    void answersTheFilesReadToTheirEndWithTheStampTheyHadThen() {
        Path file = dir.resolve("store.duckdb");
        FileStamp stamp = new FileStamp("(dev=803,ino=42)", 4_096, 1_747_216_800_000_000_000L);
        SourceProgress read = new SourceProgress("f1", "access.log.1", 4_096, 40, "c1", stamp);
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(), start("f1", "access.log.1"), read);
            assertThat(store.writer().importedFiles(List.of(stamp.key(), "(dev=803,ino=43)"))).containsExactly(read);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().importedFiles(List.of(stamp.key()))).singleElement()
                    .satisfies(p -> assertThat(p.file()).isEqualTo(stamp)).satisfies(p -> assertThat(p.lines()).isEqualTo(40));
            assertThat(store.writer().importedFiles(List.of())).isEmpty();
        }
    }
}
