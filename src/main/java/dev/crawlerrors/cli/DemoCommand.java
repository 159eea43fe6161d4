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
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseLocation;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.store.duckdb.DuckDbSettings;
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

    /** A ClickHouse store to run the demo on, instead of a DuckDB file in {@link #dir}. */
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
                "Runs the demo on ClickHouse instead, clickhouse://HOST:HTTP_PORT/DATABASE: a database that is empty or "
                        + "holds an earlier demo's store, which is emptied first.").build());
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
        Demo demo = Demo.prepare(dir);
        System.out.println("Demo log: " + demo.log() + " (the demo's IP lists, marked as demo data, are in " + demo.ipRanges() + ")");
        HitStore store = db == null
                ? DuckDbHitStore.open(demo.db(), new DuckDbSettings(0, DuckDbSettings.SERVE.memoryLimit(), server.readers))
                : ClickHouseHitStore.openAfresh(clickHouse(), new ClickHouseSettings(ClickHouseSettings.SERVE.threads(),
                        ClickHouseSettings.SERVE.memoryBytes(), server.readers));
        ImportSummary summary;
        ReportServer reportServer;
        CrawlErrorReport report = urlNames.report(store.reader(), zone);
        try {
            summary = demo.importInto(store);
            summary.print(System.out);
            List<String> lists = summary.describeLists();
            reportServer = server.start(report, store.health(), () -> lists);
        } catch (Exception e) {
            store.close();
            throw e;
        }
        String shown = db == null ? demo.db().toAbsolutePath().normalize().toString() : clickHouse().shown();
        ServeCommand.serveUntilStopped(reportServer, report, store, new ServeCommand.ServingFrom(shown, false), server.displayHost(), List.of());
        return 0;
    }

    private ClickHouseLocation clickHouse() {
        try {
            return ClickHouseLocation.parse(db, dbUser, System.getenv(StoreOptions.DB_PASSWORD_ENV));
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--db: " + e.getMessage());
        }
    }

    /** The demo's files in one directory: a fresh log, the directory of its IP lists ({@code --ip-ranges}), and a fresh store. */
    public record Demo(Path log, Path ipRanges, Path db) {

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
            return new Demo(log, ipRanges, db);
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
