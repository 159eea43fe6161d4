package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpListCache;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseLocation;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.store.duckdb.DuckDbSettings;
import dev.crawlerrors.store.remote.ServedStore;
import dev.crawlerrors.store.remote.StoreSocketClient;
import dev.crawlerrors.text.ShownText;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Options every command that touches the store or the verdicts shares. */
final class StoreOptions {

    static final String DB_ENV = "CRAWL_ERRORS_DB";
    static final String DEFAULT_DB = "./crawl-errors.duckdb";
    static final String DB_PASSWORD_ENV = "CRAWL_ERRORS_DB_PASSWORD";

    private CommandSpec spec;

    /** A DuckDB file, or a ClickHouse store's URL ({@link ClickHouseLocation}). */
    String db;

    String dbUser;

    final TimeZoneOption timezone = new TimeZoneOption();

    String ipRanges;

    Path crawlers;

    String dnsServer;

    String dbMemory;

    Integer dbThreads;

    /** Adds {@code --db}, {@code --timezone}, {@code --ip-ranges}, {@code --crawlers} and {@code --dns-server} to {@code command}. */
    StoreOptions addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.option("--db", "FILE|URL", String.class, () -> db, value -> db = value,
                "The store: a DuckDB file, or a ClickHouse server or cluster as clickhouse://HOST:HTTP_PORT/DATABASE "
                        + "(default: $" + DB_ENV + ", else " + DEFAULT_DB + ").").build());
        command.addOption(CommandSpecs.option("--db-user", "USER", String.class, () -> dbUser, value -> dbUser = value,
                "The ClickHouse user (default: " + ClickHouseLocation.DEFAULT_USER + "); its password is read from $"
                        + DB_PASSWORD_ENV + ", never from the command line.").build());
        timezone.addTo(command);
        command.addOption(CommandSpecs.option("--ip-ranges", "DIR|URL", String.class, () -> ipRanges, value -> ipRanges = value,
                "Where the crawlers' published IP lists are read from: a directory holding them under their "
                        + "published names, or a base URL (default: the operators' official addresses).").build());
        command.addOption(CommandSpecs.option("--crawlers", "FILE", Path.class, () -> crawlers, value -> crawlers = value,
                "A crawler catalog (JSON, the shape of the built-in crawlers.json) laid over the built-in one: "
                        + "same names replace, new names are added.").build());
        command.addOption(CommandSpecs.option("--dns-server", "HOST[:PORT]|none", String.class, () -> dnsServer,
                value -> dnsServer = value, "Resolver for the reverse-then-forward DNS checks of crawlers whose operators "
                        + "document them (default: the system's resolver); none turns DNS checks off.").build());
        command.addOption(CommandSpecs.option("--db-memory", "SIZE", String.class, () -> dbMemory, value -> dbMemory = value,
                "The memory DuckDB may use, such as 512MB or 2GB (default: " + DuckDbSettings.SERVE.memoryLimit()
                        + " to serve, " + DuckDbSettings.IMPORT.memoryLimit() + " to import); beyond it, it spills to disk "
                        + "or refuses a query. On ClickHouse, what one query may take on each server (max_memory_usage, "
                        + "default 1GiB).").build());
        command.addOption(CommandSpecs.option("--db-threads", "N", Integer.class, () -> dbThreads, value -> dbThreads = value,
                "DuckDB's worker threads (default: one per core to serve, one to import); on ClickHouse, the threads "
                        + "one query may use on each server (max_threads, default 4 to serve).").build());
        return this;
    }

    /** Whether {@code --crawlers} names a catalog of the user's own (which may be wrong; the built-in one cannot be). */
    boolean hasOwnCatalog() {
        return crawlers != null;
    }

    /** The built-in crawler catalog, extended with {@code --crawlers} when given. */
    CrawlerCatalog catalog() {
        CrawlerCatalog builtIn = CrawlerCatalog.builtIn();
        if (crawlers == null) {
            return builtIn;
        }
        try {
            return builtIn.extendedWith(crawlers);
        } catch (java.io.IOException e) {
            throw new ParameterException(spec.commandLine(), "--crawlers: " + e.getMessage());
        }
    }

    /** The store {@code --db} names, as given (the environment's or the default when it names none). */
    String dbName() {
        if (db != null) {
            return db;
        }
        String env = System.getenv(DB_ENV);
        return env != null && !env.isBlank() ? env : DEFAULT_DB;
    }

    /** Whether the store is on ClickHouse. */
    boolean onClickHouse() {
        return ClickHouseLocation.isLocation(dbName());
    }

    /** The DuckDB file; for a ClickHouse store, the default file's place (where the IP lists are cached). */
    Path dbPath() {
        return onClickHouse() ? Path.of(DEFAULT_DB) : Path.of(dbName());
    }

    /** The store as it is shown to the user (a ClickHouse URL without user or password). */
    String shownStore() {
        return onClickHouse() ? clickHouse().shown() : dbPath().toAbsolutePath().normalize().toString();
    }

    ClickHouseLocation clickHouse() {
        try {
            return ClickHouseLocation.parse(dbName(), dbUser, System.getenv(DB_PASSWORD_ENV));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
        }
    }

    ZoneId zone() {
        return timezone.zone();
    }

    IpRangeSource ipRangeSource() {
        try {
            return IpRangeSource.parse(ipRanges, IpListCache.besideStore(dbPath()));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** How long one DNS query may take; a crawler's check asks two or three. */
    static final Duration DNS_TIMEOUT = Duration.ofSeconds(2);
    /** DNS queries outstanding at most: enough for a cold import, gentle on the resolver. */
    static final int DNS_IN_FLIGHT = 256;
    static final int DNS_CACHED_ANSWERS = 200_000;

    /** Lists and DNS together, as the options say. */
    CrawlerVerifier verifier(CrawlerCatalog catalog) {
        IpRangeVerifier lists = new IpRangeVerifier(catalog, ipRangeSource());
        if (dnsServer != null && dnsServer.equalsIgnoreCase("none")) {
            return new CrawlerVerifier(lists, null);
        }
        try {
            return new CrawlerVerifier(lists, new DnsVerifier(dnsServer, DNS_TIMEOUT, DNS_IN_FLIGHT,
                    DNS_CACHED_ANSWERS, DNS_CACHED_ANSWERS));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--dns-server: " + e.getMessage());
        }
    }

    /** The store to serve from, with {@code readers} connections for report requests. */
    HitStore openStore(int readers) {
        if (onClickHouse()) {
            return ClickHouseHitStore.open(clickHouse(), clickHouseSettings(ClickHouseSettings.SERVE, readers));
        }
        try {
            return DuckDbHitStore.open(dbPath(), settings(DuckDbSettings.SERVE, readers));
        } catch (StoreException e) {
            throw whoHas(e);
        }
    }

    HitStore openStore() {
        return openStore(DuckDbSettings.SERVE.readers());
    }

    /** ClickHouse's settings from --db-memory (max_memory_usage) and --db-threads (max_threads). */
    ClickHouseSettings clickHouseSettings(ClickHouseSettings defaults, int readers) {
        try {
            return new ClickHouseSettings(dbThreads == null ? defaults.threads() : dbThreads,
                    dbMemory == null ? defaults.memoryBytes() : ClickHouseSettings.bytes(dbMemory), readers);
        } catch (IllegalArgumentException e) {
            String option = e.getMessage().startsWith("ClickHouse's threads") ? "--db-threads" : "--db-memory";
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
    }

    /** The DuckDB settings the options give, {@code defaults} where they say nothing. */
    DuckDbSettings settings(DuckDbSettings defaults, int readers) {
        try {
            return new DuckDbSettings(dbThreads == null ? defaults.threads() : dbThreads,
                    dbMemory == null ? defaults.memoryLimit() : dbMemory.strip(), readers);
        } catch (IllegalArgumentException e) {
            String option = e.getMessage().startsWith("DuckDB's threads") ? "--db-threads" : "--db-memory";
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
    }

    /** The store for an import: DuckDB gets one worker thread, the parsers the cores. */
    /**
     * The store for an import: DuckDB gets one worker thread, the parsers the cores. When a running
     * {@code serve} has the store open, the import writes through that serve instead. A ClickHouse
     * store takes many writers itself: an import opens it, never a serve's socket.
     */
    HitStore openStoreForImport() {
        if (onClickHouse()) {
            return ClickHouseHitStore.open(clickHouse(), clickHouseSettings(ClickHouseSettings.IMPORT, ClickHouseSettings.IMPORT.readers()));
        }
        try {
            return DuckDbHitStore.open(dbPath(), settings(DuckDbSettings.IMPORT, DuckDbSettings.IMPORT.readers()));
        } catch (StoreException e) {
            if (lockHolder(e) != null) {
                Optional<ServedStore> served = ServedStore.find(dbPath());
                if (served.isPresent()) {
                    return StoreSocketClient.connect(served.get());
                }
            }
            throw whoHas(e);
        }
    }

    /**
     * What to say when the store could not be opened because another process has it: a serve
     * (which imports write through, but a second serve cannot share), or another import.
     */
    private StoreException whoHas(StoreException e) {
        Long pid = lockHolder(e);
        if (pid == null) {
            return e;
        }
        String store = ShownText.of(dbPath().toAbsolutePath().normalize().toString());
        Optional<ServedStore> served = ServedStore.find(dbPath());
        if (served.isPresent()) {
            return new StoreException("the store " + store + " is served by crawl-errors serve (PID " + served.get().pid()
                    + ", " + served.get().report() + "); one serve per store: stop that one first, or give this one another --db", e);
        }
        return new StoreException("the store " + store + " is open in another process (PID " + pid + "), most likely an import: "
                + "run this when it has finished", e);
    }

    /** The process DuckDB names as holding the store's lock, or null when {@code e} is about something else. */
    private static Long lockHolder(StoreException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("Could not set lock on file")) {
                java.util.regex.Matcher pid = java.util.regex.Pattern.compile("PID (\\d+)").matcher(message);
                return pid.find() ? Long.valueOf(pid.group(1)) : Long.valueOf(-1);
            }
        }
        return null;
    }
}
