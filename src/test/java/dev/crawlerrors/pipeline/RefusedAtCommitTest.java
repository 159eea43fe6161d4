package dev.crawlerrors.pipeline;

import static dev.crawlerrors.pipeline.WatchedStores.chunk;
import static dev.crawlerrors.pipeline.WatchedStores.printed;
import static dev.crawlerrors.pipeline.WatchedStores.stamp;
import static dev.crawlerrors.pipeline.WatchedStores.storedUrls;
import static dev.crawlerrors.pipeline.WatchedStores.watched;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.pipeline.TwoWriters.Engine;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.Figures;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two writers of one log, the second storing all of it while the first waits after its first
 * chunk; then the first is refused at a chosen point: as it appends its third chunk (ClickHouse: its
 * second chunk, taken, is refused at the commit the writer runs there, and told), or at its last
 * commit. However the refusal comes, each writer's summary counts each line of the log once, as
 * its own or the other's: lines read, bad and parsed, crawler hits, and what the store holds is what
 * one import of the log alone stores. The refusal is forced by a writer around the real store that
 * commits at a chosen append; the store refuses as it does for any two writers.
 */
@ClickHouseTest
class RefusedAtCommitTest {

    /** Some seven chunks of the reader's: the first writer is refused at its third. */
    private static final int LINES = 40_000;
    /** Two chunks: the first writer's second chunk is its last, refused at its last commit. */
    private static final int SHORT_LINES = 9_000;
    /** {@link #firstWriter}'s refusal told as the file is recorded as read to its end. */
    private static final int AT_THE_STAMP = -1;
    /** A line that no format reads, every this many lines. */
    private static final int BAD_EVERY = 997;

    @TempDir
    Path dir;

    private TwoWriters writers;

    @BeforeEach
    void setUp() {
        writers = new TwoWriters(dir);
    }

    @AfterEach
    void tearDown() {
        writers.close();
    }

    /**
     * {@code store}, as the first writer sees it: its first chunk is committed, and the second writer
     * imports the whole log; at its {@code refuseAt}th append it commits what it took, and a refusal
     * is told there, as the store tells it at the next append of the log (0: not forced; {@value
     * #AT_THE_STAMP}: before it records the file as read to its end, what it took is committed as a
     * reader's query commits it, and the refusal told as the stamp is appended).
     */
    private WritableStore firstWriter(HitStore store, Runnable secondWriter, int refuseAt) {
        AtomicInteger appends = new AtomicInteger();
        return watched(store, (method, args, real, on) -> {
            int n = chunk(method, args) ? appends.incrementAndGet() : 0;
            if (stamp(method, args) && refuseAt == AT_THE_STAMP) {
                store.health().size(); // a read commits what waits, and tells no appender
            }
            if (n > 0 && n == refuseAt) {
                real.flush(); // a commit now: the store refuses what it took of the log since the first chunk
            }
            Object result = on.call();
            if (n == 1) {
                real.flush();
                secondWriter.run();
            }
            return result;
        });
    }

    private void twoWritersRefusedAt(Engine engine, int lines, int refuseAt) throws Exception {
        Path log = writers.log("access.log", lines,
                i -> i % BAD_EVERY == 0 ? "no request on this line " + i + "\n" : SampleLogs.line(i));
        HitStore alone = writers.open(engine, "alone");
        ImportSummary clean = writers.imported(alone, log);

        HitStore store = writers.open(engine, "two_writers");
        ImportSummary[] second = new ImportSummary[1];
        Runnable secondWriter = () -> second[0] = writers.imported(store, log);
        ImportSummary first = writers.imported(firstWriter(writers.another(engine, store), secondWriter, refuseAt), log);
        ImportSummary b = second[0];

        assertThat(first.succeeded()).as(printed(first)).isTrue();
        assertThat(b.succeeded()).as(printed(b)).isTrue();
        assertThat(storedUrls(store)).as("what the two stored").isEqualTo(storedUrls(alone));
        assertThat(clean.lines().linesRead()).isEqualTo(lines);
        // the first stored its first chunk, the second the rest, each line counted once
        assertThat(first.lines().linesRead()).as(printed(first)).isPositive().isLessThan(lines);
        assertThat(first.lines().linesRead() + first.otherWriterLines()).as(printed(first)).isEqualTo(lines);
        assertThat(first.otherWriterLines()).as(printed(first)).isEqualTo(b.lines().linesRead());
        assertThat(b.otherWriterLines()).isZero();
        assertThat(first.lines().linesRead() + b.lines().linesRead()).isEqualTo(clean.lines().linesRead());
        assertThat(first.lines().linesParsed() + b.lines().linesParsed()).isEqualTo(clean.lines().linesParsed());
        assertThat(first.lines().linesBad() + b.lines().linesBad()).isEqualTo(clean.lines().linesBad());
        assertThat(first.crawlerHits() + b.crawlerHits()).as(printed(first)).isEqualTo(clean.crawlerHits());
        assertThat(first.errorHits() + b.errorHits()).isEqualTo(clean.errorHits());
        assertThat(first.lines().firstBadLines()).extracting(BadLine::lineNumber)
                .allSatisfy(line -> assertThat(line).isLessThanOrEqualTo(first.lines().linesRead()));
        assertThat(printed(first)).contains("Read " + Figures.counted(first.lines().linesRead(), "line"))
                .contains(": 1 new, " + Figures.counted(first.lines().linesRead(), "line"))
                .contains("Crawler hits stored: " + Figures.grouped(first.crawlerHits()) + ";")
                .contains("Lines already stored by another writer at the same time (another import of the same log,"
                        + " or serve --follow of it): " + Figures.grouped(first.otherWriterLines()) + ";");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWriterRefusedInTheMiddleOfItsReadCountsEachLineOnce(Engine engine) throws Exception {
        twoWritersRefusedAt(engine, LINES, 3);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWriterRefusedAsItRecordsItsFileReadToTheEndCountsEachLineOnce(Engine engine) throws Exception {
        twoWritersRefusedAt(engine, SHORT_LINES, AT_THE_STAMP);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWriterRefusedAtItsLastCommitCountsEachLineOnce(Engine engine) throws Exception {
        twoWritersRefusedAt(engine, SHORT_LINES, 0);
    }
}
