package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerVerifier;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.web.ReportServer;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code crawl-errors serve}: serves the report from the store until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Serves the report over HTTP until stopped.")
final class ServeCommand implements Callable<Integer> {

    @Mixin
    StoreOptions store;

    @Mixin
    ServerOptions server;

    @Override
    public Integer call() throws Exception {
        CrawlerCatalog catalog = store.catalog();
        HitStore hits = store.openStore();
        CrawlerVerifier verifier = store.verifier(catalog);
        VerdictRechecks rechecks = new VerdictRechecks(hits, catalog, verifier);
        // fetch every published list now (in the background: a slow host must not delay serving)
        Thread.ofPlatform().daemon().name("ip-lists").start(verifier.lists()::loadAll);
        rechecks.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            rechecks.close();
            verifier.close();
        }, "verifier-shutdown"));
        serveUntilStopped(hits, new CrawlErrorReport(hits, store.zone()), server, verifier.lists()::describeLists);
        return 0;
    }

    /** Serves until the JVM is asked to stop (SIGINT/SIGTERM), then closes the server and the store. */
    static void serveUntilStopped(HitStore hits, CrawlErrorReport report, ServerOptions options,
            Supplier<List<String>> evidenceSources) throws InterruptedException {
        ReportServer server = options.start(report, hits, evidenceSources);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            hits.close();
            stopped.countDown();
        }, "shutdown"));
        System.out.println("Serving the report at http://" + options.displayHost() + ":" + server.port() + "/crawl-errors"
                + " (times in " + report.zone() + "); Ctrl-C stops.");
        stopped.await();
    }
}
