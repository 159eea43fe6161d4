package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store leaves Java Flight Recorder alone: DuckDB's driver would register a periodic JFR event
 * when it connects, which loads JFR's metadata at every start (see {@code org.duckdb.JfrMemoryMonitor},
 * which takes the driver's class's place).
 */
class DuckDbFlightRecorderTest {

    @TempDir
    Path dir;

    @Test
    void openingAStoreRegistersNoFlightRecorderEvent() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("store.duckdb"))) {
            assertThat(store.health().size()).isZero();
        }

        assertThat(FlightRecorder.getFlightRecorder().getEventTypes()).extracting(EventType::getName)
                .isNotEmpty()
                .noneMatch(name -> name.startsWith("duckdb."));
    }
}
