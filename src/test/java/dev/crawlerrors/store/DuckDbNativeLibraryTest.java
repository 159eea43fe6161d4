package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DuckDbNativeLibraryTest {

    @Test
    void namesTheLibraryAsDuckDbsDriverDoes() {
        // DuckDB's jar (on the test class path) holds the library under the name its driver computes;
        // were ours different, the shaded jar's DuckDB would find no library beside the jar
        assertThat(ClassLoader.getSystemResource(DuckDbNativeLibrary.fileName())).isNotNull();
    }

    @Test
    void leavesDuckDbToUnpackItsOwnWhenRunFromClasses() {
        DuckDbNativeLibrary.prepare();
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            assertThat(store.size()).isZero();
        }
    }
}
