package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Reads over ClickHouse's HTTP interface, against the test cluster's first server (18.16 has no repeat(): arrays make long text). */
@ClickHouseTest
class ClickHouseHttpTest {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
    private final ClickHouseHttp http = new ClickHouseHttp("default", "", ClickHouseSettings.SERVE);

    @Test
    void handsALongAnswerOnInRunsOfWholeRowsInOrder() {
        // 200,000 rows of about 60 bytes: 12 MB, read a run of rows at a time, never whole
        List<Integer> runs = new ArrayList<>();
        long[] next = {0};
        http.queryRows(cluster.shard(1), "SELECT number, concat('/street/', toString(number), '?', arrayStringConcat(arrayMap(i -> 'x', range(40))), '\\t') FROM system.numbers"
                + " LIMIT 200000", rows -> {
                    int n = 0;
                    while (rows.nextRow()) {
                        long number = rows.number();
                        assertThat(number).isEqualTo(next[0]++);
                        assertThat(rows.text()).isEqualTo("/street/" + number + "?" + "x".repeat(40) + "\t");
                        n++;
                    }
                    runs.add(n);
                });

        assertThat(next[0]).isEqualTo(200_000);
        assertThat(runs.size()).isGreaterThan(20);
        assertThat(runs.stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThan(10_000);
    }

    @Test
    void aRowLongerThanTheBufferArrivesWhole() {
        List<String> texts = new ArrayList<>();
        http.queryRows(cluster.shard(1), "SELECT arrayJoin([arrayStringConcat(arrayMap(i -> 'y', range(700000))), 'short'])", rows -> {
            while (rows.nextRow()) {
                texts.add(rows.text());
            }
        });

        assertThat(texts).containsExactly("y".repeat(700_000), "short");
    }

    @Test
    void aQueryThatFailsIsAnErrorNotAShortAnswer() {
        List<Long> seen = new ArrayList<>();
        assertThatThrownBy(() -> http.queryRows(cluster.shard(1), "SELECT throwIf(number = 150000) FROM system.numbers LIMIT 200000",
                rows -> {
                    while (rows.nextRow()) {
                        seen.add(rows.number());
                    }
                })).isInstanceOf(ClickHouseException.class).hasMessageContaining("throwIf");
        assertThat(seen).isEmpty();
    }

    @Test
    void aReadWhoseThreadIsInterruptedStops() throws Exception {
        // as serve stops under a count in the background: the thread is interrupted, the read given up
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                http.query(cluster.shard(1), "SELECT sum(cityHash64(number)) FROM numbers(1000000000000)");
            } catch (Throwable e) {
                failed.set(e);
            }
        }, "endless-read");
        reader.start();
        TimeUnit.MILLISECONDS.sleep(300);
        reader.interrupt();
        reader.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(reader.isAlive()).as("the read still runs 30 s after its thread was interrupted").isFalse();
        assertThat(failed.get()).isInstanceOf(dev.crawlerrors.store.ReadStoppedException.class).hasMessageContaining("was interrupted");
        Waits.await("the server stops the read").until(() -> new String(http.query(cluster.shard(1),
                "SELECT count() FROM system.processes WHERE query LIKE '%numbers(1000000000000)%' AND query NOT LIKE '%system.processes%'"),
                StandardCharsets.UTF_8).strip().equals("0"));
    }
}
