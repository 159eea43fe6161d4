package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitReader;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code --url-names}: the site's own URL templates, which name the placeholders of the URL patterns
 * the report finds ({@code /{city}/{street}} rather than {@code /{1}/{2}}).
 */
final class UrlNamesOption {

    private CommandSpec spec;

    List<String> templates = new ArrayList<>();

    /** Adds {@code --url-names} to {@code command}, with {@code defaults} when it is not given. */
    UrlNamesOption addTo(CommandSpec command, List<String> defaults) {
        spec = command;
        templates = new ArrayList<>(defaults);
        command.addOption(CommandSpecs.listOption("--url-names", "TEMPLATE", String.class, () -> templates, value -> templates = value,
                "A URL template of the site, such as '/{city}/{street}/{section}': the URL patterns the report finds name their "
                        + "placeholders after it, place by place ({1}, {2}, ... where no template names a place). Repeatable."
                        + (defaults.isEmpty() ? "" : " Default: " + String.join(" ", defaults) + "."))
                .build());
        return this;
    }

    /**
     * Checks the templates, before anything starts.
     *
     * @throws ParameterException (exit 2) for a template that is not one, naming {@code --url-names}
     */
    void check() {
        try {
            CrawlErrorReport.checkUrlNames(templates);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--url-names: " + e.getMessage());
        }
    }

    /** The report over {@code store}, its patterns named by these templates ({@link #check checked} first). */
    CrawlErrorReport report(HitReader store, ZoneId zone) {
        return report(store, zone, null);
    }

    /** As above, its {@code crawler} filter knowing {@code catalog}'s names (null: the built-in catalog's). */
    CrawlErrorReport report(HitReader store, ZoneId zone, CrawlerCatalog catalog) {
        return new CrawlErrorReport(store, ReportConfig.in(zone).withCatalog(catalog).withUrlNames(templates));
    }
}
