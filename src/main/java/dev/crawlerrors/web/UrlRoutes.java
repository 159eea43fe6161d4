package dev.crawlerrors.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.report.RobotsFetches;
import dev.crawlerrors.report.RobotsHealth;
import dev.crawlerrors.report.UrlDetail;
import dev.crawlerrors.report.UrlDetails;
import dev.crawlerrors.report.UrlListPage;
import dev.crawlerrors.report.UrlReport;
import dev.crawlerrors.report.UrlRequest;
import dev.crawlerrors.report.UrlRow;
import dev.crawlerrors.store.UrlState;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.NotFoundResponse;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The URLs page (HTML, JSON, CSV), each URL's own page (HTML, JSON), and robots.txt's fetches (HTML, JSON). */
final class UrlRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final UrlReport urls;
    private final UrlDetails details;
    private final RobotsHealth robots;

    UrlRoutes(UrlReport urls, RobotsHealth robots) {
        this.urls = urls;
        this.details = new UrlDetails(urls);
        this.robots = robots;
    }

    void html(Context ctx) {
        UrlRequest request = urls.request(ctx.queryParamMap());
        if (ReportRoutes.redirectedWithoutBlanks(ctx)) {
            return;
        }
        UrlListPage page = urls.page(request);
        html(ctx, "urls.jte", new UrlsView(page, new UrlLinks(ctx.queryParamMap(), page.at()), shown(request)));
    }

    /** Which of the page's state choices a request shows. */
    private static String shown(UrlRequest request) {
        if (request.fixedOnly()) {
            return "fixed";
        }
        if (request.inconsistentOnly()) {
            return "inconsistent";
        }
        if (request.states().isEmpty() || request.states().equals(EnumSet.allOf(UrlState.State.class))) {
            return "all";
        }
        return request.states().size() == 1 ? request.states().iterator().next().name() : "";
    }

    void json(Context ctx) throws IOException {
        UrlRequest request = urls.request(ctx.queryParamMap());
        UrlListPage page = urls.page(request);
        ReportLinks links = new ReportLinks(ctx.queryParamMap(), page.at());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (UrlRow row : page.rows()) {
            Map<String, Object> json = JSON.convertValue(row, JSON.getTypeFactory().constructMapType(LinkedHashMap.class, String.class,
                    Object.class));
            json.put("page", links.url(row.url(), row.host()));
            rows.add(json);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("title", page.title());
        body.put("total", page.total());
        body.put("page", page.page());
        body.put("pages", page.pages());
        body.put("pageSize", page.pageSize());
        body.put("timeZone", page.timeZone());
        body.put("at", page.at());
        body.put("newer", page.newer());
        body.put("rows", rows);
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(body));
    }

    void csv(Context ctx) throws IOException {
        UrlRequest request = urls.request(ctx.queryParamMap()); // read before anything is written: a bad one is still a clean 400
        ctx.contentType("text/csv; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"crawl-errors-urls.csv\"");
        if (ctx.method().equals(HandlerType.HEAD)) {
            return;
        }
        BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(ctx.outputStream(), StandardCharsets.UTF_8), 1 << 16);
        CsvWriter csv = new CsvWriter(writer);
        boolean held = urls.sitemapsHeld(); // asked once: a sitemap read mid-response changes neither header nor rows
        csv.row(held ? UrlRow.CSV_LABELS_WITH_SITEMAPS : UrlRow.CSV_LABELS);
        urls.forEachRow(request, held, row -> {
            try {
                csv.row(row.csvCells());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.flush();
    }

    void urlHtml(Context ctx) {
        UrlDetail detail = detail(ctx);
        html(ctx, "url.jte", new UrlView(detail, ctx.queryParamMap()));
    }

    void urlJson(Context ctx) throws IOException {
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(detail(ctx)));
    }

    private UrlDetail detail(Context ctx) {
        return details.page(ctx.queryParamMap()).orElseThrow(() -> new NotFoundResponse("no crawler hit to "
                + ctx.queryParam("url") + " is recorded" + (ctx.queryParam("host") == null ? "" : " on " + ctx.queryParam("host"))
                + "; follow a link from the URLs page"));
    }

    void robotsHtml(Context ctx) {
        RobotsFetches fetches = robots.fetches(ctx.queryParamMap());
        html(ctx, "robots.jte", new RobotsView(fetches, ctx.queryParamMap()));
    }

    void robotsJson(Context ctx) throws IOException {
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(robots.fetches(ctx.queryParamMap())));
    }

    /** A page with the robots.txt alerts in its banner's place. */
    private void html(Context ctx, String template, Object model) {
        ctx.html(RobotsBanner.into(ReportRoutes.render(template, model), robots));
    }
}
