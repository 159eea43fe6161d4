package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.SignatureStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What signature verification keeps, in a real DuckDB file ({@link SignatureStoreContract}), and kept across a reopening. */
class DuckDbSignaturesTest {

    @TempDir
    Path dir;

    @Test
    void keepsTheReadingsOfDirectories() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("s.duckdb"))) {
            SignatureStoreContract.keepsTheReadingsOfDirectories(store);
        }
    }

    @Test
    void keepsSignaturesUntilTheyAreSettled() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("s.duckdb"))) {
            SignatureStoreContract.keepsSignaturesUntilTheyAreSettled(store);
        }
    }

    @Test
    void givesEachSignedGroupItsOwnVerdictAndKeepsThemAcrossAReopening() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("s.duckdb"))) {
            SignatureStoreContract.givesEachSignedGroupItsOwnVerdict(store);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("s.duckdb"))) {
            org.assertj.core.api.Assertions.assertThat(store.reader().page(dev.crawlerrors.store.HitFilter.ERRORS, 0, 10))
                    .extracting(dev.crawlerrors.store.StoredHit::verification).containsExactly("verified", "verified", "verified");
        }
    }
}
