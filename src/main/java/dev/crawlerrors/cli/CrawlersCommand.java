package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CatalogListing;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.text.ShownText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code crawl-errors crawlers [--crawlers FILE]}: lists the crawlers this tool knows, one a line:
 * name, operator, bot type, where the entry comes from, how a hit of it is verified, and from
 * which lists and DNS domains. Every field is shown with its controls escaped: a user's catalog
 * file may hold anything.
 */
final class CrawlersCommand implements Callable<Integer> {

    static final List<String> HEADER = List.of("NAME", "OPERATOR", "BOT TYPE", "SOURCE", "VERIFIED BY", "FROM");
    /** The widest a column is padded to; a longer value is shown whole and shifts the rest of its line. */
    private static final int[] MAX_WIDTH = {36, 24, 23, 16, 22};

    private CommandSpec spec;

    Path crawlers;

    CommandSpec spec() {
        spec = CommandSpecs.command(this, "crawlers", "Lists the crawlers this tool knows: name, operator, bot type, where the "
                + "entry comes from, how each is verified and from where (published IP lists, reverse-DNS domains, the key directories of the "
                + "agents that sign their requests).");
        CommandSpecs.exitCodes(spec, "0:listed", "2:bad usage (a --crawlers file that is not a catalog)");
        spec.addOption(CommandSpecs.option("--crawlers", "FILE", Path.class, () -> crawlers, value -> crawlers = value,
                "A crawler catalog (JSON, the shape of the built-in crawlers.json) laid over the built-in one: "
                        + "same names replace, new names are added.").build());
        return spec;
    }

    @Override
    public Integer call() {
        CrawlerCatalog builtIn = CrawlerCatalog.builtIn();
        CrawlerCatalog catalog = builtIn;
        if (crawlers != null) {
            try {
                catalog = builtIn.extendedWith(crawlers);
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "--crawlers: " + e.getMessage());
            }
        }
        List<CatalogListing.Row> rows = CatalogListing.rows(catalog, builtIn, crawlers == null ? "" : crawlers.toString());
        long longTail = rows.stream().filter(r -> r.source().equals(CatalogListing.LONG_TAIL)).count();
        String version = catalog.longTail().map(t -> t.catalog().version()).orElse("");
        System.out.println("# " + rows.size() + " crawlers: " + (rows.size() - longTail) + " of crawl-errors' own catalog"
                + (crawlers == null ? "" : " and " + ShownText.of(crawlers.toString())) + ", " + longTail
                + " more named by device-detector's bots (" + version + ", LGPL-3.0-or-later), which publish no way to verify them");
        long signing = catalog.crawlers().stream().filter(c -> !c.signatureAgents().isEmpty()).count();
        System.out.println("# " + signing + " of them sign their requests (Web Bot Auth): a signed request is its signer's hit whatever"
                + " its user agent, verified by its key directory; a signer the catalog does not name is a fetcher_user named after its host");
        print(rows, System.out);
        return 0;
    }

    /**
     * The rows as columns under {@link #HEADER}, each field escaped, separated by two spaces and
     * padded to the column's widest value up to {@link #MAX_WIDTH}; the last column is not padded.
     */
    static void print(List<CatalogListing.Row> rows, PrintStream out) {
        List<List<String>> lines = new ArrayList<>();
        lines.add(HEADER);
        for (CatalogListing.Row row : rows) {
            lines.add(List.of(shown(row.name()), shown(row.operator()), row.botType().name(), shown(row.source()),
                    row.verifiedBy(), shown(row.from())));
        }
        int[] widths = new int[MAX_WIDTH.length];
        for (List<String> line : lines) {
            for (int c = 0; c < widths.length; c++) {
                widths[c] = Math.min(MAX_WIDTH[c], Math.max(widths[c], line.get(c).length()));
            }
        }
        StringBuilder text = new StringBuilder();
        for (List<String> line : lines) {
            StringBuilder printed = new StringBuilder();
            for (int c = 0; c < line.size(); c++) {
                printed.append(line.get(c));
                if (c < line.size() - 1) {
                    printed.append(" ".repeat(Math.max(0, widths[c] - line.get(c).length()) + 2));
                }
            }
            text.append(printed.toString().stripTrailing()).append('\n');
        }
        out.print(text);
        out.flush();
    }

    private static String shown(String text) {
        return text == null || text.isEmpty() ? "-" : ShownText.of(text);
    }
}
