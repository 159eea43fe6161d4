package dev.crawlerrors.web;

import dev.crawlerrors.alert.AlertListing;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Where and how a {@link ReportServer} serves: one record instead of a {@code start} overload per
 * combination, so a caller names only what differs from the defaults
 * ({@code ServerConfig.on(bind, port).withReaders(8)}), as Javalin's {@code JavalinConfig} does.
 *
 * @param bind           the address to listen on
 * @param port           the port; 0 picks a free one
 * @param evidence       what the verdicts rest on, shown under the report (and above it when nothing can be proven)
 * @param meters         what the sources that feed the store count, at {@code /metrics}
 * @param readers        report requests answered at once; the others wait a moment, then get a 503
 * @param web            whom the server lets in and over what: its users log in to every path but {@code /health}, and
 *                       with its certificate the report is served over HTTPS only
 * @param alerts         the Alerts page's listing (null: the page says the built-in alerts are off)
 * @param pageCacheBytes the memory for report pages kept rendered ({@link RenderedPages}; 0 keeps none)
 * @param checked        done once the store's check at opening has passed (serve checks it beside the server's start):
 *                       report requests wait for it, and get a 503 if it failed (serve then stops)
 */
public record ServerConfig(String bind, int port, VerdictEvidence evidence, List<? extends MeterBinder> meters, int readers,
        WebConfig web, Supplier<List<AlertListing>> alerts, long pageCacheBytes, CompletionStage<Void> checked) {

    /** Report requests answered at once by default: about what two cores keep busy. */
    public static final int DEFAULT_READERS = 4;

    public ServerConfig {
        meters = List.copyOf(meters);
    }

    /** The defaults, on {@code bind}:{@code port}: no evidence, meters nor alerts, open to all over HTTP. */
    public static ServerConfig on(String bind, int port) {
        return new ServerConfig(bind, port, VerdictEvidence.NONE, List.of(), DEFAULT_READERS, WebConfig.NONE, null,
                RenderedPages.DEFAULT_BYTES, CompletableFuture.completedFuture(null));
    }

    public ServerConfig withEvidence(VerdictEvidence evidence) {
        return new ServerConfig(bind, port, evidence, meters, readers, web, alerts, pageCacheBytes, checked);
    }

    public ServerConfig withMeters(List<? extends MeterBinder> meters) {
        return new ServerConfig(bind, port, evidence, meters, readers, web, alerts, pageCacheBytes, checked);
    }

    public ServerConfig withReaders(int readers) {
        return new ServerConfig(bind, port, evidence, meters, readers, web, alerts, pageCacheBytes, checked);
    }

    public ServerConfig withWeb(WebConfig web) {
        return new ServerConfig(bind, port, evidence, meters, readers, web, alerts, pageCacheBytes, checked);
    }

    public ServerConfig withAlerts(Supplier<List<AlertListing>> alerts) {
        return new ServerConfig(bind, port, evidence, meters, readers, web, alerts, pageCacheBytes, checked);
    }

    public ServerConfig withPageCacheBytes(long pageCacheBytes) {
        return new ServerConfig(bind, port, evidence, meters, readers, web, alerts, pageCacheBytes, checked);
    }

    public ServerConfig withChecked(CompletionStage<Void> checked) {
        return new ServerConfig(bind, port, evidence, meters, readers, web, alerts, pageCacheBytes, checked);
    }
}
