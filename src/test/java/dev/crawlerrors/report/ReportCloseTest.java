package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.Waits;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing the report under counts in the background interrupts them instead of waiting for them: a
 * first count of a 10,000,000-hit store held serve's stopping for minutes. The store's own reads
 * answer an interrupt ({@code DuckDbQueryTest}, {@code ClickHouseHttpTest}); here every count blocks
 * until its thread is interrupted.
 */
class ReportCloseTest {

    private static final Set<String> COUNTS = Set.of("countByMinute", "countByTime", "forEachUrl");

    @Test
    void closingInterruptsTheCountsThatRunAndDropsThoseThatWait() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Set<String> started = ConcurrentHashMap.newKeySet();
            HitReader blocking = blockingCounts(store.reader(), started);
            CrawlErrorReport report = new CrawlErrorReport(blocking, ReportConfig.in(ZoneOffset.UTC));
            report.startCounting();
            Waits.await("the counts started").until(() -> started.containsAll(Set.of("countByMinute", "countByTime")));

            Thread closing = new Thread(report::close, "closing");
            closing.start();
            closing.join(TimeUnit.SECONDS.toMillis(30));

            assertThat(closing.isAlive()).as("close still waits 30 s later for counts that do not end").isFalse();
        }
    }

    /** {@code reader}, whose counts block until their thread is interrupted, as a long store read that answers one does. */
    private static HitReader blockingCounts(HitReader reader, Set<String> started) {
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class}, (proxy, method, args) -> {
            if (COUNTS.contains(method.getName())) {
                started.add(method.getName());
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StoreException("a count was stopped: its thread was interrupted", e);
                }
            }
            try {
                return method.invoke(reader, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }
}
