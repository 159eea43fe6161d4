package dev.crawlerrors.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.report.ReportPage;
import dev.crawlerrors.report.ReportRequest;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/** The report's three representations: HTML page, JSON page, and CSV of every matching row. */
final class ReportRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TemplateEngine TEMPLATES = TemplateEngine.createPrecompiled(ContentType.Html);

    private final CrawlErrorReport report;
    private final Supplier<List<String>> evidenceSources;

    ReportRoutes(CrawlErrorReport report, Supplier<List<String>> evidenceSources) {
        this.report = report;
        this.evidenceSources = evidenceSources;
    }

    void html(Context ctx) {
        ReportRequest request = report.request(ctx.queryParamMap());
        ReportPage page = report.page(request);
        boolean recorded = page.total() > 0 || report.hasRecords();
        boolean filtered = ctx.queryParamMap().keySet().stream().anyMatch(k -> !k.equals("page") && !k.equals("at"));
        ReportView view = new ReportView(page, new ReportLinks(ctx.queryParamMap(), page.at()), recorded, filtered, evidenceSources.get(),
                request.filter().hiddenBotTypes());
        ctx.html(render("report.jte", view));
    }

    void json(Context ctx) throws IOException {
        ReportRequest request = report.request(ctx.queryParamMap());
        ReportPage page = report.page(request);
        ctx.contentType("application/json; charset=utf-8").result(JSON.writeValueAsString(page));
    }

    void csv(Context ctx) throws IOException {
        // parsed before anything is written, so a bad parameter is still a clean 400
        ReportRequest request = report.request(ctx.queryParamMap());
        ctx.contentType("text/csv; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"crawl-errors.csv\"");
        if (ctx.method().equals(HandlerType.HEAD)) {
            return; // the headers are all HEAD answers with: the rows are not read
        }
        BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(ctx.outputStream(), StandardCharsets.UTF_8), 1 << 16);
        CsvWriter csv = new CsvWriter(writer);
        csv.row(ReportColumns.CSV_LABELS);
        report.forEachRow(request, row -> {
            try {
                csv.row(ReportColumns.csvCells(row));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.flush();
    }

    static String render(String template, Object model) {
        StringOutput out = new StringOutput();
        TEMPLATES.render(template, model, out);
        return out.toString();
    }
}
