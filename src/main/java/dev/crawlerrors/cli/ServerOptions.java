package dev.crawlerrors.cli;

import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import dev.crawlerrors.web.WebConfig;
import dev.crawlerrors.web.WebConfigFile;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Where the report is served. */
final class ServerOptions {

    static final String DEFAULT_PORT = "8080";
    static final String DEFAULT_BIND = "127.0.0.1";
    /** Rendered pages kept by default: some 300 HTML pages, thousands of JSON ones. */
    static final int DEFAULT_PAGE_CACHE_MIB = 64;
    /** A bound that catches a size given in bytes where MiB were meant. */
    static final int MAX_PAGE_CACHE_MIB = 16_384;

    private CommandSpec spec;

    int port;

    String bind;

    int readers;

    /** MiB of rendered report pages kept, from {@code --page-cache}. */
    int pageCacheMib;

    Path webConfigFile;

    /** Who may read the report and over what, from {@code --web-config}; read by {@link #check()}. */
    private WebConfig web = WebConfig.NONE;

    /** Adds {@code --port} and {@code --bind} to {@code command}. */
    ServerOptions addTo(CommandSpec command) {
        spec = command;
        // the defaults are written into the descriptions, not filled in by picocli: a value it fills in
        // is wrapped where the JDK's line breaker likes, and 127.0.0.1 broke at a dot
        command.addOption(CommandSpecs.option("--port", "P", int.class, () -> port, value -> port = value,
                "TCP port (default: " + DEFAULT_PORT + "; 0 picks a free one).").defaultValue(DEFAULT_PORT).build());
        command.addOption(CommandSpecs.option("--bind", "ADDR", String.class, () -> bind, value -> bind = value,
                "Address to listen on (default: " + DEFAULT_BIND + "; 0.0.0.0 for every interface).").defaultValue(DEFAULT_BIND).build());
        command.addOption(CommandSpecs.option("--readers", "N", int.class, () -> readers, value -> readers = value,
                "Report requests answered at once (default: " + ServerConfig.DEFAULT_READERS + "); the others wait up to two "
                        + "seconds, then get 503 with Retry-After. Each holds a store connection while it runs.")
                .defaultValue(Integer.toString(ServerConfig.DEFAULT_READERS)).build());
        command.addOption(CommandSpecs.option("--page-cache", "MIB", int.class, () -> pageCacheMib, value -> pageCacheMib = value,
                "Memory for report pages kept rendered and gzipped, each shared by every reader until new hits arrive (default: "
                        + DEFAULT_PAGE_CACHE_MIB + " MiB; 0 keeps none).").defaultValue(Integer.toString(DEFAULT_PAGE_CACHE_MIB)).build());
        command.addOption(CommandSpecs.option("--web-config", "FILE", Path.class, () -> webConfigFile, value -> webConfigFile = value,
                "Who may read the report, in the web config format of Prometheus's exporters: basic_auth_users (bcrypt "
                        + "hashes) must log in to every page, the API, the CSV and /metrics (/health stays open); "
                        + "tls_server_config's cert_file and key_file serve it over HTTPS.").build());
        return this;
    }

    /**
     * Checks, before anything is made, that the report can be served where the options say: the
     * address is one of this machine's (else a usage error, exit 2) and the port free on it (else a
     * failure, exit 1), by binding it for a moment as the server will.
     */
    void check() {
        if (port < 0 || port > 65_535) {
            throw new ParameterException(spec.commandLine(), "--port must be a TCP port, 0 to 65535 (0 picks a free one); got " + port);
        }
        if (readers < 1) {
            throw new ParameterException(spec.commandLine(), "--readers must be 1 or more; got " + readers);
        }
        if (pageCacheMib < 0 || pageCacheMib > MAX_PAGE_CACHE_MIB) {
            throw new ParameterException(spec.commandLine(), "--page-cache must be 0 to " + MAX_PAGE_CACHE_MIB + " (MiB); got " + pageCacheMib);
        }
        if (webConfigFile != null) {
            try {
                web = WebConfigFile.read(webConfigFile);
            } catch (WebConfigFile.BadWebConfigException e) {
                throw new ParameterException(spec.commandLine(), "--web-config " + webConfigFile + ": " + e.getMessage());
            }
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--bind: '" + bind + "' is no address of this machine (no host has that "
                    + "name); pass one of its addresses, such as 127.0.0.1, or 0.0.0.0 for every interface");
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true); // as the server's own socket: a port whose last connections linger in TIME_WAIT is free
            probe.bind(new InetSocketAddress(address, port));
        } catch (IOException e) {
            throw cannotListen(e);
        }
        if (!address.isLoopbackAddress() && !web.authenticates()) {
            System.err.println("crawl-errors: warning: the report on " + bind + " can be read by anyone who reaches it; "
                    + "ask for a login with --web-config FILE, or serve it behind a proxy that does (docs/operations.md)");
        }
    }

    /** Where and how the options say to serve, for callers to add what they show ({@link #start}). */
    ServerConfig config() {
        return ServerConfig.on(bind, port).withReaders(readers).withWeb(web).withPageCacheBytes((long) pageCacheMib << 20);
    }

    /** Starts the report's server as {@code config} says, or says in plain words why it cannot listen. */
    ReportServer start(CrawlErrorReport report, StoreHealth health, ServerConfig config) {
        try {
            return ReportServer.start(report, health, config);
        } catch (RuntimeException e) {
            throw cannotListen(e);
        }
    }

    /**
     * Why the report cannot be served on {@code --bind}:{@code --port}, and what to change: an
     * address that is not this machine's is a wrong --bind, not a busy port.
     */
    private RuntimeException cannotListen(Exception e) {
        String reason = Failures.rootMessage(e);
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof BindException && reason.contains("Cannot assign requested address")) {
            return new ParameterException(spec.commandLine(), "--bind: " + bind + " is not an address of this machine; pass one of "
                    + "its own, such as 127.0.0.1, or 0.0.0.0 for every interface");
        }
        if (root instanceof BindException && reason.contains("already in use")) {
            return new IllegalStateException("cannot listen on " + bind + ":" + port + ": another program listens there (another "
                    + "crawl-errors serve?); pass another --port, or --port 0 for a free one", e);
        }
        if (root instanceof BindException && reason.contains("Permission denied")) {
            return new IllegalStateException("cannot listen on " + bind + ":" + port + ": this user may not listen on ports below "
                    + "1024; pass --port 1024 or above (a proxy in front can answer on port 80)", e);
        }
        return new IllegalStateException("cannot listen on " + bind + ":" + port + " (" + reason + "); pass another --bind or --port", e);
    }

    /** {@code https} when the report is served over TLS, else {@code http}. */
    String scheme() {
        return web.scheme();
    }

    String displayHost() {
        return bind.equals("0.0.0.0") ? "localhost" : bind.contains(":") ? "[" + bind + "]" : bind;
    }
}
