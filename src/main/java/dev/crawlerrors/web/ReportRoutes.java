package dev.crawlerrors.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawlerrors.alert.AlertListing;
import dev.crawlerrors.report.BadParameterException;
import dev.crawlerrors.report.CountedAt;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.HitDetail;
import dev.crawlerrors.report.Overview;
import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.report.ReportPage;
import dev.crawlerrors.report.ReportParameters;
import dev.crawlerrors.report.ReportRequest;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreHealth;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.NotFoundResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The report's representations: the HTML page, JSON page and CSV of every matching row; the URL
 * patterns and the overview (HTML and JSON); one hit's page (HTML and JSON).
 */
final class ReportRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TemplateEngine TEMPLATES = TemplateEngine.createPrecompiled(ContentType.Html);

    private final CrawlErrorReport report;
    private final StoreHealth health;
    private final VerdictEvidence evidence;
    private final Supplier<List<AlertListing>> alerts;
    private final dev.crawlerrors.report.RobotsHealth robots;
    private final dev.crawlerrors.report.PatternStates patternStates;
    private final dev.crawlerrors.report.CrawlBudget budget;
    private final RenderedPages rendered;
    private final dev.crawlerrors.report.PatternSitemaps patternSitemaps;
    private final dev.crawlerrors.report.PatternWalk patternWalk;
    private volatile EvidenceText evidenceText;

    /** @param alerts the built-in alerts, firing first; null when {@code serve} runs none */
    ReportRoutes(CrawlErrorReport report, StoreHealth health, VerdictEvidence evidence, Supplier<List<AlertListing>> alerts,
            dev.crawlerrors.report.RobotsHealth robots, dev.crawlerrors.report.UrlReport urls, RenderedPages rendered) {
        this.report = report;
        this.rendered = rendered;
        this.health = health;
        this.evidence = evidence;
        this.alerts = alerts;
        this.robots = robots;
        this.patternStates = new dev.crawlerrors.report.PatternStates(urls);
        this.budget = new dev.crawlerrors.report.CrawlBudget(urls);
        this.patternSitemaps = new dev.crawlerrors.report.PatternSitemaps(report, urls);
        this.patternWalk = new dev.crawlerrors.report.PatternWalk(report, urls);
    }

    void alertsHtml(Context ctx) {
        ctx.html(page("alerts.jte", AlertsView.of(alerts == null ? null : alerts.get(), report.zone())));
    }

    /** Where the overview's crawl budget goes; none while the URLs' states are being brought up to a large import. */
    private List<dev.crawlerrors.report.CrawlBudget.Segment> budget(ReportRequest request, String at) {
        try {
            return budget.of(report.filter(request), at);
        } catch (dev.crawlerrors.report.StillCountingException e) {
            return List.of();
        }
    }

    /** What each pattern's URLs are now; none while the URLs' states are being brought up to a large import. */
    @SuppressWarnings("unchecked")
    private Map<String, dev.crawlerrors.report.PatternStates.Now> patternsNow(PatternReport patterns, ReportRequest request, String at) {
        String sitemaps = request.filter().inSitemap() == null ? "" : report.sitemapsVersion();
        return (Map<String, dev.crawlerrors.report.PatternStates.Now>) patternMap(new PatternKey("now", request.filter(), at, sitemaps,
                patterns.patterns()), () -> patternStates.of(patterns, request.filter(), at));
    }

    /** How many of each pattern's URLs a sitemap lists; none while the URLs' states are being brought up to a large import. */
    @SuppressWarnings("unchecked")
    private Map<String, dev.crawlerrors.report.PatternSitemaps.Listed> patternsListed(PatternReport patterns, ReportRequest request, String at) {
        return (Map<String, dev.crawlerrors.report.PatternSitemaps.Listed>) patternMap(new PatternKey("listed", request.filter(), at,
                report.sitemapsVersion(), patterns.patterns()), () -> patternSitemaps.of(patterns, request.filter(), at));
    }

    /** How many of the Patterns page's walks of the URLs' states are kept ({@link #patternMap}). */
    static final int KEPT_PATTERN_MAPS = 16;

    private record PatternKey(String kind, dev.crawlerrors.store.HitFilter filter, String at, String sitemaps,
            List<dev.crawlerrors.report.pattern.ErrorPattern> patterns) {
    }

    /** The last {@value #KEPT_PATTERN_MAPS} maps {@link #patternMap} made or is making, by what they are made of. */
    private final dev.crawlerrors.text.KeptOnce<PatternKey, Map<String, ?>> patternMaps = new dev.crawlerrors.text.KeptOnce<>(KEPT_PATTERN_MAPS);
    /** What {@link #patternMap} gives, and does not keep, while the URLs' states are being brought up to a large import. */
    private static final Map<String, ?> NOT_WALKED = java.util.Collections.unmodifiableMap(new java.util.HashMap<String, Object>());

    /**
     * A map of the Patterns page by pattern, kept for the view, its snapshot, the sitemaps' read and the patterns it was
     * made for: each is a walk of the view's URL states (1,000,000 at the bench's scale, 1-3 s of a core, more with
     * {@code in_sitemap=}), the same for every reader of the page at that snapshot, so readers who ask while it is made
     * wait for that one walk; none (and not kept) while the URLs' states are being brought up to a large import.
     */
    private Map<String, ?> patternMap(PatternKey key, Supplier<Map<String, ?>> make) {
        return patternMaps.get(key, () -> {
            try {
                return java.util.Collections.unmodifiableMap(make.get());
            } catch (dev.crawlerrors.report.StillCountingException e) {
                return NOT_WALKED;
            }
        }, made -> made != NOT_WALKED);
    }

    /**
     * Walks the URL states for the Patterns page of the default view and, when a sitemap is held, of the {@code in_sitemap=yes}
     * and {@code =no} views, at the newest snapshot, into the maps its readers read ({@link #patternMap}): serve's warm-up calls
     * it once the start's counts and first pages are done, so a view's first ask is answered from the kept walks (2-2.5 s each
     * at 1,000,000 URLs idle) and a reader asking meanwhile waits for the walk under way; views a reader asked first are
     * waited for, then the others walked, in one pass when they can be ({@link #walkedTogether}). Waits up to {@code wait} for each
     * view's patterns to be counted; a view that cannot be walked now (not counted by then, the URLs' states being brought
     * up to a large import, a store that does not answer) is left to its first reader.
     */
    void walkPatterns(Duration wait) throws InterruptedException {
        List<Map<String, List<String>>> views = new ArrayList<>();
        views.add(Map.of());
        if (report.sitemapsHeld()) {
            views.add(Map.of("in_sitemap", List.of("yes")));
            views.add(Map.of("in_sitemap", List.of("no")));
        }
        long until = System.nanoTime() + wait.toNanos();
        List<ReportRequest> requests = new ArrayList<>();
        List<CountedAt<PatternReport>> counted = new ArrayList<>();
        for (Map<String, List<String>> query : views) {
            try {
                ReportRequest request = parse(query, ReportParameters.PATTERNS);
                counted.add(countedPatterns(request, until));
                requests.add(request);
            } catch (RuntimeException e) {
                // its first reader walks it
            }
        }
        // a view a reader asked first (its walk under way, or kept) is waited for before the others are walked: this walk
        // does not share the cores with that reader's
        List<ReportRequest> rest = new ArrayList<>();
        List<CountedAt<PatternReport>> restCounted = new ArrayList<>();
        String version = report.sitemapsVersion();
        for (int v = 0; v < requests.size(); v++) {
            if (patternMaps.holdsAny(patternKeys(requests.get(v), counted.get(v), version))) {
                walkOne(requests.get(v), counted.get(v));
            } else {
                rest.add(requests.get(v));
                restCounted.add(counted.get(v));
            }
        }
        if (walkedTogether(rest, restCounted)) {
            return;
        }
        for (int v = 0; v < rest.size(); v++) {
            walkOne(rest.get(v), restCounted.get(v));
        }
    }

    /** One view's Patterns page's maps, made (or waited for, when made or being made) as its readers' are. */
    private void walkOne(ReportRequest request, CountedAt<PatternReport> counted) {
        try {
            patternsNow(counted.value(), request, counted.at());
            patternsListed(counted.value(), request, counted.at());
        } catch (RuntimeException e) {
            // its first reader walks it
        }
    }

    /** The keys of a view's two maps ({@link #patternsNow}, {@link #patternsListed}) with the sitemaps' read {@code version}. */
    private static List<PatternKey> patternKeys(ReportRequest request, CountedAt<PatternReport> counted, String version) {
        HitFilter filter = request.filter();
        List<ErrorPattern> patterns = counted.value().patterns();
        return List.of(new PatternKey("now", filter, counted.at(), filter.inSitemap() == null ? "" : version, patterns),
                new PatternKey("listed", filter, counted.at(), version, patterns));
    }

    /**
     * Makes the maps of every view's Patterns page in one walk of the URL states ({@link dev.crawlerrors.report.PatternWalk}),
     * into the kept maps, when they are counted at one snapshot, differ only in {@code in_sitemap} and none of their maps is
     * kept or being made yet; readers asking meanwhile wait for it. False when they cannot be walked so (then each is walked
     * on its own). A failure reaches the readers waiting and is not kept, as {@link #patternMap}'s.
     */
    private boolean walkedTogether(List<ReportRequest> requests, List<CountedAt<PatternReport>> counted) {
        if (requests.isEmpty() || counted.stream().map(CountedAt::at).distinct().count() != 1
                || !dev.crawlerrors.report.PatternWalk.together(requests.stream().map(ReportRequest::filter).toList())) {
            return false;
        }
        String version = report.sitemapsVersion();
        List<PatternKey> keys = new ArrayList<>();
        for (int v = 0; v < requests.size(); v++) {
            keys.addAll(patternKeys(requests.get(v), counted.get(v), version));
        }
        Map<PatternKey, java.util.concurrent.CompletableFuture<Map<String, ?>>> mine = patternMaps.reserve(keys);
        if (mine == null) {
            return false;
        }
        try {
            List<dev.crawlerrors.report.PatternWalk.View> walked = new ArrayList<>();
            for (int v = 0; v < requests.size(); v++) {
                walked.add(new dev.crawlerrors.report.PatternWalk.View(counted.get(v).value(), requests.get(v).filter()));
            }
            List<dev.crawlerrors.report.PatternWalk.Walked> made = patternWalk.of(walked, counted.get(0).at());
            for (int v = 0; v < made.size(); v++) {
                mine.get(keys.get(2 * v)).complete(java.util.Collections.unmodifiableMap(made.get(v).now()));
                mine.get(keys.get(2 * v + 1)).complete(java.util.Collections.unmodifiableMap(made.get(v).listed()));
            }
        } catch (dev.crawlerrors.report.StillCountingException e) {
            patternMaps.fail(mine, NOT_WALKED, null);
        } catch (RuntimeException | Error e) {
            patternMaps.fail(mine, null, e);
            throw e;
        }
        return true;
    }

    /** {@code request}'s patterns, waiting for their count until {@code until} ({@link System#nanoTime}). */
    private CountedAt<PatternReport> countedPatterns(ReportRequest request, long until) throws InterruptedException {
        while (true) {
            try {
                return report.patternsAt(request);
            } catch (dev.crawlerrors.report.StillCountingException e) {
                if (System.nanoTime() - until > 0) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    /** A page with the robots.txt alerts in its banner's place. */
    private String page(String template, Object model) {
        return RobotsBanner.into(render(template, model), robots);
    }

    void html(Context ctx) {
        ReportRequest request = parse(ctx, ReportParameters.REPORT);
        if (redirectedWithoutBlanks(ctx)) {
            return;
        }
        send(ctx, io.javalin.http.ContentType.TEXT_HTML.getMimeType(), htmlAnswer(ctx.queryString(), ctx.queryParamMap(), request,
                GzipAnswer.accepted(ctx.header("Accept-Encoding")), false));
    }

    /** The HTML page of {@code query} (its text as the address has it, null for none, and its parameters), as kept or rendered now. */
    private RenderedPages.Answer htmlAnswer(String queryText, Map<String, List<String>> query, ReportRequest request, boolean gzip,
            boolean ahead) {
        // what the page shows besides the snapshot's hits: the evidence under it
        List<String> sources = evidence.sources();
        String nothingProvable = evidence.nothingProvable().orElse(null);
        String address = address(queryText, request) + "\n" + evidenceText(sources, nothingProvable) + "\n" + report.sitemapsVersion();
        return rendered.answer("html", address, report::newest, () -> htmlPage(query, request, sources, nothingProvable, ahead), gzip, ahead);
    }

    /** What the evidence says, as a page's address holds it: written again only when the evidence's list is another. */
    private String evidenceText(List<String> sources, String nothingProvable) {
        EvidenceText last = evidenceText;
        if (last != null && last.sources() == sources && Objects.equals(last.nothingProvable(), nothingProvable)) {
            return last.text();
        }
        String text = sources + "\n" + nothingProvable;
        evidenceText = new EvidenceText(sources, nothingProvable, text);
        return text;
    }

    private record EvidenceText(List<String> sources, String nothingProvable, String text) {
    }

    /** The JSON page of {@code query} (its text as the address has it, null for none), as kept or rendered now. */
    private RenderedPages.Answer jsonAnswer(String queryText, ReportRequest request, boolean gzip, boolean ahead) {
        // kept under the sitemaps' reads too: its rows say whether one lists their URL, and in_sitemap= filters by them
        String address = address(queryText, request) + "\n" + report.sitemapsVersion();
        return rendered.answer("json", address, report::newest, () -> {
            ReportPage page = report.page(request);
            if (page.counting()) {
                return counting(PageJson.of(page), request, ahead);
            }
            // a later page of the rows held in memory is made again in less time than it takes to gzip and keep
            boolean keep = page.page() == 1 || !report.pageOfHeldRows(request);
            // a filtered view's page of the held rows is made again as soon: kept once asked again
            return new RenderedPages.Rendered(PageJson.of(page), keep, report.filteredPageOfHeldRows(request));
        }, gzip, ahead);
    }

    /**
     * A report page's address among the kept answers: its query without its page number, then the page it shows.
     * The page number is read into the request and nowhere else (the page's links leave it out), so {@code ?page=1}
     * and no query are one page, rendered once: the first page, which serve's warm-up renders ({@link #renderFirstPage}).
     */
    static String address(String queryText, ReportRequest request) {
        StringBuilder rest = new StringBuilder();
        if (queryText != null) {
            for (String part : queryText.split("&", -1)) {
                // as written: a name spelled otherwise stays in the address, which is then only less shared
                if (!part.equals("page") && !part.startsWith("page=")) {
                    rest.append(rest.isEmpty() ? "" : "&").append(part);
                }
            }
        }
        return rest + "\npage " + request.page();
    }

    /**
     * Renders the report's first page, HTML and JSON, as a reader who opens it without parameters is answered,
     * and keeps it for the store's newest snapshot, so that no reader pays its first rendering (some 40 ms: the
     * summary's counts read, the templates' first run); serve's warm-up calls it once the default view is counted.
     * Waits up to {@code wait} for the page's summary to be counted; false when either could not be kept (its
     * summary not counted by then, or the newest snapshot moved meanwhile).
     */
    boolean renderFirstPage(Duration wait) {
        ReportRequest request = parse(Map.of(), ReportParameters.REPORT);
        if (!report.summaryCounted(request, wait)) {
            return false;
        }
        return firstPageKept(request);
    }

    /**
     * Renders and keeps the first page (HTML and JSON, gzipped and as they are) of the store's newest snapshot, if no reader
     * has yet: serve calls it as soon as a new snapshot is committed. Its rendering is the one a reader would make: a
     * reader who asks meanwhile waits for it, and one who asked first is waited for, so each is rendered once. When the
     * page could not be kept so (its summary not counted within a reader's wait), the summary is waited for up to
     * {@code wait} and the page rendered again. Then the answers kept for older snapshots are let go. False when the
     * page could not be kept (or the newest snapshot moved meanwhile: the next call renders that one's).
     */
    boolean renderNewestFirstPage(Duration wait) {
        Snapshot newest = report.newest();
        ReportRequest request = parse(Map.of(), ReportParameters.REPORT);
        boolean kept = firstPageKept(request) || renderFirstPage(wait);
        if (kept) {
            rendered.forgetOlderThan(newest);
        }
        return kept;
    }

    /** Whether the first page, HTML and JSON, is kept for the newest snapshot, rendering it now if it was not (not waiting for its summary). */
    private boolean firstPageKept(ReportRequest request) {
        boolean html = htmlAnswer(null, Map.of(), request, true, true).gzipped();
        boolean json = jsonAnswer(null, request, true, true).gzipped();
        return html && json;
    }

    /**
     * A page shown while its view is being counted: not kept for readers, who render it (its newest rows, kept) until the
     * count is done; rendered ahead by serve's warm-up (the {@code in_sitemap=} first pages), kept while its view is not
     * counted, then answered until its counted page, rendered behind the first reader who finds it stale (or by the
     * warm-up), is kept in its place: no reader waits for that rendering.
     */
    private RenderedPages.Rendered counting(byte[] body, ReportRequest request, boolean ahead) {
        return ahead ? new RenderedPages.Rendered(body, true, false, () -> report.counted(request)) : new RenderedPages.Rendered(body, false);
    }

    /**
     * Renders and keeps the report's {@code in_sitemap=yes} and {@code =no} first pages (HTML and JSON) for the newest snapshot,
     * as readers who open them with no other parameter are answered, when a sitemap is held; a page still counting is kept
     * until its count is done ({@link #counting}). With {@code wait}, first waits up to it for each page's summary and renders
     * only a counted page. False when no sitemap is held or a page could not be kept (counted, with {@code wait}).
     */
    boolean renderSitemapFirstPages(Duration wait) {
        if (!report.sitemapsHeld()) {
            return false;
        }
        boolean kept = true;
        for (String listed : List.of("yes", "no")) {
            Map<String, List<String>> query = Map.of("in_sitemap", List.of(listed));
            ReportRequest request = parse(query, ReportParameters.REPORT);
            if (wait != null && !report.summaryCounted(request, wait)) {
                kept = false;
                continue;
            }
            String text = "in_sitemap=" + listed; // as a reader's address has it
            boolean html = htmlAnswer(text, query, request, true, true).gzipped();
            boolean json = jsonAnswer(text, request, true, true).gzipped();
            kept &= html && json;
        }
        return kept;
    }

    private RenderedPages.Rendered htmlPage(Map<String, List<String>> query, ReportRequest request, List<String> sources, String nothingProvable,
            boolean ahead) {
        ReportPage page = report.page(request);
        // an empty report says whether anything at all has been recorded
        boolean recorded = page.total() > 0 || health.size() > 0;
        boolean filtered = query.keySet().stream().anyMatch(k -> !k.equals("page") && !k.equals("at"));
        // the summary at the page's snapshot: its figures add up to the header's total
        // (none while the page's own count goes on: it is asked for once that is done)
        Overview summary = page.counting() ? null : report.summary(request, page).orElse(null);
        ReportView view = new ReportView(page, new ReportLinks(query, page.at()), recorded, filtered, sources,
                nothingProvable, summary, request.filter().hiddenBotTypes());
        // a page whose summary or total is still being counted is shown without it, and not kept so (nor waits
        // for robots.txt's alerts: shown if read); its rows' and its filter's sitemaps are in its address (a
        // sitemap's read makes no new snapshot)
        String html = page.counting() ? RobotsBanner.intoIfRead(render("report.jte", view), robots) : page("report.jte", view);
        if (page.counting()) {
            return counting(html.getBytes(StandardCharsets.UTF_8), request, ahead);
        }
        return new RenderedPages.Rendered(html.getBytes(StandardCharsets.UTF_8), summary != null,
                report.filteredPageOfHeldRows(request));
    }

    void json(Context ctx) {
        ReportRequest request = parse(ctx, ReportParameters.REPORT);
        send(ctx, "application/json; charset=utf-8", jsonAnswer(ctx.queryString(), request, GzipAnswer.accepted(ctx.header("Accept-Encoding")), false));
    }

    /**
     * A kept or rendered answer, saying it is gzipped when it is, written to the connection as it is
     * with its length: the server neither compresses it nor copies it through a stream in chunks.
     */
    private static void send(Context ctx, String contentType, RenderedPages.Answer answer) {
        HttpServletResponse response = ctx.res();
        response.setHeader("Vary", "Accept-Encoding");
        if (answer.gzipped()) {
            response.setHeader("Content-Encoding", "gzip");
        }
        response.setContentType(contentType);
        response.setContentLength(answer.body().length);
        if (ctx.method().equals(HandlerType.HEAD)) {
            return;
        }
        try {
            response.getOutputStream().write(answer.body());
        } catch (IOException e) {
            // the reader went away before the answer was sent: nothing is left to tell it
        }
    }

    void csv(Context ctx) throws IOException {
        // parsed (and its pattern read) before anything is written, so a bad parameter is still a clean 400
        ReportRequest request = parse(ctx, ReportParameters.REPORT);
        HitFilter filter = report.filter(request);
        ctx.contentType("text/csv; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"crawl-errors.csv\"");
        if (ctx.method().equals(HandlerType.HEAD)) {
            return; // the headers are all HEAD answers with: the rows are not read
        }
        BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(ctx.outputStream(), StandardCharsets.UTF_8), 1 << 16);
        CsvWriter csv = new CsvWriter(writer);
        boolean held = report.sitemapsHeld(); // asked once: a sitemap read mid-response changes neither header nor rows
        csv.row(held ? ReportColumns.CSV_LABELS_WITH_SITEMAPS : ReportColumns.CSV_LABELS);
        report.forEachRow(request, held, row -> {
            try {
                csv.row(ReportColumns.csvCells(row));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.flush();
    }

    void patternsHtml(Context ctx) {
        ReportRequest request = parse(ctx, ReportParameters.PATTERNS);
        if (redirectedWithoutBlanks(ctx)) {
            return;
        }
        CountedAt<PatternReport> patterns = report.patternsAt(request);
        ctx.html(page("patterns.jte", new PatternsView(patterns.value(), new ReportLinks(ctx.queryParamMap(), patterns.at()),
                report.zone().getId(), patternsNow(patterns.value(), request, patterns.at()),
                patternsListed(patterns.value(), request, patterns.at()), patternSitemaps.held())));
    }

    void patternsJson(Context ctx) throws IOException {
        ReportRequest request = parse(ctx, ReportParameters.PATTERNS);
        CountedAt<PatternReport> counted = report.patternsAt(request);
        PatternReport patterns = counted.value();
        ReportLinks links = new ReportLinks(ctx.queryParamMap(), counted.at());
        Map<String, dev.crawlerrors.report.PatternStates.Now> now = patternsNow(patterns, request, counted.at());
        Map<String, dev.crawlerrors.report.PatternSitemaps.Listed> listed = patternsListed(patterns, request, counted.at());
        List<dev.crawlerrors.store.StoredSitemap> held = listed.isEmpty() ? List.of() : patternSitemaps.held();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ErrorPattern pattern : patterns.patterns()) {
            Map<String, Object> row = JSON.convertValue(pattern, JSON.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, Object.class));
            dev.crawlerrors.report.PatternSitemaps.Listed inSitemap = listed.get(pattern.pattern());
            row.put("diagnosis", dev.crawlerrors.report.PatternSitemaps.diagnosis(inSitemap,
                    dev.crawlerrors.report.PatternStates.diagnosis(pattern, now.get(pattern.pattern())), held));
            if (inSitemap != null) {
                row.put("inSitemap", inSitemap.inSitemap());
                row.put("sitemap", inSitemap.text());
            }
            row.put("now", now.get(pattern.pattern()));
            row.put("report", links.with("pattern", pattern.pattern()).report());
            rows.add(row);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("title", "Crawler Crawl Errors: URL patterns");
        body.put("total", patterns.total());
        body.put("timeZone", report.zone().getId());
        body.put("at", counted.at());
        body.put("patterns", rows);
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(body));
    }

    void overviewHtml(Context ctx) {
        ReportRequest request = parse(ctx, ReportParameters.OVERVIEW);
        if (redirectedWithoutBlanks(ctx)) {
            return;
        }
        Overview overview = report.overview(request);
        ctx.html(page("overview.jte", new OverviewView(overview, new ReportLinks(ctx.queryParamMap(), overview.at()),
                budget(request, overview.at()))));
    }

    void overviewJson(Context ctx) throws IOException {
        ReportRequest request = parse(ctx, ReportParameters.OVERVIEW);
        Overview overview = report.overview(request);
        ObjectNode body = JSON.createObjectNode();
        body.put("title", "Crawler Crawl Errors: overview");
        body.setAll((ObjectNode) JSON.valueToTree(overview));
        body.set("crawlBudget", JSON.valueToTree(budget(request, overview.at())));
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(body));
    }

    void hitHtml(Context ctx) {
        HitDetail hit = hit(ctx);
        String at = ctx.queryParam("at");
        ctx.html(page("hit.jte", new HitView(hit, evidence.sources(), at == null || at.isBlank() ? null : at)));
    }

    void hitJson(Context ctx) throws IOException {
        HitDetail hit = hit(ctx);
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(hit));
    }

    private HitDetail hit(Context ctx) {
        ReportRequest request = report.request(ctx.queryParamMap(), Set.of("at"));
        String value = ctx.pathParam("id");
        long id;
        try {
            id = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new BadParameterException("id", "a hit's id is a whole number, as the report's links have it; got '" + value + "'");
        }
        Optional<HitDetail> hit = report.hit(id, request.at());
        if (hit.isEmpty()) {
            throw new NotFoundResponse("no hit has the id " + id + "; follow a verdict's link in the report");
        }
        return hit.get();
    }

    private ReportRequest parse(Context ctx, Set<String> accepted) {
        return parse(ctx.queryParamMap(), accepted);
    }

    private ReportRequest parse(Map<String, List<String>> query, Set<String> accepted) {
        return report.request(query, accepted);
    }

    /**
     * Sends a browser that submitted the filter form with fields left blank to the same page without
     * them, so its address holds only the filters in use; true when it did.
     */
    static boolean redirectedWithoutBlanks(Context ctx) {
        boolean blanks = ctx.queryParamMap().entrySet().stream()
                .anyMatch(e -> !e.getKey().equals("page") && e.getValue().stream().anyMatch(String::isBlank));
        if (!blanks) {
            return false;
        }
        StringBuilder query = new StringBuilder();
        ctx.queryParamMap().forEach((name, values) -> {
            for (String value : values) {
                if (name.equals("page") || !value.isBlank()) {
                    query.append(query.isEmpty() ? "?" : "&").append(ReportLinks.encode(name)).append('=').append(ReportLinks.encode(value));
                }
            }
        });
        ctx.redirect(ctx.path() + query);
        return true;
    }

    static String render(String template, Object model) {
        StringOutput out = new StringOutput();
        TEMPLATES.render(template, model, out);
        return out.toString();
    }
}
