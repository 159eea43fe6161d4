package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.ResolverCheck;
import dev.crawlerrors.crawler.signature.DirectoryFetcher;
import dev.crawlerrors.crawler.signature.DirectoryFiles;
import dev.crawlerrors.crawler.signature.DirectorySource;
import dev.crawlerrors.crawler.signature.KeyDirectories;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.signature.Signers;
import dev.crawlerrors.crawler.signature.WebBotAuthVerifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpListCache;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.crawler.verify.TrustedProxies;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.store.clickhouse.ClickHouseLocation;
import dev.crawlerrors.store.duckdb.DuckDbSettings;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.ShownText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Options every command that touches the store or the verdicts shares. */
final class StoreOptions {

    static final String DB_ENV = "CRAWL_ERRORS_DB";
    static final String DEFAULT_DB = "./crawl-errors.duckdb";
    static final String DB_PASSWORD_ENV = "CRAWL_ERRORS_DB_PASSWORD";

    private CommandSpec spec;

    /** The store: a DuckDB file, or a store's URL on another engine ({@link StoreEngines}). */
    String db;

    /** What {@link #db} names, once read. */
    private StoreAddress address;

    String dbUser;

    final TimeZoneOption timezone = new TimeZoneOption();

    String ipRanges;

    Path crawlers;

    String dnsServer;

    String dbMemory;

    Integer dbThreads;

    String dnsCanary;

    String trustedProxies;

    Path signatureDirectories;

    String signatureHosts;

    /**
     * Adds {@code --db}, {@code --timezone}, {@code --ip-ranges}, {@code --crawlers}, {@code --dns-server},
     * {@code --dns-canary}, {@code --trusted-proxies}, {@code --signature-directories} and
     * {@code --signature-hosts} to {@code command}.
     */
    StoreOptions addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.option("--db", "FILE|URL", String.class, () -> db, value -> {
                    db = value;
                    address = null; // a command run again with another --db reads it again
                },
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
                        + " to serve, " + DuckDbSettings.IMPORT.memoryLimit() + " to import, " + DuckDbSettings.IMPORT.appendMemory()
                        + " of it while it appends hits); beyond it, it spills to disk "
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
        command.addOption(CommandSpecs.option("--signature-directories", "DIR", Path.class, () -> signatureDirectories,
                value -> signatureDirectories = value, "Web Bot Auth key directories read from files instead of the network: one "
                        + "JWK set a file, named after its signer's host (chatgpt.com.json; HOST:PORT.json for another port than "
                        + "443). Each read is kept in the store's key history as a fetched one is.").build());
        command.addOption(CommandSpecs.option("--signature-hosts", "HOST[:PORT][,...]", String.class, () -> signatureHosts,
                value -> signatureHosts = value, "The hosts whose Web Bot Auth key directories may be fetched, over HTTPS, "
                        + "from public addresses only (default: the hosts of the signers the catalog names, such as chatgpt.com); none "
                        + "fetches from no host.").build());
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
        return dbName(db);
    }

    /** The store {@code --db} names, else {@code $CRAWL_ERRORS_DB}, else {@link #DEFAULT_DB}, as given. */
    static String dbName(String db) {
        if (db != null) {
            return db;
        }
        String env = System.getenv(DB_ENV);
        return env != null && !env.isBlank() ? env : DEFAULT_DB;
    }

    /** The store {@code --db} names, on its engine, read once: a name no engine takes is a usage error. */
    StoreAddress address() {
        if (address == null) {
            try {
                address = StoreEngines.address(dbName(), dbUser, System.getenv(DB_PASSWORD_ENV));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
            }
        }
        return address;
    }

    /** The store as it is shown to the user (a file, absolute; a URL without user or password). */
    String shownStore() {
        return address().shown();
    }

    /**
     * Checks the values of the options before anything is made: a bad {@code --timezone},
     * {@code --db}, {@code --db-threads}, {@code --db-memory}, {@code --ip-ranges} or {@code --dns-server}
     * is a usage error (exit 2) that leaves no store file behind. The catalog of {@code --crawlers} is
     * read by {@link #catalog()}.
     */
    void validate() {
        address();
        zone();
        limits(null);
        ipRangeSource();
        if (signatureDirectories != null && !Files.isDirectory(signatureDirectories)) {
            throw new ParameterException(spec.commandLine(), "--signature-directories: " + ShownText.of(signatureDirectories.toString())
                    + " is not a directory");
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
     * Whether the store exists: one this command makes is removed again when its start fails
     * ({@link #removeIfMadeNow}). A store on a server is taken as existing (its database is the
     * operator's, never removed).
     */
    boolean storeExists() {
        return address().exists();
    }

    /**
     * Removes the store when the command made it ({@code existed} is {@link #storeExists()} before
     * it opened the store): a start that failed leaves nothing behind. Call once the store is closed.
     */
    void removeIfMadeNow(boolean existed) {
        try {
            address().removeIfMadeNow(existed);
        } catch (StoreException e) {
            System.err.println("crawl-errors: " + ShownText.of(Failures.message(e)));
        }
    }

    ZoneId zone() {
        return timezone.zone();
    }

    IpRangeSource ipRangeSource() {
        try {
            // a store on a server keeps its lists where the default file would be
            Path beside = address().file().orElse(Path.of(DEFAULT_DB).toAbsolutePath().normalize());
            return IpRangeSource.parse(ipRanges, IpListCache.besideStore(beside));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** How long one DNS query may take; a crawler's check asks two or three. */
    static final Duration DNS_TIMEOUT = Duration.ofSeconds(2);
    /** DNS queries outstanding at most: enough for a cold import, gentle on the resolver. */
    static final int DNS_IN_FLIGHT = 256;
    static final int DNS_CACHED_ANSWERS = 200_000;

    /**
     * Who verifies signed requests, as {@code --signature-directories} and {@code --signature-hosts}
     * say: the files of the one, else the network, from the hosts of the other or the catalog's signers.
     */
    SignedHits signedHits(CrawlerCatalog catalog) {
        Signers signers = new Signers(catalog);
        DirectorySource source;
        if (signatureDirectories != null) {
            if (!Files.isDirectory(signatureDirectories)) {
                throw new ParameterException(spec.commandLine(), "--signature-directories: " + ShownText.of(signatureDirectories.toString())
                        + " is not a directory");
            }
            source = new DirectoryFiles(signatureDirectories);
        } else {
            Set<String> hosts = signatureHosts == null ? signers.publishedHosts()
                    : signatureHosts.equalsIgnoreCase("none") ? Set.of() : DirectoryFetcher.hosts(signatureHosts);
            source = new DirectoryFetcher(hosts, null);
        }
        return new SignedHits(new WebBotAuthVerifier(new KeyDirectories(source)), signers);
    }

    /** Lists and DNS together, as the options say. */
    CrawlerVerifier verifier(CrawlerCatalog catalog) {
        CrawlerVerifier verifier = addressVerifier(catalog);
        verifier.signatures(signedHits(catalog));
        return verifier;
    }

    /** Lists and DNS, without signatures. */
    private CrawlerVerifier addressVerifier(CrawlerCatalog catalog) {
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
     * The store to serve from, with {@code readers} connections for report requests, once its newest
     * hits are read as the report's first page reads them ({@link StoreHealth#checkNewest}; serve reads
     * the rest once it serves): a damaged store is refused in one sentence that says what to do.
     */
    HitStore openStore(int readers) {
        return checked(() -> address().open(limits(readers)), StoreHealth::checkNewest);
    }

    /**
     * The store to serve from, as {@link #openStore(int)} but not yet checked: serve reads its newest
     * hits ({@link StoreHealth#checkNewest}) beside its server's start and refuses it as that does.
     */
    HitStore openStoreToCheck(int readers) {
        return checked(() -> address().open(limits(readers)), health -> { });
    }

    /**
     * The store for an import, checked as {@link #openStore(int)}: its engine's defaults for an
     * import where the options say nothing; written through the serve that has it, when one does.
     */
    WritableStore openStoreForImport() {
        return checked(() -> address().openForImport(limits(null), waits -> System.err.println("crawl-errors: " + ShownText.of(waits))),
                StoreHealth::checkReadable);
    }

    /** What {@code --db-threads} and {@code --db-memory} ask, {@code readers} beside them; a value no engine can take is a usage error. */
    private StoreLimits limits(Integer readers) {
        try {
            return new StoreLimits(dbThreads, dbMemory, readers);
        } catch (StoreLimits.Refused e) {
            throw refused(e);
        }
    }

    private ParameterException refused(StoreLimits.Refused e) {
        String option = e.limit() == StoreLimits.Limit.THREADS ? "--db-threads" : "--db-memory";
        return new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
    }

    /** {@code opening}'s store once {@code check} passes; a limit its engine cannot take is a usage error. */
    private <S extends WritableStore> S checked(Supplier<S> opening, Consumer<StoreHealth> check) {
        S store;
        try {
            store = opening.get();
        } catch (StoreLimits.Refused e) {
            throw refused(e);
        }
        try {
            check.accept(store.health());
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
