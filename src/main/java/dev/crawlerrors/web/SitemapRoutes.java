package dev.crawlerrors.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.report.ReportRequest;
import dev.crawlerrors.report.SitemapReport;
import dev.crawlerrors.report.SitemapsPage;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The sitemaps page: HTML, JSON, and CSV of every sitemap URL with what the crawlers got from it. */
final class SitemapRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SitemapReport sitemaps;
    private final dev.crawlerrors.report.RobotsHealth robots;

    SitemapRoutes(SitemapReport sitemaps, dev.crawlerrors.report.RobotsHealth robots) {
        this.sitemaps = sitemaps;
        this.robots = robots;
    }

    void html(Context ctx) {
        ReportRequest request = sitemaps.request(ctx.queryParamMap());
        if (ReportRoutes.redirectedWithoutBlanks(ctx)) {
            return;
        }
        SitemapsPage page = sitemaps.page(request);
        ctx.html(RobotsBanner.into(ReportRoutes.render("sitemaps.jte", new SitemapsView(page, new ReportLinks(ctx.queryParamMap(), page.at()))),
                robots));
    }

    void json(Context ctx) throws IOException {
        SitemapsPage page = sitemaps.page(sitemaps.request(ctx.queryParamMap()));
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(page));
    }

    void csv(Context ctx) throws IOException {
        ReportRequest request = sitemaps.request(ctx.queryParamMap()); // read before anything is written: a bad one is still a clean 400
        ctx.contentType("text/csv; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"crawl-errors-sitemaps.csv\"");
        if (ctx.method().equals(HandlerType.HEAD)) {
            return;
        }
        BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(ctx.outputStream(), StandardCharsets.UTF_8), 1 << 16);
        CsvWriter csv = new CsvWriter(writer);
        csv.row(SitemapReport.csvLabels(sitemaps.crawler(request)));
        sitemaps.forEachRow(request, cells -> {
            try {
                csv.row(cells);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.flush();
    }
}
