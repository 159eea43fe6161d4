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

    /**
     * Signatures kept again, each once: in batches straight after each other, after a reopening (the
     * ids kept read from the file), and once settled, kept again as a new wait.
     */
    @Test
    void keepsEachSignatureOnceAcrossBatchesReopeningsAndSettling() {
        Path file = dir.resolve("s.duckdb");
        java.util.List<dev.crawlerrors.store.StoredSignature> many = new java.util.ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            many.add(new dev.crawlerrors.store.StoredSignature("r" + i, "66.1.2.3", "ChatGPT agent\u001fpending r" + i, "", "", null, "", "",
                    10_000 + i, "-1:-1:-1:3:GET-1:2:/a-1:"));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.signatures().keepPending(many.subList(0, 2_000));
            store.signatures().keepPending(many.subList(1_000, 2_500)); // half of it kept already
            org.assertj.core.api.Assertions.assertThat(store.signatures().pendingCount()).isEqualTo(2_500);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.signatures().keepPending(many.subList(2_000, 3_000)); // kept before the reopening, and new ones
            org.assertj.core.api.Assertions.assertThat(store.signatures().pendingCount()).isEqualTo(3_000);
            store.signatures().settled(java.util.List.of("r0", "r1"));
            store.signatures().keepPending(many.subList(0, 1)); // settled, then kept again: waits again
            store.signatures().keepPending(many.subList(2_999, 3_000));
            org.assertj.core.api.Assertions.assertThat(store.signatures().pendingCount()).isEqualTo(2_999);
            org.assertj.core.api.Assertions.assertThat(store.signatures().pending(3_000))
                    .extracting(dev.crawlerrors.store.StoredSignature::id).doesNotHaveDuplicates().contains("r0").doesNotContain("r1")
                    .hasSize(2_999);
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
