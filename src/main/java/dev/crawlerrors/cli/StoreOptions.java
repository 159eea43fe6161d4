package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpListCache;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.ShownText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Options every command that touches the store or the verdicts shares. */
final class StoreOptions {

    static final String DB_ENV = "CRAWL_ERRORS_DB";
    static final String DEFAULT_DB = "./crawl-errors.duckdb";

    private CommandSpec spec;

    Path db;

    final TimeZoneOption timezone = new TimeZoneOption();

    String ipRanges;

    Path crawlers;

    String dnsServer;

    /** Adds {@code --db}, {@code --timezone}, {@code --ip-ranges}, {@code --crawlers} and {@code --dns-server} to {@code command}. */
    StoreOptions addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.option("--db", "FILE", Path.class, () -> db, value -> db = value,
                "The DuckDB store (default: $" + DB_ENV + ", else " + DEFAULT_DB + ").").build());
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

    /** The store's file, absolute: every summary and serve's start line name it so, wherever the command ran. */
    Path dbPath() {
        return dbPath(db);
    }

    /** The store {@code --db} names, else {@code $CRAWL_ERRORS_DB}, else {@link #DEFAULT_DB} in the working directory; absolute. */
    static Path dbPath(Path db) {
        if (db == null) {
            String env = System.getenv(DB_ENV);
            db = Path.of(env != null && !env.isBlank() ? env : DEFAULT_DB);
        }
        return db.toAbsolutePath().normalize();
    }

    /**
     * Checks the values of the options before anything is made: a bad {@code --timezone},
     * {@code --ip-ranges} or {@code --dns-server} is a usage error (exit 2) that leaves no store
     * file behind. The catalog of {@code --crawlers} is read by {@link #catalog()}.
     */
    void validate() {
        zone();
        ipRangeSource();
        if (dnsServer != null && !dnsServer.equalsIgnoreCase("none")) {
            try {
                DnsVerifier.serverAddress(dnsServer);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--dns-server: " + e.getMessage());
            }
        }
    }

    /** Whether the store's file exists: one this command makes is removed again when its start fails ({@link #removeIfMadeNow}). */
    boolean storeExists() {
        return Files.exists(dbPath());
    }

    /**
     * Removes the store's file and its write-ahead log when the command made them ({@code existed}
     * is {@link #storeExists()} before it opened the store): a start that failed leaves nothing
     * behind. Call once the store is closed.
     */
    void removeIfMadeNow(boolean existed) {
        if (existed) {
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

    /** The store, once read as the report reads it: a damaged store is refused in one sentence that says what to do. */
    DuckDbHitStore openStore() {
        return checked(DuckDbHitStore.open(dbPath()));
    }

    /** The store for an import: DuckDB gets one worker thread, the parsers the cores; checked as {@link #openStore()}. */
    DuckDbHitStore openStoreForImport() {
        return checked(DuckDbHitStore.open(dbPath(), 1));
    }

    private static DuckDbHitStore checked(DuckDbHitStore store) {
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
