package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.CrawlerVerifier;
import dev.crawlerrors.ingest.FormatChooser;
import dev.crawlerrors.ingest.LogFormat;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.web.ReportServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code crawl-errors serve}: serves the report from the store until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serves the report over HTTP until stopped. It can take lines in while it serves: it tails logs as they "
                + "grow (--follow), listens for syslog (--syslog; nginx: access_log syslog:server=127.0.0.1:5140;), and takes "
                + "batches POSTed to a log drain on a port of its own (--ingest-port, --ingest-token-file):",
                "  curl -H \"Authorization: Bearer $(cat ingest.token)\" \\",
                "       --data-binary @access.log 'http://127.0.0.1:8081/ingest?format=combined'",
                "The drain answers once the batch is stored, with what it came to (JSON: lines, parsed, bad by reason, crawlerHits, "
                        + "firstBad); the report's own port stays read-only."})
final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions store;

    @Mixin
    ServerOptions server;

    @Option(names = "--format", defaultValue = "auto", paramLabel = "FORMAT",
            description = "Format of the lines taken in (followed logs, syslog, drain batches that name none with ?format=): "
                    + LogFormat.ACCEPTED + " (default: ${DEFAULT-VALUE}: detected from each followed log's first lines, and "
                    + "for each syslog or drain batch; lines in no format are counted as bad lines).")
    String format;

    @Mixin
    PushedSourceOptions pushed;

    @Option(names = "--follow", paramLabel = "FILE",
            description = "A log to tail into the store while serving, like tail -F: it survives rotation (rename or "
                    + "copytruncate), may appear later, and a restart reads on where the last run stopped. Repeatable.")
    List<Path> follow = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        FormatChooser formats;
        try {
            // says once what the user should know of the format (that common lines carry no agent), and each log's detection
            formats = LogFormat.liveChooser(format, System.out::println);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage());
        }
        pushed.check();
        CrawlerCatalog catalog = store.catalog();
        HitStore hits = store.openStore();
        CrawlerVerifier verifier = store.verifier(catalog);
        VerdictRechecks rechecks = new VerdictRechecks(hits, catalog, verifier);
        CrawlerIdentifier identifier = new CrawlerIdentifier(catalog);
        // fetch every published list now (in the background: a slow host must not delay serving)
        Thread.ofPlatform().daemon().name("ip-lists").start(verifier.lists()::loadAll);
        rechecks.start();
        // closed in this order: the sources that push lines, then what stores them
        List<AutoCloseable> feeds = new ArrayList<>();
        if (pushed.any()) {
            PushedLines lines = new PushedLines(hits, identifier, verifier);
            feeds.addAll(pushed.start(server, format, lines, System.out::println));
            feeds.add(lines);
        }
        if (!follow.isEmpty()) {
            FollowedLogs followed = new FollowedLogs(follow, formats, hits, identifier, verifier,
                    notice -> System.out.println("follow: " + notice));
            followed.start();
            feeds.add(followed);
        }
        // stopped in this order: nothing may reach the store or the verifier after they close
        feeds.add(rechecks);
        feeds.add(verifier);
        serveUntilStopped(hits, new CrawlErrorReport(hits, store.zone()), server, verifier.lists()::describeLists, feeds);
        return 0;
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
        ReportServer server = options.start(report, hits, evidenceSources);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            for (AutoCloseable feed : feeds) {
                try {
                    feed.close();
                } catch (Exception e) {
                    System.err.println("crawl-errors: stopping " + feed.getClass().getSimpleName() + " failed: " + e.getMessage());
                }
            }
            hits.close();
            stopped.countDown();
        }, "shutdown"));
        System.out.println("Serving the report at http://" + options.displayHost() + ":" + server.port() + "/crawl-errors"
                + " (times in " + report.zone() + "); Ctrl-C stops.");
        stopped.await();
    }
}
