package dev.crawlerrors.cli;

import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.StoreContents;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.clickhouse.ClickHouseLocation;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseStoreCheck;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.store.duckdb.DuckDbStoreCheck;
import dev.crawlerrors.text.Credentials;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code crawl-errors check}: reads a whole store, read-only, and says whether it is sound and what to do when it is not. */
final class CheckCommand implements Callable<Integer> {

    static final int DAMAGED = 1;
    static final int NO_STORE = 3;
    static final int NOT_CHECKED = 4;

    String db;
    String dbUser;

    /** The command, bound to this object. */
    CommandSpec spec() {
        CommandSpec spec = CommandSpecs.command(this, "check",
                "Checks a store: reads every value of every table (read-only, so that each block's checksum is verified), "
                        + "and the version of its tables; says what to do when it is not sound. Run it while no serve or import "
                        + "has the store open (a running serve answers /health). A ClickHouse store is checked as it runs: every "
                        + "shard answers and holds the store's tables, and they read back.");
        CommandSpecs.exitCodes(spec, "0:the store is sound", "1:the store is damaged: restore it, or move it aside and import the logs again",
                "2:bad usage", "3:there is no store at that path (on ClickHouse: no such database, or no store in it)",
                "4:the store could not be checked: another program has it open, it is no crawl-errors store, a newer version made it, "
                        + "or a ClickHouse server or shard of it does not answer");
        spec.addOption(CommandSpecs.option("--db", "FILE|URL", String.class, () -> db, value -> db = value,
                "The store: a DuckDB file, or clickhouse://HOST:HTTP_PORT/DATABASE (default: $" + StoreOptions.DB_ENV + ", else "
                        + StoreOptions.DEFAULT_DB + ").").build());
        spec.addOption(CommandSpecs.option("--db-user", "USER", String.class, () -> dbUser, value -> dbUser = value,
                "The ClickHouse user (default: " + ClickHouseLocation.DEFAULT_USER + "); its password is read from $"
                        + StoreOptions.DB_PASSWORD_ENV + ", never from the command line.").build());
        this.spec = spec;
        return spec;
    }

    private CommandSpec spec;

    @Override
    public Integer call() {
        String name = db != null ? db : System.getenv(StoreOptions.DB_ENV);
        try {
            ClickHouseLocation.requireFileOrLocation(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
        }
        if (name != null && ClickHouseLocation.isLocation(name)) {
            ClickHouseLocation location;
            try {
                location = ClickHouseLocation.parse(name, dbUser, System.getenv(StoreOptions.DB_PASSWORD_ENV));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
            }
            return checkClickHouse(location);
        }
        return checkFile();
    }

    private int checkFile() {
        Path file = StoreOptions.dbPath(db == null ? null : Path.of(db));
        String shown = ShownText.of(file.toString());
        if (!Files.exists(file)) {
            System.err.println("crawl-errors: there is no store at " + shown + ": pass the --db that import and serve use (or set $"
                    + StoreOptions.DB_ENV + ")");
            return NO_STORE;
        }
        StoreContents contents;
        try {
            contents = DuckDbStoreCheck.check(file);
        } catch (StoreException e) {
            return notSound(e);
        }
        String version = contents.schemaVersion() < DuckDbHitStore.SCHEMA_VERSION
                ? "schema version " + contents.schemaVersion() + ", which the next import or serve brings to " + DuckDbHitStore.SCHEMA_VERSION
                : "schema version " + contents.schemaVersion();
        System.out.println("Store " + shown + ": sound. " + Figures.counted(contents.hits(), "crawler hit") + ", "
                + Figures.counted(contents.verdicts(), "verdict") + ", " + Figures.counted(contents.logs(), "log") + " imported; "
                + version + "; " + Figures.bytes(contents.bytes()) + ".");
        return 0;
    }

    /** Says why a check failed, and exits as a damaged store ({@link #DAMAGED}) or one that could not be checked. */
    private static int notSound(StoreException e) {
        System.err.println("crawl-errors: " + ShownText.of(Credentials.hidden(e.getMessage())));
        return e instanceof DamagedStoreException ? DAMAGED : NOT_CHECKED;
    }

    private static int checkClickHouse(ClickHouseLocation location) {
        String shown = ShownText.of(location.shown());
        Optional<ClickHouseStoreCheck.Checked> checked;
        try {
            checked = ClickHouseStoreCheck.check(location, ClickHouseSettings.SERVE);
        } catch (StoreException e) {
            return notSound(e);
        }
        if (checked.isEmpty()) {
            System.err.println("crawl-errors: there is no store at " + shown + ": pass the --db that import and serve use (its database"
                    + " is made by the first import or serve)");
            return NO_STORE;
        }
        StoreContents contents = checked.get().contents();
        int shards = checked.get().shards();
        String version = contents.schemaVersion() < ClickHouseStoreCheck.SCHEMA_VERSION
                ? "schema version " + contents.schemaVersion() + ", which the next import or serve brings to " + ClickHouseStoreCheck.SCHEMA_VERSION
                : "schema version " + contents.schemaVersion();
        System.out.println("Store " + shown + ": sound. " + Figures.counted(contents.hits(), "crawler hit") + ", "
                + Figures.counted(contents.verdicts(), "verdict") + ", " + Figures.counted(contents.logs(), "log") + " imported; "
                + version + "; " + Figures.counted(shards, "shard") + " answering, " + Figures.bytes(contents.bytes()) + ".");
        return 0;
    }
}
