package dev.crawlerrors;

import dev.crawlerrors.cli.DemoCommand;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Path;

/** The bundled demo imported into a real DuckDB store, as {@code crawl-errors demo} does it. */
public final class DemoFixture {

    private DemoFixture() {
    }

    /** Generates the demo under {@code dir} and imports it into a fresh store file there. */
    public static DuckDbHitStore demoStore(Path dir) throws Exception {
        DemoCommand.Demo demo = DemoCommand.Demo.prepare(dir);
        DuckDbHitStore store = DuckDbHitStore.open(demo.db());
        demo.importInto(store);
        return store;
    }
}
