package dev.crawlerrors.cli;

import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.StoreContents;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.store.duckdb.DuckDbStoreCheck;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crawl-errors check}: reads a whole store, read-only, and says whether it is sound and what to do when it is not. */
final class CheckCommand implements Callable<Integer> {

    static final int DAMAGED = 1;
    static final int NO_STORE = 3;
    static final int NOT_CHECKED = 4;

    Path db;

    /** The command, bound to this object. */
    CommandSpec spec() {
        CommandSpec spec = CommandSpecs.command(this, "check",
                "Checks a store: reads every value of every table (read-only, so that each block's checksum is verified), "
                        + "and the version of its tables; says what to do when it is not sound. Run it while no serve or import "
                        + "has the store open (a running serve answers /health).");
        CommandSpecs.exitCodes(spec, "0:the store is sound", "1:the store is damaged: restore it, or move it aside and import the logs again",
                "2:bad usage", "3:there is no store at that path",
                "4:the store could not be checked: another program has it open, it is no crawl-errors store, or a newer version made it");
        spec.addOption(CommandSpecs.option("--db", "FILE", Path.class, () -> db, value -> db = value,
                "The DuckDB store (default: $" + StoreOptions.DB_ENV + ", else " + StoreOptions.DEFAULT_DB + ").").build());
        return spec;
    }

    @Override
    public Integer call() {
        Path file = StoreOptions.dbPath(db);
        String shown = ShownText.of(file.toString());
        if (!Files.exists(file)) {
            System.err.println("crawl-errors: there is no store at " + shown + ": pass the --db that import and serve use (or set $"
                    + StoreOptions.DB_ENV + ")");
            return NO_STORE;
        }
        StoreContents contents;
        try {
            contents = DuckDbStoreCheck.check(file);
        } catch (DamagedStoreException e) {
            System.err.println("crawl-errors: " + ShownText.of(e.getMessage()));
            return DAMAGED;
        } catch (StoreException e) {
            System.err.println("crawl-errors: " + ShownText.of(e.getMessage()));
            return NOT_CHECKED;
        }
        String version = contents.schemaVersion() < DuckDbHitStore.SCHEMA_VERSION
                ? "schema version " + contents.schemaVersion() + ", which the next import or serve brings to " + DuckDbHitStore.SCHEMA_VERSION
                : "schema version " + contents.schemaVersion();
        System.out.println("Store " + shown + ": sound. " + Figures.counted(contents.hits(), "crawler hit") + ", "
                + Figures.counted(contents.verdicts(), "verdict") + ", " + Figures.counted(contents.logs(), "log") + " imported; "
                + version + "; " + Figures.bytes(contents.bytes()) + ".");
        return 0;
    }
}
