package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.ResolverCheck;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpListCache;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseLocation;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.crawler.verify.TrustedProxies;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.store.duckdb.DuckDbSettings;
import dev.crawlerrors.store.remote.ServedStore;
import dev.crawlerrors.store.remote.StoreSocketClient;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.ShownText;
import java.io.IOException;
import java.nio.file.Files;
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

    String dnsCanary;

    String trustedProxies;

    /**
     * Adds {@code --db}, {@code --timezone}, {@code --ip-ranges}, {@code --crawlers}, {@code --dns-server},
     * {@code --dns-canary} and {@code --trusted-proxies} to {@code command}.
     */
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
        command.addOption(CommandSpecs.option("--dns-canary", "IP=NAME-PATTERN|none", String.class, () -> dnsCanary,
                value -> dnsCanary = value, "An address whose reverse DNS must match NAME-PATTERN and resolve back to it: the "
                        + "resolver is checked against it before its answers count, and DNS-only verdicts stay unverified when it "
                        + "fails (default: " + ResolverCheck.DEFAULT_CANARY + "); none believes the resolver unchecked.").build());
        command.addOption(CommandSpecs.option("--trusted-proxies", "CIDR[,CIDR...]", String.class, () -> trustedProxies,
                value -> trustedProxies = value, "Proxies in front of the server (a CDN, a load balancer): where the logged "
                        + "address is one of them, the client is the rightmost address of X-Forwarded-For (or CF-Connecting-IP, "
                        + "True-Client-IP) that is not, as the log format records it. No range is trusted by default, private ones neither.").build());
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

    /**
     * The store's file, absolute: every summary and serve's start line name it so, wherever the
     * command ran. For a ClickHouse store, the default file's place (where the IP lists are cached).
     */
    Path dbPath() {
        return dbPath(onClickHouse() ? Path.of(DEFAULT_DB) : Path.of(dbName()));
    }

    /** The store {@code --db} names, else {@code $CRAWL_ERRORS_DB}, else {@link #DEFAULT_DB} in the working directory; absolute. */
    static Path dbPath(Path db) {
        if (db == null) {
            String env = System.getenv(DB_ENV);
            db = Path.of(env != null && !env.isBlank() ? env : DEFAULT_DB);
        }
        return db.toAbsolutePath().normalize();
    }

    /** The store as it is shown to the user (a ClickHouse URL without user or password, else the file, absolute). */
    String shownStore() {
        return onClickHouse() ? clickHouse().shown() : dbPath().toString();
    }

    ClickHouseLocation clickHouse() {
        try {
            return ClickHouseLocation.parse(dbName(), dbUser, System.getenv(DB_PASSWORD_ENV));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
        }
    }

    /**
     * Checks the values of the options before anything is made: a bad {@code --timezone},
     * {@code --ip-ranges}, {@code --dns-server} or ClickHouse URL is a usage error (exit 2) that
     * leaves no store file behind. The catalog of {@code --crawlers} is read by {@link #catalog()}.
     */
    void validate() {
        try {
            ClickHouseLocation.requireFileOrLocation(dbName());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
        }
        zone();
        ipRangeSource();
        if (onClickHouse()) {
            clickHouse();
        }
        if (dnsServer != null && !dnsServer.equalsIgnoreCase("none")) {
            try {
                DnsVerifier.serverAddress(dnsServer);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--dns-server: " + e.getMessage());
            }
        }
    }

    /**
     * Whether the store's file exists: one this command makes is removed again when its start fails
     * ({@link #removeIfMadeNow}). A ClickHouse store is taken as existing (its database is the
     * operator's, never removed), and the default DuckDB file is not looked at for it.
     */
    boolean storeExists() {
        return onClickHouse() || Files.exists(dbPath());
    }

    /**
     * Removes the store's file and its write-ahead log when the command made them ({@code existed}
     * is {@link #storeExists()} before it opened the store): a start that failed leaves nothing
     * behind. Call once the store is closed. Never anything for a ClickHouse store.
     */
    void removeIfMadeNow(boolean existed) {
        if (existed || onClickHouse()) {
            return;
        }
        Path file = dbPath();
        try {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".wal"));
            Files.deleteIfExists(file);
        } catch (IOException e) {
            System.err.println("crawl-errors: the new store " + ShownText.of(file.toString()) + " could not be removed ("
                    + ShownText.of(Failures.message(e)) + ")");
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
        TrustedProxies proxies = trustedProxies();
        if (dnsServer != null && dnsServer.equalsIgnoreCase("none")) {
            return new CrawlerVerifier(lists, null, null, proxies);
        }
        DnsVerifier dns;
        try {
            dns = new DnsVerifier(dnsServer, DNS_TIMEOUT, DNS_IN_FLIGHT, DNS_CACHED_ANSWERS, DNS_CACHED_ANSWERS);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--dns-server: " + e.getMessage());
        }
        if (dnsCanary != null && dnsCanary.equalsIgnoreCase("none")) {
            return new CrawlerVerifier(lists, dns, null, proxies);
        }
        try {
            return new CrawlerVerifier(lists, dns, ResolverCheck.of(dns, dnsCanary == null ? ResolverCheck.DEFAULT_CANARY : dnsCanary),
                    proxies);
        } catch (IllegalArgumentException e) {
            dns.close();
            throw new ParameterException(spec.commandLine(), "--dns-canary: " + e.getMessage());
        }
    }

    /** {@code --trusted-proxies}, parsed. */
    TrustedProxies trustedProxies() {
        if (trustedProxies == null) {
            return TrustedProxies.NONE;
        }
        try {
            return TrustedProxies.parse(trustedProxies);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--trusted-proxies: " + e.getMessage());
        }
    }

    /**
     * The store to serve from, with {@code readers} connections for report requests, once read as
     * the report reads it: a damaged store is refused in one sentence that says what to do.
     */
    HitStore openStore(int readers) {
        if (onClickHouse()) {
            return checked(ClickHouseHitStore.open(clickHouse(), clickHouseSettings(ClickHouseSettings.SERVE, readers)));
        }
        try {
            return checked(DuckDbHitStore.open(dbPath(), settings(DuckDbSettings.SERVE, readers)));
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

    /**
     * The store for an import: DuckDB gets one worker thread, the parsers the cores; checked as
     * {@link #openStore(int)}. When a running {@code serve} has the store open, the import writes
     * through that serve instead. A ClickHouse store takes many writers itself: an import opens it,
     * never a serve's socket.
     */
    HitStore openStoreForImport() {
        if (onClickHouse()) {
            return checked(ClickHouseHitStore.open(clickHouse(), clickHouseSettings(ClickHouseSettings.IMPORT, ClickHouseSettings.IMPORT.readers())));
        }
        try {
            return checked(DuckDbHitStore.open(dbPath(), settings(DuckDbSettings.IMPORT, DuckDbSettings.IMPORT.readers())));
        } catch (StoreException e) {
            if (lockHolder(e) != null) {
                Optional<ServedStore> served = ServedStore.find(dbPath());
                if (served.isPresent()) {
                    return StoreSocketClient.connect(served.get(), waits -> System.err.println("crawl-errors: " + ShownText.of(waits)));
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

    private static <S extends HitStore> S checked(S store) {
        try {
            store.checkReadable();
            return store;
        } catch (RuntimeException e) {
            try {
                store.close();
            } catch (RuntimeException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
    }
}
