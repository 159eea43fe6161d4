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

    static final String DEFAULT_PORT = "8080";
    static final String DEFAULT_BIND = "127.0.0.1";

    int port;

    String bind;

    /** Adds {@code --port} and {@code --bind} to {@code command}. */
    ServerOptions addTo(CommandSpec command) {
        // the defaults are written into the descriptions, not filled in by picocli: a value it fills in
        // is wrapped where the JDK's line breaker likes, and 127.0.0.1 broke at a dot
        command.addOption(CommandSpecs.option("--port", "P", int.class, () -> port, value -> port = value,
                "TCP port (default: " + DEFAULT_PORT + "; 0 picks a free one).").defaultValue(DEFAULT_PORT).build());
        command.addOption(CommandSpecs.option("--bind", "ADDR", String.class, () -> bind, value -> bind = value,
                "Address to listen on (default: " + DEFAULT_BIND + "; 0.0.0.0 for every interface).").defaultValue(DEFAULT_BIND).build());
        return this;
    }

    ReportServer start(CrawlErrorReport report, HitStore hits, Supplier<List<String>> evidenceSources) {
        try {
            return ReportServer.start(report, hits, bind, port, evidenceSources);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot listen on " + bind + ":" + port + " (" + Failures.rootMessage(e)
                    + "); pass another --port", e);
        }
    }

    String displayHost() {
        return bind.equals("0.0.0.0") ? "localhost" : bind.contains(":") ? "[" + bind + "]" : bind;
    }
}
