package dev.crawlerrors.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.alert.AlertListing;
import dev.crawlerrors.report.BadParameterException;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.PageNotFoundException;
import dev.crawlerrors.report.SnapshotGoneException;
import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.ReadStoppedException;
import dev.crawlerrors.store.StoreUnavailableException;
import dev.crawlerrors.report.StillCountingException;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.text.ShownText;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.NotFoundResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only HTTP server: the report at {@code /crawl-errors} (HTML), {@code /api/crawl-errors}
 * (JSON) and {@code /crawl-errors.csv}; its URL patterns and overview under {@code /crawl-errors/}
 * and {@code /api/crawl-errors/} (HTML and JSON), one hit's page; plus {@code /health} and
 * {@code /metrics}. Typed exceptions are mapped to statuses here and nowhere else.
 */
public final class ReportServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReportServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What a client that met figures still being counted is told to wait, in seconds. */
    private static final String RETRY_AFTER = "5";
    /** Seconds a reader is asked to wait when the store's server does not answer. */
    private static final String STORE_RETRY_AFTER = "10";
    private static final String ALLOWED = "GET, HEAD";

    /** How long a report request waits for its turn before it is told to come back. */
    static final Duration READ_WAIT = Duration.ofSeconds(2);

    private final Javalin app;
    private final CrawlErrorReport report;
    private final WebConfig web;
    private final ReportRoutes routes;
    private final dev.crawlerrors.report.UrlReport urls;

    private ReportServer(Javalin app, CrawlErrorReport report, WebConfig web, ReportRoutes routes, dev.crawlerrors.report.UrlReport urls) {
        this.urls = urls;
        this.app = app;
        this.report = report;
        this.web = web;
        this.routes = routes;
    }

    /** A method other than GET and HEAD on a path the server answers: the report is read-only. */
    private static final class MethodNotAllowedException extends RuntimeException {
        MethodNotAllowedException(String method, String path) {
            super("the report is read-only: " + method + " is not allowed on " + path + "; use " + ALLOWED, null, false, false);
        }
    }

    /**
     * Starts serving {@code report} as {@code serving} says; typed exceptions are mapped to statuses
     * here, and report requests beyond {@code serving.readers()} wait up to {@link #READ_WAIT}, then get
     * a 503 with Retry-After.
     */
    public static ReportServer start(CrawlErrorReport report, StoreHealth health, ServerConfig serving) {
        String bind = serving.bind();
        int port = serving.port();
        WebConfig web = serving.web();
        VerdictEvidence evidence = serving.evidence();
        Supplier<List<AlertListing>> alerts = serving.alerts();
        BasicAuth auth = web.authenticates() ? new BasicAuth(web.users()) : null;
        TlsConnector.KeyStoreAndPassword keys = web.tls() ? TlsConnector.keys(web) : null;
        ReadGate gate = new ReadGate(serving.readers(), READ_WAIT, serving.checked());
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Gauge.builder("crawl_errors_hits_stored", health, StoreHealth::size).description("crawler hits in the store").register(metrics);
        serving.meters().forEach(meter -> meter.bindTo(metrics));
        dev.crawlerrors.report.UrlReport urlReport = new dev.crawlerrors.report.UrlReport(report);
        dev.crawlerrors.report.RobotsHealth robots = new dev.crawlerrors.report.RobotsHealth(urlReport);
        RenderedPages rendered = new RenderedPages(serving.pageCacheBytes());
        Gauge.builder("crawl_errors_page_cache_bytes", rendered, pages -> pages.footprint()[1])
                .description("bytes of the report pages kept rendered").register(metrics);
        FunctionCounter.builder("crawl_errors_page_cache_hits", rendered, pages -> pages.footprint()[2])
                .description("report answers found kept rendered").register(metrics);
        FunctionCounter.builder("crawl_errors_page_cache_misses", rendered, pages -> pages.footprint()[3])
                .description("report answers not kept, rendered when asked").register(metrics);
        FunctionCounter.builder("crawl_errors_page_cache_renders", rendered, pages -> pages.footprint()[4])
                .description("report answers rendered (an address of a snapshot once while it is kept)").register(metrics);
        FunctionCounter.builder("crawl_errors_page_cache_ahead", rendered, pages -> pages.footprint()[5])
                .description("first pages rendered before any reader asked them").register(metrics);
        Gauge.builder("crawl_errors_count_cube_bytes", report, CrawlErrorReport::cubeBytes)
                .description("bytes of the counts filtered views are summed from").register(metrics);
        Gauge.builder("crawl_errors_page_rows_bytes", report, CrawlErrorReport::pageRowsBytes)
                .description("bytes of the report pages' rows kept packed").register(metrics);
        Gauge.builder("crawl_errors_default_rows_bytes", report, CrawlErrorReport::defaultRowsBytes)
                .description("bytes of the default view's rows held in memory for its pages").register(metrics);
        Gauge.builder("crawl_errors_default_rows_copy_seconds", report, CrawlErrorReport::defaultRowsCopySeconds)
                .description("seconds the last copy of the default view's rows took to make").register(metrics);
        FunctionCounter.builder("crawl_errors_default_rows_listed_pages", report, CrawlErrorReport::defaultRowsListedPages)
                .description("filtered pages read from lists of the held rows by URL or kind, not from a scan of their times").register(metrics);
        ReportRoutes routes = new ReportRoutes(report, health, evidence, alerts, robots, urlReport, rendered);
        UrlRoutes urlRoutes = new UrlRoutes(urlReport, robots);
        SitemapRoutes sitemapRoutes = new SitemapRoutes(new dev.crawlerrors.report.SitemapReport(report, urlReport), robots);
        urlReport.catchUp(); // the hits stored while nothing served are folded now, not at the first reader
        Set<String> paths = new HashSet<>();
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.http.defaultContentType = "text/plain; charset=utf-8";
            // what Jetty refuses before a route runs (an over-long address: 414) is answered as the API's errors are
            config.jetty.modifyServer(server -> server.setErrorHandler(new ProtocolErrors()));
            if (keys != null) {
                config.jetty.addConnector((server, http) -> TlsConnector.of(server, http, bind, port, web, keys));
            }
            // who may read comes first: nothing else is said to a request without a login, not even a 405
            if (auth != null) {
                config.routes.before(auth::check);
            }
            config.routes.exception(BasicAuth.UnauthorizedException.class, (e, ctx) -> {
                ctx.header("WWW-Authenticate", BasicAuth.CHALLENGE);
                error(ctx, 401, e.getMessage(), Map.of());
            });
            // HEAD answers with the headers GET would send (and so the same 400/404 for bad requests)
            BiConsumer<String, Handler> readOnly = (path, handler) -> {
                config.routes.get(path, handler);
                config.routes.head(path, handler);
                paths.add(path);
            };
            readOnly.accept("/", ctx -> ctx.redirect(ReportLinks.HTML_PATH));
            // report requests pass the read gate: at most --readers at once
            readOnly.accept(ReportLinks.HTML_PATH, ctx -> gate.pass(() -> routes.html(ctx)));
            readOnly.accept(ReportLinks.JSON_PATH, ctx -> gate.pass(() -> routes.json(ctx)));
            readOnly.accept(ReportLinks.CSV_PATH, ctx -> gate.pass(() -> routes.csv(ctx)));
            readOnly.accept(ReportLinks.PATTERNS_PATH, ctx -> gate.pass(() -> routes.patternsHtml(ctx)));
            readOnly.accept(ReportLinks.PATTERNS_JSON_PATH, ctx -> gate.pass(() -> routes.patternsJson(ctx)));
            readOnly.accept(ReportLinks.OVERVIEW_PATH, ctx -> gate.pass(() -> routes.overviewHtml(ctx)));
            readOnly.accept(ReportLinks.OVERVIEW_JSON_PATH, ctx -> gate.pass(() -> routes.overviewJson(ctx)));
            readOnly.accept(ReportLinks.ALERTS_PATH, routes::alertsHtml);
            readOnly.accept(ReportLinks.URLS_PATH, ctx -> gate.pass(() -> urlRoutes.html(ctx)));
            readOnly.accept(ReportLinks.URLS_JSON_PATH, ctx -> gate.pass(() -> urlRoutes.json(ctx)));
            readOnly.accept(ReportLinks.URLS_CSV_PATH, ctx -> gate.pass(() -> urlRoutes.csv(ctx)));
            readOnly.accept(ReportLinks.URL_PATH, ctx -> gate.pass(() -> urlRoutes.urlHtml(ctx)));
            readOnly.accept(ReportLinks.URL_JSON_PATH, ctx -> gate.pass(() -> urlRoutes.urlJson(ctx)));
            readOnly.accept(ReportLinks.ROBOTS_PATH, ctx -> gate.pass(() -> urlRoutes.robotsHtml(ctx)));
            readOnly.accept(ReportLinks.ROBOTS_JSON_PATH, ctx -> gate.pass(() -> urlRoutes.robotsJson(ctx)));
            readOnly.accept(ReportLinks.SITEMAPS_PATH, ctx -> gate.pass(() -> sitemapRoutes.html(ctx)));
            readOnly.accept(ReportLinks.SITEMAPS_JSON_PATH, ctx -> gate.pass(() -> sitemapRoutes.json(ctx)));
            readOnly.accept(ReportLinks.SITEMAPS_CSV_PATH, ctx -> gate.pass(() -> sitemapRoutes.csv(ctx)));
            readOnly.accept(ReportLinks.HIT_PATH + "{id}", ctx -> gate.pass(() -> routes.hitHtml(ctx)));
            readOnly.accept(ReportLinks.HIT_JSON_PATH + "{id}", ctx -> gate.pass(() -> routes.hitJson(ctx)));
            readOnly.accept("/health", ctx -> health(ctx, health));
            readOnly.accept("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape()));
            // every other method on a path served, those that could change records, OPTIONS, TRACE and
            // methods no one registered (PROPFIND, FOO) alike, is refused before any route runs
            config.routes.before(ctx -> {
                if (!ctx.method().equals(HandlerType.GET) && !ctx.method().equals(HandlerType.HEAD) && (paths.contains(ctx.path())
                        || ctx.path().startsWith(ReportLinks.HIT_PATH) || ctx.path().startsWith(ReportLinks.HIT_JSON_PATH))) {
                    throw new MethodNotAllowedException(ctx.method().name(), ctx.path());
                }
            });
            config.routes.exception(MethodNotAllowedException.class, (e, ctx) -> {
                ctx.header("Allow", ALLOWED);
                error(ctx, 405, e.getMessage(), Map.of());
            });
            config.routes.exception(BadParameterException.class, (e, ctx) ->
                    error(ctx, 400, e.getMessage(), Map.of("parameter", e.parameter())));
            config.routes.exception(PageNotFoundException.class, (e, ctx) ->
                    error(ctx, 404, e.getMessage(), Map.of("pages", e.pages())));
            config.routes.exception(NotFoundResponse.class, (e, ctx) -> error(ctx, 404, e.getMessage(), Map.of()));
            config.routes.exception(StillCountingException.class, (e, ctx) -> {
                ctx.header("Retry-After", RETRY_AFTER);
                error(ctx, 503, e.getMessage(), Map.of());
            });
            config.routes.exception(SnapshotGoneException.class, (e, ctx) -> {
                String fresh = new ReportLinks(ctx.queryParamMap()).fresh();
                error(ctx, 410, e.getMessage(), Map.of("fresh", fresh), fresh, "Open the fresh report");
            });
            config.routes.exception(ReadGate.BusyException.class, (e, ctx) -> {
                ctx.header("Retry-After", "1");
                error(ctx, 503, e.getMessage(), Map.of());
            });
            // the store's server does not answer now (ClickHouse stopped or too slow): a later try may succeed
            config.routes.exception(StoreUnavailableException.class, (e, ctx) -> {
                LOG.warn("{} {}: {}", ctx.method(), ShownText.of(ctx.path()), e.getMessage());
                ctx.header("Retry-After", STORE_RETRY_AFTER);
                error(ctx, 503, e.getMessage(), Map.of());
            });
            // a read stopped under way (serve stops, and stops them): nothing broken, to be asked again
            config.routes.exception(ReadStoppedException.class, (e, ctx) -> {
                LOG.info("{} {}: {}", ctx.method(), ShownText.of(ctx.path()), e.getMessage());
                ctx.header("Retry-After", STORE_RETRY_AFTER);
                error(ctx, 503, "the page's read of the store was stopped (serve is stopping); ask again", Map.of());
            });
            // the store's file is damaged: no page can be made until it is restored or made again
            config.routes.exception(DamagedStoreException.class, (e, ctx) -> {
                LOG.error("{} {} failed: {}", ctx.method(), ShownText.of(ctx.path()), e.getMessage());
                error(ctx, 503, e.getMessage(), Map.of());
            });
            config.routes.exception(Exception.class, (e, ctx) -> {
                if (ctx.res().isCommitted() && clientWentAway(e)) {
                    // a download the client stopped reading: nothing to answer, nothing broken here
                    LOG.info("{} {}: the client went away before the answer was sent", ctx.method(), ShownText.of(ctx.path()));
                    return;
                }
                LOG.error("{} {} failed", ctx.method(), ShownText.of(ctx.path()), e);
                error(ctx, 500, "the report could not be produced: " + e.getMessage(), Map.of());
            });
            // one counter a method and status, found again by a number: built for each request, its tags and
            // name were a few percent of a kept page's CPU under 64 readers
            Map<RequestKind, Counter> requests = new ConcurrentHashMap<>();
            config.routes.after(ctx -> requests.computeIfAbsent(new RequestKind(methodTag(ctx.method()), ctx.statusCode()), kind ->
                    Counter.builder("crawl_errors_http_requests")
                            .tag("method", kind.method())
                            .tag("status", Integer.toString(kind.status()))
                            .register(metrics)).increment());
        });
        app.start(bind, port);
        return new ReportServer(app, report, web, routes, urlReport);
    }

    /** Whether {@code e} comes of writing to a connection the client closed. */
    private static boolean clientWentAway(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.io.IOException && (t.getClass().getName().endsWith("EofException")
                    || String.valueOf(t.getMessage()).contains("Broken pipe") || String.valueOf(t.getMessage()).contains("Connection reset"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Renders the report's first page (HTML and JSON, no parameters) and keeps it for the newest snapshot, so that
     * the first reader to open it does not wait for its rendering: serve's warm-up calls it once the default view
     * is counted, waiting up to {@code wait} for its summary. False when it could not be kept (its summary not
     * counted by then, or the newest snapshot moved while it was rendered).
     */
    public boolean renderFirstPage(Duration wait) {
        return routes.renderFirstPage(wait);
    }

    /**
     * When a sitemap is held, the URLs page's first pages of {@code in_sitemap=yes} and {@code =no} read once, so that their
     * sitemap views (a 1,000,000-URL sitemap's view of a 10,000,000-hit month: 145,203 numbers) and first rows are kept by the
     * store ({@code KeptPages}, its bound) before a reader asks them: serve's warm-up calls it right after the first page's
     * count, before what serve counts at its start takes the store's readers. A page that cannot be read now (the URLs'
     * states being brought up to a large import, a store that does not answer) is left to its first reader.
     */
    public void readSitemapUrlPages() {
        if (!report.sitemapsHeld()) {
            return;
        }
        for (String listed : List.of("yes", "no")) {
            try {
                urls.page(urls.request(Map.of("in_sitemap", List.of(listed))));
            } catch (RuntimeException e) {
                // its first reader reads it: nothing of the warm-up depends on it
            }
        }
    }

    /**
     * When a sitemap is held, renders and keeps the report's first pages of {@code in_sitemap=yes} and {@code =no} (HTML and
     * JSON) for the newest snapshot, as {@link #renderFirstPage} does the unfiltered one; a page whose view is still being
     * counted is kept as shown (its newest rows) only until its count is done, then rendered again for its next reader or by
     * {@link #renderSitemapPagesCounted}. False when no sitemap is held or a page could not be kept.
     */
    public boolean renderSitemapFirstPages() {
        return routes.renderSitemapFirstPages(null);
    }

    /**
     * Waits up to {@code wait} for the summaries of the report's {@code in_sitemap=} first pages, then renders and keeps them
     * counted (the counting pages kept by {@link #renderSitemapFirstPages} let go): serve's warm-up calls it in the background.
     */
    public boolean renderSitemapPagesCounted(Duration wait) {
        return routes.renderSitemapFirstPages(wait);
    }

    /**
     * Walks the URL states for the Patterns page of the default view and, when a sitemap is held, of the {@code in_sitemap=}
     * views into the maps the page keeps, so their first readers do not walk them (a reader asking meanwhile waits for the
     * walk under way): serve's warm-up calls it in the background once the start's other work is done, waiting up to
     * {@code wait} for each view's patterns to be counted.
     */
    public void walkPatterns(Duration wait) throws InterruptedException {
        routes.walkPatterns(wait);
    }

    /** How often serve looks whether a new snapshot was committed: a look is a field read, the store is not asked. */
    static final Duration NEWEST_LOOK = Duration.ofMillis(20);

    /**
     * Until interrupted, renders and keeps the first page (HTML and JSON) of each snapshot that becomes the newest, as soon as
     * it is committed (an import beside serve, a followed log, a verdict), before a reader asks it: readers who ask meanwhile
     * wait for that one rendering. Serve's warm-up calls it once it rendered the first page of the snapshot it started on;
     * {@code wait} bounds each wait for a page's summary to be counted. Drops the answers kept for older snapshots as it goes.
     */
    public void renderFirstPagesAhead(Duration wait) throws InterruptedException {
        Snapshot done = null;
        while (!Thread.currentThread().isInterrupted()) {
            Snapshot committed;
            try {
                committed = report.committed();
            } catch (RuntimeException e) {
                committed = done; // a store that does not answer now (ClickHouse down a while): looked at again next time
            }
            if (committed != null && !committed.equals(done)) {
                try {
                    routes.renderNewestFirstPage(wait);
                } catch (RuntimeException e) {
                    // the store failed or closes: the next reader's request says what is wrong; tried again at the next move
                }
                done = committed; // once a snapshot, kept or not: a page that could not be kept is rendered for its readers
            }
            Thread.sleep(NEWEST_LOOK);
        }
        throw new InterruptedException();
    }

    public int port() {
        return app.port();
    }

    /** {@code https} when served over TLS, else {@code http}: for the address the report is announced at. */
    public String scheme() {
        return web.scheme();
    }

    /** A request's method, as the requests counter tags it, and its answer's status. */
    private record RequestKind(String method, int status) {
    }

    /** A method as the requests counter tags it: a name a client made up is "other", or each would be a counter of its own. */
    private static String methodTag(HandlerType method) {
        return HandlerType.commonHttp().contains(method) ? method.name() : "other";
    }

    /**
     * {@code ok} when the store can be read as the report's first page reads it ({@link StoreHealth#checkNewest}:
     * a monitor probes often, and serve reads the rest once at its start); else 503 and why (with
     * Retry-After when its server may answer again). Damage any page met is told as well.
     */
    private static void health(Context ctx, StoreHealth store) {
        try {
            store.checkNewest();
            ctx.json(Map.of("status", "ok"));
        } catch (DamagedStoreException e) {
            error(ctx, 503, e.getMessage(), Map.of());
        } catch (StoreUnavailableException e) {
            ctx.header("Retry-After", STORE_RETRY_AFTER); // its server may answer again: a monitor may try again then
            error(ctx, 503, "the store does not answer: " + e.getMessage(), Map.of());
        } catch (RuntimeException e) {
            error(ctx, 503, "the store does not answer: " + e.getMessage(), Map.of());
        }
    }

    /**
     * An error in the form the path speaks: JSON for the API, plain text for CSV, a page for HTML.
     * The message quotes the value that was wrong as the request sent it: it is shown with its
     * controls escaped ({@link ShownText}), as the CSV's plain text reaches a terminal as it is.
     */
    private static void error(Context ctx, int status, String rawMessage, Map<String, Object> details) {
        error(ctx, status, rawMessage, details, ReportLinks.HTML_PATH, "Back to page 1");
    }

    private static void error(Context ctx, int status, String rawMessage, Map<String, Object> details, String link, String linkText) {
        String message = ShownText.of(rawMessage);
        ctx.status(status);
        if (ctx.path().startsWith("/api/") || ctx.path().equals("/health")) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", status);
            body.put("error", message);
            body.putAll(details);
            try {
                ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(body));
            } catch (Exception e) {
                ctx.result(message);
            }
        } else if (ctx.path().endsWith(".csv")) {
            ctx.contentType("text/plain; charset=utf-8").result(message + "\n");
        } else {
            ctx.html(ReportRoutes.render("error.jte", new ErrorView(status, message, link, linkText, refresh(ctx, status))));
        }
    }

    /**
     * After how many seconds an HTML error page asks again by itself: a 503 that says when to come back (Retry-After:
     * still counting, busy, the store not answering now) is asked again then, so a reader who opened a page as serve
     * started sees it once it is counted; none for the rest.
     */
    private static int refresh(Context ctx, int status) {
        String after = ctx.res().getHeader("Retry-After");
        if (status != 503 || after == null) {
            return 0;
        }
        try {
            return Math.clamp(Integer.parseInt(after.strip()), 1, 60);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Stops serving, and the report's counting (the store may close next). */
    @Override
    public void close() {
        try {
            app.stop();
        } finally {
            report.close();
        }
    }
}
