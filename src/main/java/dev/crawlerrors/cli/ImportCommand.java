package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.pipeline.ImportSummary;
import dev.crawlerrors.pipeline.LogImport;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.remote.StoreSocketClient;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crawl-errors import FILE...}: reads access logs into the store. */
final class ImportCommand implements Callable<Integer> {

    private CommandSpec spec;

    final StoreOptions store = new StoreOptions();

    final FormatOption format = new FormatOption();

    List<String> files;

    /** The command, bound to this object. */
    CommandSpec spec() {
        spec = CommandSpecs.command(this, "import",
                "Imports access logs (nginx/Apache combined or common, JSON from nginx, Caddy or Traefik, W3C from IIS or "
                        + "CloudFront, or your own nginx/Apache format; "
                        + "plain, .gz or .zst; - for stdin) into the store, and prints a summary. A log imported before is read "
                        + "from where that import stopped (logs are known by their content, so rotation does not matter).");
        CommandSpecs.exitCodes(spec, "0:lines were imported, or every log was imported before", "1:nothing could be read",
                "2:bad usage");
        store.addTo(spec);
        format.addTo(spec);
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
        // DuckDB starts (its native library, the file) on another core while the catalog is read:
        // each is a tenth of a second or more of every import's start. A catalog of the user's own
        // is read first, so that a mistake in it leaves no store file behind.
        CompletableFuture<HitStore> opening = store.hasOwnCatalog() ? null
                : CompletableFuture.supplyAsync(store::openStoreForImport, task -> Thread.ofPlatform().daemon().name("store-open").start(task));
        CrawlerCatalog catalog = store.catalog();
        try (HitStore hits = opening == null ? store.openStoreForImport() : opened(opening);
             CrawlerVerifier verifier = store.verifier(catalog)) {
            LogImport job = new LogImport(hits, new CrawlerIdentifier(catalog), verifier, formats);
            ImportSummary summary = job.run(files, ImportProgress.on(terminal, System.err));
            summary.print(System.out);
            String where = hits instanceof StoreSocketClient through ? through.describe() : store.shownStore();
            System.out.println("Store: " + ShownText.of(where) + " (" + Figures.grouped(hits.size()) + " crawler hits in all).");
            return summary.succeeded() ? 0 : Main.RUNTIME_FAILURE;
        }
    }

    /** The store once open; a failure to open it is thrown as it was thrown. */
    private static HitStore opened(CompletableFuture<HitStore> opening) {
        try {
            return opening.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
