package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.push.SyslogAddress;
import dev.crawlerrors.pipeline.DrainSource;
import dev.crawlerrors.pipeline.LiveSource;
import dev.crawlerrors.pipeline.PushedLines;
import dev.crawlerrors.pipeline.SyslogSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code serve}'s sources that lines are pushed to over the network: syslog listeners
 * ({@code --syslog}) and the log drain ({@code --ingest-port}, {@code --ingest-token-file}).
 * Both hand their batches to one {@link PushedLines}.
 */
final class PushedSourceOptions {

    private CommandSpec spec;

    List<String> syslog = new ArrayList<>();

    Integer ingestPort;

    Path tokenFile;

    /** Adds {@code --syslog}, {@code --ingest-port} and {@code --ingest-token-file} to {@code command}. */
    PushedSourceOptions addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.listOption("--syslog", "udp|tcp://HOST:PORT", String.class, () -> syslog, value -> syslog = value,
                "Listen for access-log lines sent as syslog, e.g. by nginx's "
                        + "access_log syslog:server=127.0.0.1:5140; (RFC 3164 or 5424; over TCP octet-counted or one a line). "
                        + "A line is in the report within a second. Repeatable; port 0 picks a free one.").build());
        command.addOption(CommandSpecs.option("--ingest-port", "P", Integer.class, () -> ingestPort, value -> ingestPort = value,
                "Serve the log drain on this port (on --bind; 0 picks a free one): POST /ingest with a batch of log "
                        + "lines, NDJSON or text (?format=NAME, else --format), gzip allowed, at most 64 MiB; answered once stored. "
                        + "Needs --ingest-token-file.").build());
        command.addOption(CommandSpecs.option("--ingest-token-file", "FILE", Path.class, () -> tokenFile, value -> tokenFile = value,
                "The file holding the bearer token the log drain requires (Authorization: Bearer <token>).").build());
        return this;
    }

    /** The parsed --syslog addresses, and the token; checked before anything starts. */
    private List<SyslogAddress> addresses;
    private String token;

    /** Whether any source is asked for. */
    boolean any() {
        return !syslog.isEmpty() || ingestPort != null;
    }

    /** Checks the options: a bad one is a usage error (exit 2) before anything starts. */
    void check() {
        addresses = new ArrayList<>();
        for (String value : syslog) {
            try {
                addresses.add(SyslogAddress.parse(value));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--syslog: " + e.getMessage());
            }
        }
        if (ingestPort == null && tokenFile != null) {
            throw new ParameterException(spec.commandLine(), "--ingest-token-file needs --ingest-port: the port the log drain listens on");
        }
        if (ingestPort == null) {
            return;
        }
        if (tokenFile == null) {
            throw new ParameterException(spec.commandLine(), "--ingest-port needs --ingest-token-file: the log drain accepts "
                    + "only senders that present its token; write one to a file (e.g. openssl rand -hex 32 > ingest.token)");
        }
        try {
            token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--ingest-token-file: " + tokenFile + " cannot be read (" + e + ")");
        }
        if (token.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--ingest-token-file: " + tokenFile + " is empty; write the token "
                    + "senders must present to it (e.g. openssl rand -hex 32 > " + tokenFile + ")");
        }
    }

    /**
     * The listeners and the drain the options ask for, not yet started.
     *
     * @param formats the format of the lines pushed ({@code --format}; the drain's {@code ?format=} overrides it per batch)
     * @param out     told where each listens once started, and what the listeners refused
     */
    List<LiveSource> sources(ServerOptions server, FormatChooser formats, PushedLines lines, Consumer<String> out) {
        List<LiveSource> sources = new ArrayList<>();
        if (ingestPort != null) {
            sources.add(new DrainSource(server.bind, server.displayHost(), ingestPort, token, tokenFile.toString(), formats, lines, out));
        }
        for (SyslogAddress address : addresses) {
            sources.add(new SyslogSource(address, formats, lines, out));
        }
        return sources;
    }
}
