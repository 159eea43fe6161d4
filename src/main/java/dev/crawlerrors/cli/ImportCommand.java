package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.CrawlerVerifier;
import dev.crawlerrors.store.HitStore;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code crawl-errors import FILE...}: reads access logs into the store. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Imports access logs (nginx/Apache combined, optionally with a trailing request time; "
                + "plain, .gz or .zst; - for stdin) into the store, and prints a summary. A log imported before is read "
                + "from where that import stopped (logs are known by their content, so rotation does not matter).",
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:lines were imported, or every log was imported before", "1:nothing could be read", "2:bad usage"})
final class ImportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions store;

    @Option(names = "--format", defaultValue = "auto", paramLabel = "FORMAT",
            description = "Log format: auto or combined (default: ${DEFAULT-VALUE}; this version reads combined).")
    String format;

    @Parameters(arity = "1..*", paramLabel = "FILE|DIR|GLOB",
            description = "Access logs to import: files; directories (the logs in them); globs such as "
                    + "'/var/log/nginx/access.log*'; - reads standard input. Rotated logs are read oldest first.")
    List<String> files;

    @Override
    public Integer call() throws Exception {
        if (!format.equals("auto") && !format.equals("combined")) {
            throw new ParameterException(spec.commandLine(), "--format: '" + format + "' is not a format this version reads; use auto or combined");
        }
        CrawlerCatalog catalog = store.catalog();
        try (HitStore hits = store.openStore(); CrawlerVerifier verifier = store.verifier(catalog)) {
            LogImport job = new LogImport(hits, new CrawlerIdentifier(catalog), verifier);
            boolean terminal = System.console() != null;
            ImportSummary summary = job.run(files, terminal, System.err);
            summary.print(System.out);
            System.out.println("Store: " + store.dbPath() + " (" + hits.size() + " crawler hits in all).");
            return summary.succeeded() ? 0 : Main.RUNTIME_FAILURE;
        }
    }
}
