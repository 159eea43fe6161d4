package dev.crawlerrors.cli;

import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.web.ReportServer;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/** Where the report is served. */
final class ServerOptions {

    int port;

    String bind;

    int readers;

    /** Adds {@code --port} and {@code --bind} to {@code command}. */
    ServerOptions addTo(CommandSpec command) {
        command.addOption(CommandSpecs.option("--port", "P", int.class, () -> port, value -> port = value,
                "TCP port (default: ${DEFAULT-VALUE}; 0 picks a free one).").defaultValue("8080").build());
        command.addOption(CommandSpecs.option("--bind", "ADDR", String.class, () -> bind, value -> bind = value,
                "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).").defaultValue("127.0.0.1").build());
        command.addOption(CommandSpecs.option("--readers", "N", int.class, () -> readers, value -> readers = value,
                "Report requests answered at once (default: ${DEFAULT-VALUE}); the others wait up to two seconds, "
                        + "then get 503 with Retry-After. Each holds a store connection while it runs.")
                .defaultValue(Integer.toString(ReportServer.DEFAULT_READERS)).build());
        return this;
    }

    ReportServer start(CrawlErrorReport report, HitStore hits, Supplier<List<String>> evidenceSources) {
        try {
            return ReportServer.start(report, hits, bind, port, evidenceSources, readers);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot listen on " + bind + ":" + port + " (" + Failures.rootMessage(e)
                    + "); pass another --port", e);
        }
    }

    String displayHost() {
        return bind.equals("0.0.0.0") ? "localhost" : bind.contains(":") ? "[" + bind + "]" : bind;
    }
}
