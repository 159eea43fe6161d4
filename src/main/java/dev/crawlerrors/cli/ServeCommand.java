package dev.crawlerrors.cli;

import dev.crawlerrors.alert.AlertSettings;
import dev.crawlerrors.alert.Alerts;
import dev.crawlerrors.alert.HitMeters;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.pipeline.FollowedLogs;
import dev.crawlerrors.pipeline.LiveSource;
import dev.crawlerrors.pipeline.PushedLines;
import dev.crawlerrors.pipeline.SitemapReads;
import dev.crawlerrors.pipeline.VerdictRechecks;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.store.TappedStore;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.ShownText;
import dev.crawlerrors.text.Threads;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerClasses;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crawl-errors serve}: serves the report from the store until stopped. */
final class ServeCommand implements Callable<Integer> {

    /** How long the warm-up waits for the first page's summary before rendering it (a 10M-hit store counts it in 1-3 minutes). */
    static final java.time.Duration FIRST_RENDER_WAIT = java.time.Duration.ofMinutes(15);

    final StoreOptions store = new StoreOptions();

    final ServerOptions server = new ServerOptions();

    final PushedSourceOptions pushed = new PushedSourceOptions();

    List<Path> follow = new ArrayList<>();

    final FormatOption format = new FormatOption();

    final UrlNamesOption urlNames = new UrlNamesOption();

    final SitemapOptions sitemaps = new SitemapOptions();
    final AlertOptions alerting = new AlertOptions();

    /** Counted down, it stops serving as Ctrl-C does: the launcher's training run serves in its own JVM, then goes on. */
    final CountDownLatch stopRequest = new CountDownLatch(1);

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
        spec.addOption(CommandSpecs.listOption("--follow", "FILE|DIR|'GLOB'", Path.class, () -> follow, value -> follow = value,
                "A log to tail into the store while serving, like tail -F: it survives rotation (rename or "
                        + "copytruncate), may appear later, and a restart reads on where the last run stopped. A directory or a "
                        + "quoted glob ('/var/log/cdn/*.gz') is looked at every second: each file in it is read once, oldest first, "
                        + "a growing one read on, a compressed one once it stays unchanged. Repeatable.").build());
        format.addTo(spec);
        urlNames.addTo(spec, List.of());
        sitemaps.addTo(spec, true);
        alerting.addTo(spec);
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        // notices name files and quote log lines, syslog frames and batches: shown with their controls escaped
        Consumer<String> notices = notice -> System.out.println(ShownText.of(notice));
        Consumer<String> followNotices = notice -> notices.accept("follow: " + notice);
        // a bad --format, --syslog, drain, --timezone, --ip-ranges, --dns-server or --bind, a busy --port, is refused
        // before anything starts, and before the store's file is made. What the user should know of the format itself
        // (common lines carry no agent) is said once, by the followed logs' chooser, plainly without them
        FormatChooser formats = format.chooser(follow.isEmpty() ? notices : followNotices);
        // pushed batches are detected one by one: the syslog listener says when their format changes, and the drain's
        // answer names it, so the chooser says nothing per batch
        FormatChooser pushedFormats = format.liveChooser(notice -> { });
        pushed.check();
        store.validate();
        server.check();
        urlNames.check();
        ServerClasses.loadInBackground(); // beside the catalog's and the store's opening, not after them
        java.time.Duration sitemapRefresh = sitemaps.refresh();
        String siteHost = sitemaps.host();
        CrawlerCatalog catalog = store.catalog();
        ReportServer[] listening = new ReportServer[1];
        AlertSettings alertSettings = alerting.any() ? alerting.check(catalog, store.zone(), () -> server.scheme() + "://"
                + server.displayHost() + ":" + (listening[0] == null ? server.port : listening[0].port())) : null;
        boolean existed = store.storeExists();
        // what was started, closed in reverse when a later step fails: a failed start leaves no store file it made
        List<AutoCloseable> started = new ArrayList<>();
        ReportServer reportServer;
        CrawlErrorReport report;
        List<AutoCloseable> feeds = new ArrayList<>();
        HitStore hits;
        Runnable afterFirstPage;
        Alerts alerts = null;
        try {
            HitStore opened = store.openStoreToCheck(server.readers);
            started.add(opened);
            // its newest hits read beside the server's start: a damaged store is refused before serve says it serves
            CheckBeside newestRead = CheckBeside.start("store-check-newest", opened.health()::checkNewest);
            // every hit a source or an import stores is counted for /metrics and the alerts once the store committed it
            Function<String, String> familyOf = name -> catalog.crawler(name).map(Crawler::family).orElse(Crawler.OTHER_FAMILY);
            HitMeters hitMeters = new HitMeters();
            if (alertSettings != null) {
                alerts = new Alerts(alertSettings, opened.alerts(), opened.reader(), familyOf, notice -> notices.accept("alerts: " + notice));
                alerts.prepare();
                started.add(alerts);
            }
            Alerts counting = alerts;
            hits = new TappedStore(opened, stored -> {
                hitMeters.stored(stored);
                if (counting != null) {
                    counting.counted(stored);
                }
            });
            // seeded after the report's first page is counted: its read of every robots.txt fetch would share the cores with it
            afterFirstPage = () -> hitMeters.seedInBackground(opened.reader(), familyOf);
            CrawlerVerifier verifier = store.verifier(catalog);
            started.add(verifier);
            VerdictRechecks rechecks = new VerdictRechecks(hits.verdicts(), hits.signatures(), catalog, verifier);
            CrawlerIdentifier identifier = new CrawlerIdentifier(catalog);
            // fetch every published list now (in the background: a slow host must not delay serving)
            Threads.startDaemon("ip-lists", verifier.lists()::loadAll);
            // started in this order, and stopped in it before what stores their lines
            List<LiveSource> sources = new ArrayList<>();
            PushedLines lines = pushed.any() ? new PushedLines(hits.writer(), hits.signatures(), identifier, verifier, siteHost) : null;
            if (lines != null) {
                sources.addAll(pushed.sources(server, pushedFormats, lines, notices));
                started.add(lines);
            }
            if (!follow.isEmpty()) {
                sources.add(new FollowedLogs(follow, formats, hits, identifier, verifier, siteHost, followNotices));
            }
            if (!sources.isEmpty()) {
                // they store lines, and their listeners are bound before the server's /metrics names them
                newestRead.await();
                LiveSource.startAll(sources);
                started.addAll(sources);
            }
            SitemapReads sitemapReads = sitemaps.reads(hits, notices);
            report = urlNames.report(hits.reader(), store.zone(), catalog);
            started.add(report::close); // before the store: its counting stops first
            report.startFirstCount(); // beside the server's start
            List<MeterBinder> meters = new ArrayList<>(sources);
            meters.add(hitMeters);
            if (alerts != null) {
                meters.add(alerts);
            }
            // listening before the store's newest hits are checked: report requests wait for the check
            reportServer = server.start(report, hits.health(), server.config().withEvidence(new ServedEvidence(verifier))
                    .withMeters(meters).withAlerts(alerts == null ? null : alerts::listing).withChecked(newestRead.done()));
            listening[0] = reportServer;
            started.add(reportServer);
            newestRead.await();
            // what writes to the store starts once it is checked
            rechecks.start();
            started.add(rechecks);
            sitemapReads.start(sitemapRefresh, report::sitemapsRead); // in the background: a slow sitemap must not delay serving
            started.add(sitemapReads);
            feeds.add(sitemapReads);
            if (alerts != null) {
                alerts.start();
                feeds.add(alerts);
                notices.accept("alerts: " + alertSettings.rules().rules().size() + " rules, sent to " + String.join(", ", alerts.receivers()));
            }
            // an import of this store writes through this serve while it has the store open, when its engine lets one
            // process open it (a DuckDB file); the sources and what checks verdicts are stopped after it
            AutoCloseable imports = store.address().shareWithImports(hits, server.scheme() + "://" + server.displayHost() + ":" + reportServer.port()
                    + "/crawl-errors", warning -> System.err.println("crawl-errors: " + ShownText.of(warning)));
            started.add(imports);
            feeds.add(imports);
            feeds.addAll(sources);
            if (lines != null) {
                feeds.add(lines);
            }
            // stopped in this order: nothing may reach the store or the verifier after they close
            feeds.add(rechecks);
            feeds.add(verifier);
        } catch (Exception | Error e) {
            for (AutoCloseable opened : started.reversed()) {
                try {
                    opened.close();
                } catch (Exception again) {
                    e.addSuppressed(again);
                }
            }
            store.removeIfMadeNow(existed);
            throw e;
        }
        serveUntilStopped(reportServer, report, hits, new ServingFrom(store.shownStore(), !existed), server.displayHost(), feeds,
                afterFirstPage, stopRequest);
        return 0;
    }

    /**
     * The store a report is served from, as the start line names it: its absolute path (a ClickHouse
     * store's URL, without user or password), and whether it was made just now.
     */
    record ServingFrom(String shown, boolean madeNow) {
    }

    /**
     * Says where the report is served and from which store, then serves until the JVM is asked to
     * stop (SIGINT/SIGTERM), then closes the server, {@code feeds} in their order (what writes to
     * the store), and the store last.
     */
    static void serveUntilStopped(ReportServer server, CrawlErrorReport report, HitStore hits, ServingFrom store, String displayHost,
            List<AutoCloseable> feeds) throws InterruptedException {
        serveUntilStopped(server, report, hits, store, displayHost, feeds, () -> { }, null);
    }

    /**
     * As above, running {@code afterFirstPage} once the report's first page is counted (or could not
     * be), and reading then what the store's opening did not ({@link StoreHealth#checkNewest}): damage
     * found there stops serve, which fails with the sentence it refuses a damaged store with; and
     * stopping too when {@code stopRequest} (if any) is counted down.
     */
    static void serveUntilStopped(ReportServer server, CrawlErrorReport report, HitStore hits, ServingFrom store, String displayHost,
            List<AutoCloseable> feeds, Runnable afterFirstPage, CountDownLatch stopRequest) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicReference<DamagedStoreException> damaged = new AtomicReference<>();
        AtomicBoolean requested = new AtomicBoolean();
        if (stopRequest != null) {
            Threads.startDaemon("stop-request", () -> {
                try {
                    stopRequest.await();
                    requested.set(true);
                    stopped.countDown();
                } catch (InterruptedException e) {
                    // nobody asks any more
                }
            });
        }
        ReadingThreads reading = new ReadingThreads(); // what reads the store beside the readers, stopped first
        Runnable checkRest = () -> reading.start("store-check", () -> {
            try {
                hits.health().checkReadable();
            } catch (DamagedStoreException e) {
                damaged.set(e);
                stopped.countDown();
            } catch (RuntimeException e) {
                // a store that does not answer now: /health and the pages say so while it does not
            }
        });
        // the report's first page is counted now, not when the first reader asks for it; the default
        // view's patterns and overview after it, in the background, so they do not share the cores with it
        reading.start("report-warm-up", () -> {
            try {
                report.warmUp(() -> {
                    try {
                        // the URLs page's in_sitemap= views and first rows, before the counts of the start take the store's readers
                        server.readSitemapUrlPages();
                        afterFirstPage.run();
                    } finally {
                        checkRest.run();
                    }
                });
                // the report's in_sitemap= first pages rendered and kept as they are shown now (their rows read by the
                // warm-up), then again once counted, in the background: no reader of them pays a store read or a rendering
                try {
                    server.renderSitemapFirstPages();
                } catch (RuntimeException e) {
                    // their first readers render them; the first pages below are rendered ahead all the same
                }
                Thread sitemapPages = reading.start("sitemap-pages-counted", () -> {
                    try {
                        server.renderSitemapPagesCounted(FIRST_RENDER_WAIT);
                    } catch (RuntimeException e) {
                        // their next reader renders them
                    }
                });
                // then the first page rendered and kept, once its summary is counted: no reader pays its first rendering
                server.renderFirstPage(FIRST_RENDER_WAIT);
                // then, once the pages above are done, the Patterns page's walks of the URL states of the views counted at
                // the start, in the background: their first readers find them made (or wait for the one under way)
                reading.start("patterns-walked", () -> {
                    try {
                        if (sitemapPages != null) {
                            sitemapPages.join();
                        }
                        server.walkPatterns(FIRST_RENDER_WAIT);
                    } catch (RuntimeException e) {
                        // their first readers walk them
                    } catch (InterruptedException e) {
                        // serve stops
                    }
                });
                // and so the first page of every snapshot committed from now on, before its first reader
                server.renderFirstPagesAhead(FIRST_RENDER_WAIT);
            } catch (RuntimeException e) {
                // the first reader's request will say what is wrong; a serve stopped first has nothing left to count for
            } catch (InterruptedException e) {
                // serve stops
            }
        });
        Thread shutdown = new Thread(() -> {
            stop(server, feeds, report, hits, reading);
            stopped.countDown();
        }, "shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        String file = ShownText.of(store.shown());
        System.out.println("Store: " + ShownText.of(hits.describe()) + ".");
        System.out.println("Serving the report at " + server.scheme() + "://" + displayHost + ":" + server.port() + "/crawl-errors"
                + " (times in " + report.zone() + ") from the store " + file + "; Ctrl-C stops.");
        if (store.madeNow()) {
            // the default store is ./crawl-errors.duckdb in the directory a command runs in: a serve started elsewhere
            // than the imports (a service, a cron job) serves a store of its own, empty, which this line makes plain
            System.out.println("The store " + file + " is new and empty: import into it with crawl-errors import --db " + file
                    + " FILE, or serve the store your imports use with --db.");
        }
        stopped.await();
        DamagedStoreException damage = damaged.get();
        if (damage != null || requested.get()) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdown);
                stop(server, feeds, report, hits, reading);
            } catch (IllegalStateException e) {
                // the JVM stops already: its hook closes what serves
            }
            if (damage != null) {
                throw damage; // said as a store refused at the start is
            }
        }
    }

    /**
     * Stops the threads {@code reading} the store (their reads are cancelled, and none starts after), closes the server,
     * {@code feeds} in their order, the report's counting and the store last.
     */
    private static void stop(ReportServer server, List<AutoCloseable> feeds, CrawlErrorReport report, HitStore hits, ReadingThreads reading) {
        reading.stop();
        server.close();
        for (AutoCloseable feed : feeds) {
            try {
                feed.close();
            } catch (Exception e) {
                System.err.println("crawl-errors: stopping a source failed: " + ShownText.of(Failures.message(e)));
            }
        }
        report.close(); // the counting in the background stops before the store closes
        hits.close();
    }

    /**
     * The threads that read the store beside its readers (the warm-up, the store's check, the pages made ahead), started
     * while serve runs and none once it stops: the warm-up starts some of its own late, and one started after serve's
     * stop read the store as it was closed (the store's file was then still held when a next command opened it).
     */
    static final class ReadingThreads {

        /** How long each is waited for once interrupted, at most: a read under way ends when interrupted. */
        private static final Duration WAIT = Duration.ofSeconds(2);

        private final List<Thread> threads = new ArrayList<>();
        private boolean stopped;

        /** {@code task} on a daemon thread of its own named {@code name}; null, and nothing run, once stopped. */
        synchronized Thread start(String name, Runnable task) {
            if (stopped) {
                return null;
            }
            Thread thread = Threads.startDaemon(name, task);
            threads.add(thread);
            return thread;
        }

        /** Interrupts every one, and waits a little for each to end (never for the calling thread). */
        void stop() {
            List<Thread> all;
            synchronized (this) {
                stopped = true;
                all = new ArrayList<>(threads);
            }
            all.forEach(Thread::interrupt);
            for (Thread thread : all) {
                if (thread != Thread.currentThread()) {
                    Threads.awaitEnd(thread, WAIT);
                }
            }
        }
    }
}
