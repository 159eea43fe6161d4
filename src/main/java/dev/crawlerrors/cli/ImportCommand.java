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
                + "plain or .gz; - for stdin) into the store, and prints a summary.")
final class ImportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions store;

    @Option(names = "--format", defaultValue = "auto", paramLabel = "FORMAT",
            description = "Log format: auto or combined (default: ${DEFAULT-VALUE}; this version reads combined).")
    String format;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Access logs to import; - reads standard input.")
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
            return summary.lines.linesParsed() > 0 ? 0 : Main.RUNTIME_FAILURE;
        }
    }
}
