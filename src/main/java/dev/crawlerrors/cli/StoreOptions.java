package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.ResolverCheck;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpListCache;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.crawler.verify.TrustedProxies;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
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

    String dnsCanary;

    String trustedProxies;

    /**
     * Adds {@code --db}, {@code --timezone}, {@code --ip-ranges}, {@code --crawlers}, {@code --dns-server},
     * {@code --dns-canary} and {@code --trusted-proxies} to {@code command}.
     */
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
        command.addOption(CommandSpecs.option("--dns-canary", "IP=NAME-PATTERN|none", String.class, () -> dnsCanary,
                value -> dnsCanary = value, "An address whose reverse DNS must match NAME-PATTERN and resolve back to it: the "
                        + "resolver is checked against it before its answers count, and DNS-only verdicts stay unverified when it "
                        + "fails (default: " + ResolverCheck.DEFAULT_CANARY + "); none believes the resolver unchecked.").build());
        command.addOption(CommandSpecs.option("--trusted-proxies", "CIDR[,CIDR...]", String.class, () -> trustedProxies,
                value -> trustedProxies = value, "Proxies in front of the server (a CDN, a load balancer): where the logged "
                        + "address is one of them, the client is the rightmost address of X-Forwarded-For (or CF-Connecting-IP, "
                        + "True-Client-IP) that is not, as the log format records it.").build());
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

    Path dbPath() {
        if (db != null) {
            return db;
        }
        String env = System.getenv(DB_ENV);
        return Path.of(env != null && !env.isBlank() ? env : DEFAULT_DB);
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

    DuckDbHitStore openStore() {
        return DuckDbHitStore.open(dbPath());
    }

    /** The store for an import: DuckDB gets one worker thread, the parsers the cores. */
    DuckDbHitStore openStoreForImport() {
        return DuckDbHitStore.open(dbPath(), 1);
    }
}
