package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.pipeline.ImportSummary;
import dev.crawlerrors.pipeline.LogImport;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.store.remote.StoreSocketClient;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.Futures;
import dev.crawlerrors.text.ShownText;
import dev.crawlerrors.text.Threads;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crawl-errors import FILE...}: reads access logs into the store. */
final class ImportCommand implements Callable<Integer> {

    private CommandSpec spec;

    final StoreOptions store = new StoreOptions();

    final FormatOption format = new FormatOption();

    final SitemapOptions sitemaps = new SitemapOptions();

    List<String> files;

    boolean verbose;

    /** The command, bound to this object. */
    CommandSpec spec() {
        spec = CommandSpecs.command(this, "import",
                "Imports access logs (nginx/Apache combined or common, JSON from nginx, Caddy or Traefik, W3C from IIS or "
                        + "CloudFront, or your own nginx/Apache format; "
                        + "plain, .gz or .zst; - for stdin) into the store, and prints a summary. A log imported before is read "
                        + "from where that import stopped (logs are known by their content, so rotation does not matter).");
        CommandSpecs.exitCodes(spec, "0:every log named was read (or found imported before, or empty), and what it held is stored",
                "1:a log named could not be read (missing, not allowed, damaged, in no format known; the others were imported),"
                        + " a glob matched nothing, a --sitemap was refused (its last good copy kept), or the store failed",
                "2:bad usage");
        store.addTo(spec);
        format.addTo(spec);
        sitemaps.addTo(spec, false);
        spec.addOption(CommandSpecs.option("--verbose", null, boolean.class, () -> verbose, value -> verbose = value,
                "A line for each log in the summary (new, grown, already imported, unchanged, empty); without it, the logs "
                        + "are counted by outcome and format.").build());
        spec.addPositional(CommandSpecs.listPositional("FILE|DIR|GLOB", String.class, () -> files, value -> files = value,
                "Access logs to import: files; directories (the logs in them); globs such as "
                        + "'/var/log/nginx/access.log*'; - reads standard input. Rotated logs are read oldest first.")
                .arity("1..*").required(true).build());
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        StandardErrorTerminal terminal = StandardErrorTerminal.find();
        // on a terminal a progress bar may be drawn on the current line: start the notice on a clean one
        String clearLine = terminal != null ? "\r\033[K" : "";
        FormatChooser formats = format.chooser(notice -> spec.commandLine().getErr().println(clearLine + ShownText.of(notice)));
        // the options' values are checked before the store's file is made: a mistake leaves none behind
        store.validate();
        String siteHost = sitemaps.host();
        boolean existed = store.storeExists();
        // the logs are listed meanwhile, on a thread of their own
        LogImport.Listing listing = LogImport.listAhead(files);
        // DuckDB starts (its native library, the file) on another core while the catalog is read:
        // each is a tenth of a second or more of every import's start. A catalog of the user's own
        // is read first, so that a mistake in it leaves no store file behind.
        CompletableFuture<WritableStore> opening = store.hasOwnCatalog() ? null
                : CompletableFuture.supplyAsync(store::openStoreForImport, task -> Threads.startDaemon("store-open", task));
        CrawlerCatalog catalog = store.catalog();
        boolean reading = false;
        try (WritableStore hits = opening == null ? store.openStoreForImport() : opened(opening);
             CrawlerVerifier verifier = store.verifier(catalog)) {
            reading = true;
            LogImport job = new LogImport(hits, new CrawlerIdentifier(catalog), verifier, formats).onHost(siteHost);
            // printed once the store committed what the import read: the summary says what is stored
            ImportSummary summary = job.run(listing, ImportProgress.on(terminal, System.err), verbose);
            summary.print(System.out);
            String where = hits instanceof StoreSocketClient through ? through.describe() : store.shownStore();
            System.out.println("Store: " + ShownText.of(where) + " (" + storedInAll(hits) + ").");
            // after the logs: a sitemap refused costs the import nothing it read
            boolean sitemapsRead = sitemaps.reads(hits, notice -> System.out.println(ShownText.of(notice))).readAll();
            return summary.succeeded() && sitemapsRead ? 0 : Main.RUNTIME_FAILURE;
        } catch (Exception | Error e) {
            if (!reading) {
                store.removeIfMadeNow(existed); // a store made for an import that never began; one that did keeps what it stored
            }
            throw e;
        }
    }

    /** {@code 10,067 crawler hits in all}, as the summary writes numbers; what it can say when the store failed. */
    private static String storedInAll(WritableStore hits) {
        try {
            return Figures.counted(hits.health().size(), "crawler hit") + " in all";
        } catch (RuntimeException e) {
            return "it cannot say how many crawler hits it holds: " + ShownText.of(Failures.message(e));
        }
    }

    /** The store once open; a failure to open it is thrown as it was thrown. */
    private static WritableStore opened(CompletableFuture<WritableStore> opening) {
        return Futures.join(opening);
    }
}
