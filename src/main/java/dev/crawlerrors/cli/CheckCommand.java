package dev.crawlerrors.cli;

import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreCheck;
import dev.crawlerrors.store.StoreContents;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.clickhouse.ClickHouseLocation;
import dev.crawlerrors.text.Credentials;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
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
        StoreAddress store;
        try {
            store = StoreEngines.address(StoreOptions.dbName(db), dbUser, System.getenv(StoreOptions.DB_PASSWORD_ENV));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
        }
        String shown = ShownText.of(store.shown());
        Optional<StoreCheck> checked;
        try {
            checked = store.check();
        } catch (StoreException e) {
            return notSound(e);
        }
        if (checked.isEmpty()) {
            System.err.println("crawl-errors: there is no store at " + shown + ": pass the --db that import and serve use ("
                    + store.whenMissing() + ")");
            return NO_STORE;
        }
        StoreContents contents = checked.get().contents();
        int current = checked.get().currentVersion();
        String version = contents.schemaVersion() < current
                ? "schema version " + contents.schemaVersion() + ", which the next import or serve brings to " + current
                : "schema version " + contents.schemaVersion();
        String reach = checked.get().reach() == null ? "" : checked.get().reach() + ", ";
        System.out.println("Store " + shown + ": sound. " + Figures.counted(contents.hits(), "crawler hit") + ", "
                + Figures.counted(contents.verdicts(), "verdict") + ", " + Figures.counted(contents.logs(), "log") + " imported; "
                + version + "; " + reach + Figures.bytes(contents.bytes()) + ".");
        return 0;
    }

    /** Says why a check failed, and exits as a damaged store ({@link #DAMAGED}) or one that could not be checked. */
    private static int notSound(StoreException e) {
        System.err.println("crawl-errors: " + ShownText.of(Credentials.hidden(e.getMessage())));
        return e instanceof DamagedStoreException ? DAMAGED : NOT_CHECKED;
    }
}
