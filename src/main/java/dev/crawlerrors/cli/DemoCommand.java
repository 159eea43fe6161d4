package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.pipeline.ImportSummary;
import dev.crawlerrors.pipeline.LogImport;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.web.ReportServer;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crawl-errors demo}: generates the bundled demo log, imports it into a fresh store, and serves the report. */
public final class DemoCommand implements Callable<Integer> {

    final ServerOptions server = new ServerOptions();

    final TimeZoneOption timezone = new TimeZoneOption();

    final UrlNamesOption urlNames = new UrlNamesOption();

    Path dir;

    private CommandSpec spec;

    /** A store to run the demo on (a ClickHouse URL), instead of a DuckDB file in {@link #dir}. */
    String db;

    String dbUser;

    /** The command, bound to this object. */
    CommandSpec spec() {
        spec = CommandSpecs.command(this, "demo",
                "Generates the bundled demo access log (a street-information site: 226 error hits, page 3 holds 26 rows), "
                        + "imports it into a fresh store and serves the report.");
        server.addTo(spec);
        timezone.addTo(spec);
        urlNames.addTo(spec, List.of(DemoLog.URL_NAMES));
        spec.addOption(CommandSpecs.option("--dir", "DIR", Path.class, () -> dir, value -> dir = value,
                "Where the demo's log, IP list and store are written (default: ./${DEFAULT-VALUE}).").defaultValue("crawl-errors-demo").build());
        spec.addOption(CommandSpecs.option("--db", "URL", String.class, () -> db, value -> db = value,
                "Runs the demo on another store instead: clickhouse://HOST:HTTP_PORT/DATABASE, a database that is empty or "
                        + "holds an earlier demo's store, which is emptied first; or a DuckDB file that does not exist yet.").build());
        spec.addOption(CommandSpecs.option("--db-user", "USER", String.class, () -> dbUser, value -> dbUser = value,
                "The ClickHouse user (default: default); its password is read from $" + StoreOptions.DB_PASSWORD_ENV + ".").build());
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        // a bad --timezone, --bind or --url-names, a busy --port: refused before the demo's files are written
        ZoneId zone = timezone.zone();
        server.check();
        urlNames.check();
        StoreAddress given = db == null ? null : address(db);
        Demo demo = Demo.prepare(dir);
        System.out.println("Demo log: " + demo.log() + " (the demo's IP lists, marked as demo data, are in " + demo.ipRanges() + ")");
        StoreAddress address = given != null ? given : address(demo.db().toString());
        HitStore store = address.openAfresh(new StoreLimits(null, null, server.readers));
        ImportSummary summary;
        ReportServer reportServer;
        CrawlErrorReport report = urlNames.report(store.reader(), zone);
        try {
            summary = demo.importInto(store);
            summary.print(System.out);
            demo.readSitemap(store, System.out::println);
            List<String> lists = summary.describeLists();
            reportServer = server.start(report, store.health(), server.config().withEvidence(() -> lists));
        } catch (Exception e) {
            store.close();
            throw e;
        }
        ServeCommand.serveUntilStopped(reportServer, report, store, new ServeCommand.ServingFrom(address.shown(), false), server.displayHost(),
                List.of());
        return 0;
    }

    /** The store {@code name} names, on its engine; a bad {@code --db} is a usage error. */
    private StoreAddress address(String name) {
        try {
            return StoreEngines.address(name, dbUser, System.getenv(StoreOptions.DB_PASSWORD_ENV));
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--db: " + e.getMessage());
        }
    }

    /** The demo's files in one directory: a fresh log, the directory of its IP lists ({@code --ip-ranges}), a fresh store, the site's sitemap. */
    public record Demo(Path log, Path ipRanges, Path db, Path sitemap) {

        public static Demo prepare(Path dir) throws IOException {
            Files.createDirectories(dir);
            Path log = dir.resolve("access.log");
            try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                DemoLog.write(out);
            }
            Path ipRanges = dir.resolve("ip-ranges");
            DemoLog.writeIpLists(ipRanges);
            Path db = dir.resolve("demo.duckdb");
            Files.deleteIfExists(db);
            Files.deleteIfExists(dir.resolve("demo.duckdb.wal"));
            Path sitemap = dir.resolve("sitemap.xml");
            try (Writer out = Files.newBufferedWriter(sitemap, StandardCharsets.UTF_8)) {
                DemoLog.writeSitemap(out);
            }
            return new Demo(log, ipRanges, db, sitemap);
        }

        /** Reads the demo site's sitemap into {@code store}, as {@code import --sitemap} does, saying what it came to to {@code notices}. */
        public void readSitemap(WritableStore store, java.util.function.Consumer<String> notices) {
            new dev.crawlerrors.pipeline.SitemapReads(List.of(sitemap.toString()),
                    new dev.crawlerrors.sitemap.SitemapReader(dev.crawlerrors.sitemap.SitemapLimits.DEFAULT), store.sitemaps(), notices).readAll();
        }

        public ImportSummary importInto(WritableStore store) throws Exception {
            CrawlerCatalog catalog = CrawlerCatalog.builtIn();
            // the demo is offline and deterministic: its own lists, no DNS
            IpRangeVerifier lists = new IpRangeVerifier(catalog, IpRangeSource.parse(ipRanges.toString()));
            try (CrawlerVerifier verifier = new CrawlerVerifier(lists, null)) {
                return new LogImport(store, new CrawlerIdentifier(catalog), verifier).run(List.of(log.toString()), ImportProgress.on(null, System.err));
            }
        }
    }
}
