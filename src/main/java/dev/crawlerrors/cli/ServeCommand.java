package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.pipeline.FollowedLogs;
import dev.crawlerrors.pipeline.LiveSource;
import dev.crawlerrors.pipeline.PushedLines;
import dev.crawlerrors.pipeline.VerdictRechecks;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportRequest;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.remote.ServedStore;
import dev.crawlerrors.store.remote.StoreSocketServer;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.ShownText;
import dev.crawlerrors.web.ReportServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crawl-errors serve}: serves the report from the store until stopped. */
final class ServeCommand implements Callable<Integer> {

    final StoreOptions store = new StoreOptions();

    final ServerOptions server = new ServerOptions();

    final PushedSourceOptions pushed = new PushedSourceOptions();

    List<Path> follow = new ArrayList<>();

    final FormatOption format = new FormatOption();

    /** The command, bound to this object. */
    CommandSpec spec() {
        CommandSpec spec = CommandSpecs.command(this, "serve",
                "Serves the report over HTTP until stopped. It can take lines in while it serves: it tails logs as they "
                        + "grow (--follow), listens for syslog (--syslog; nginx: access_log syslog:server=127.0.0.1:5140;), and takes "
                        + "batches POSTed to a log drain on a port of its own (--ingest-port, --ingest-token-file):",
                "  curl -H \"Authorization: Bearer $(cat ingest.token)\" \\",
                "       --data-binary @access.log 'http://127.0.0.1:8081/ingest?format=combined'",
                "The drain answers once the batch is stored, with what it came to (JSON: lines, parsed, bad by reason, crawlerHits, "
                        + "firstBad); the report's own port stays read-only.");
        store.addTo(spec);
        server.addTo(spec);
        pushed.addTo(spec);
        spec.addOption(CommandSpecs.listOption("--follow", "FILE", Path.class, () -> follow, value -> follow = value,
                "A log to tail into the store while serving, like tail -F: it survives rotation (rename or "
                        + "copytruncate), may appear later, and a restart reads on where the last run stopped. Repeatable.").build());
        format.addTo(spec);
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        // notices name files and quote log lines, syslog frames and batches: shown with their controls escaped
        Consumer<String> notices = notice -> System.out.println(ShownText.of(notice));
        Consumer<String> followNotices = notice -> notices.accept("follow: " + notice);
        // a bad --format, --syslog or drain option is refused before anything starts. What the user should know of the
        // format itself (common lines carry no agent) is said once, by the followed logs' chooser, plainly without them
        FormatChooser formats = format.chooser(follow.isEmpty() ? notices : followNotices);
        // pushed batches are detected one by one: the syslog listener says when their format changes, and the drain's
        // answer names it, so the chooser says nothing per batch
        FormatChooser pushedFormats = format.liveChooser(notice -> { });
        pushed.check();
        CrawlerCatalog catalog = store.catalog();
        HitStore hits = store.openStore(server.readers);
        CrawlerVerifier verifier = store.verifier(catalog);
        VerdictRechecks rechecks = new VerdictRechecks(hits, catalog, verifier);
        CrawlerIdentifier identifier = new CrawlerIdentifier(catalog);
        // fetch every published list now (in the background: a slow host must not delay serving)
        Thread.ofPlatform().daemon().name("ip-lists").start(verifier.lists()::loadAll);
        rechecks.start();
        // started in this order, and stopped in it before what stores their lines
        List<LiveSource> sources = new ArrayList<>();
        PushedLines lines = pushed.any() ? new PushedLines(hits, identifier, verifier) : null;
        if (lines != null) {
            sources.addAll(pushed.sources(server, pushedFormats, lines, notices));
        }
        if (!follow.isEmpty()) {
            sources.add(new FollowedLogs(follow, formats, hits, identifier, verifier, followNotices));
        }
        LiveSource.startAll(sources);
        List<AutoCloseable> feeds = new ArrayList<>();
        // an import of this store writes through this serve while it has the store open; ClickHouse takes
        // every import itself, so a serve of it listens for none (and claims no DuckDB file's place)
        Path db = store.dbPath();
        StoreSocketServer imports = store.onClickHouse() ? null : startImportSocket(hits, db);
        if (imports != null) {
            feeds.add(imports);
        }
        feeds.addAll(sources);
        if (lines != null) {
            feeds.add(lines);
        }
        // stopped in this order: nothing may reach the store or the verifier after they close
        feeds.add(rechecks);
        feeds.add(verifier);
        ServedStore[] served = new ServedStore[1];
        feeds.add(() -> {
            if (served[0] != null) {
                served[0].release();
            }
        });
        serveUntilStopped(hits, new CrawlErrorReport(hits, store.zone()), server, verifier.lists()::describeLists, feeds, report -> {
            if (imports == null) {
                return;
            }
            try {
                served[0] = ServedStore.claim(db, imports.path(), report);
            } catch (IOException e) {
                System.err.println("crawl-errors: " + ShownText.of(ServedStore.fileOf(db) + " cannot be written (" + Failures.message(e)
                        + "): an import of this store will not find this serve, and fail while it runs"));
            }
        });
        return 0;
    }

    private static StoreSocketServer startImportSocket(HitStore hits, Path db) throws IOException {
        Path socket = ServedStore.socketOf(db);
        try {
            return StoreSocketServer.start(hits, socket);
        } catch (IOException e) {
            hits.close();
            throw new IOException("cannot listen for imports on " + socket + " (" + Failures.message(e) + ")", e);
        }
    }

    /** Serves until the JVM is asked to stop (SIGINT/SIGTERM), then closes the server and the store. */
    static void serveUntilStopped(HitStore hits, CrawlErrorReport report, ServerOptions options,
            Supplier<List<String>> evidenceSources) throws InterruptedException {
        serveUntilStopped(hits, report, options, evidenceSources, List.of());
    }

    /**
     * Serves until the JVM is asked to stop (SIGINT/SIGTERM), then closes the server, {@code feeds}
     * in their order (what writes to the store), and the store last. {@code evidenceSources} are the
     * published IP lists shown under the report.
     */
    static void serveUntilStopped(HitStore hits, CrawlErrorReport report, ServerOptions options,
            Supplier<List<String>> evidenceSources, List<AutoCloseable> feeds) throws InterruptedException {
        serveUntilStopped(hits, report, options, evidenceSources, feeds, url -> { });
    }

    /** As above; {@code serving} is told the report's address once the server listens. */
    static void serveUntilStopped(HitStore hits, CrawlErrorReport report, ServerOptions options,
            Supplier<List<String>> evidenceSources, List<AutoCloseable> feeds, Consumer<String> serving) throws InterruptedException {
        ReportServer server = options.start(report, hits, evidenceSources);
        // the report's first page is counted now, not when the first reader asks for it
        Thread.ofPlatform().daemon().name("report-warm-up").start(() -> {
            try {
                report.page(ReportRequest.FIRST_PAGE);
            } catch (RuntimeException e) {
                // the first reader's request will say what is wrong
            }
        });
        serving.accept("http://" + options.displayHost() + ":" + server.port() + "/crawl-errors");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            for (AutoCloseable feed : feeds) {
                try {
                    feed.close();
                } catch (Exception e) {
                    System.err.println("crawl-errors: stopping " + feed.getClass().getSimpleName() + " failed: " + ShownText.of(e.getMessage()));
                }
            }
            hits.close();
            stopped.countDown();
        }, "shutdown"));
        System.out.println("Store: " + ShownText.of(hits.describe()) + ".");
        System.out.println("Serving the report at http://" + options.displayHost() + ":" + server.port() + "/crawl-errors"
                + " (times in " + report.zone() + "); Ctrl-C stops.");
        stopped.await();
    }
}
