package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.push.SyslogAddress;
import dev.crawlerrors.ingest.push.SyslogListener;
import dev.crawlerrors.pipeline.DrainSource;
import dev.crawlerrors.pipeline.LiveSource;
import dev.crawlerrors.pipeline.PushedLines;
import dev.crawlerrors.pipeline.SyslogSource;
import dev.crawlerrors.text.Failures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

    int syslogMaxConnections = SyslogListener.Options.DEFAULT.maxConnections();

    long syslogIdleTimeout = SyslogListener.Options.DEFAULT.idleTimeout().toSeconds();

    String syslogReceiveBuffer = (SyslogListener.Options.DEFAULT.receiveBuffer() >> 20) + "MiB";

    Path tokenFile;

    /** Adds {@code --syslog}, {@code --ingest-port} and {@code --ingest-token-file} to {@code command}. */
    PushedSourceOptions addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.listOption("--syslog", "udp|tcp://HOST:PORT", String.class, () -> syslog, value -> syslog = value,
                "Listen for access-log lines sent as syslog, e.g. by nginx's "
                        + "access_log syslog:server=127.0.0.1:5140; (RFC 3164 or 5424; over TCP octet-counted or one a line). "
                        + "A line is in the report within a second. Repeatable; port 0 picks a free one.").build());
        command.addOption(CommandSpecs.option("--syslog-max-connections", "N", int.class, () -> syslogMaxConnections,
                value -> syslogMaxConnections = value, "TCP syslog connections open at once (default: " + syslogMaxConnections
                        + "); a sender past them takes the place of the one idle longest (refused only when every one "
                        + "sent within the last second), each counted at /metrics.").build());
        command.addOption(CommandSpecs.option("--syslog-idle-timeout", "SECONDS", long.class, () -> syslogIdleTimeout,
                value -> syslogIdleTimeout = value, "A TCP syslog connection that sends nothing this long is closed (default: "
                        + syslogIdleTimeout + "); its sender reconnects when it has lines again.").build());
        command.addOption(CommandSpecs.option("--syslog-receive-buffer", "BYTES", String.class, () -> syslogReceiveBuffer,
                value -> syslogReceiveBuffer = value, "The UDP syslog socket's receive buffer, where a burst waits while lines are "
                        + "stored, e.g. 16MiB (default: " + syslogReceiveBuffer + "; the kernel grants at most net.core.rmem_max). "
                        + "Datagrams the kernel drops when it is full are counted at /metrics and said in the log.").build());
        command.addOption(CommandSpecs.option("--ingest-port", "P", Integer.class, () -> ingestPort, value -> ingestPort = value,
                "Serve the log drain on this port (on --bind; 0 picks a free one): POST /ingest with a batch of log "
                        + "lines, NDJSON or text (?format=NAME, else --format), gzip allowed, at most 64 MiB; answered once stored. "
                        + "Needs --ingest-token-file.").build());
        command.addOption(CommandSpecs.option("--ingest-token-file", "FILE", Path.class, () -> tokenFile, value -> tokenFile = value,
                "The file holding the bearer token the log drain requires (Authorization: Bearer <token>).").build());
        return this;
    }

    /** The parsed --syslog addresses and their bounds, and the token; checked before anything starts. */
    private List<SyslogAddress> addresses;
    private SyslogListener.Options syslogOptions;
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
        if (syslogMaxConnections < 1) {
            throw new ParameterException(spec.commandLine(), "--syslog-max-connections: " + syslogMaxConnections
                    + " allows no connection; pass 1 or more");
        }
        if (syslogIdleTimeout < 1) {
            throw new ParameterException(spec.commandLine(), "--syslog-idle-timeout: " + syslogIdleTimeout + " s would close every "
                    + "connection at once; pass 1 or more seconds");
        }
        syslogOptions = new SyslogListener.Options(syslogMaxConnections, Duration.ofSeconds(syslogIdleTimeout),
                receiveBufferBytes(), SyslogListener.Options.DEFAULT.dropCheckEvery());
        if (ingestPort == null && tokenFile != null) {
            throw new ParameterException(spec.commandLine(), "--ingest-token-file needs --ingest-port: the port the log drain listens on");
        }
        if (ingestPort == null) {
            return;
        }
        if (ingestPort < 0 || ingestPort > 65_535) {
            throw new ParameterException(spec.commandLine(), "--ingest-port must be a TCP port, 0 to 65535 (0 picks a free one); got " + ingestPort);
        }
        if (tokenFile == null) {
            throw new ParameterException(spec.commandLine(), "--ingest-port needs --ingest-token-file: the log drain accepts "
                    + "only senders that present its token; write one to a file (e.g. openssl rand -hex 32 > ingest.token)");
        }
        try {
            token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--ingest-token-file: " + tokenFile + " cannot be read (" + Failures.message(e) + ")");
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
            sources.add(new SyslogSource(address, syslogOptions, formats, lines, out));
        }
        return sources;
    }

    /** {@code --syslog-receive-buffer} in bytes: a number of bytes, or of KiB or MiB ({@code 512KiB}, {@code 16MiB}, {@code 16M}). */
    private int receiveBufferBytes() {
        String value = syslogReceiveBuffer.strip();
        int end = 0;
        while (end < value.length() && Character.isDigit(value.charAt(end))) {
            end++;
        }
        String unit = value.substring(end).strip().toLowerCase(Locale.ROOT);
        long factor = switch (unit) {
            case "", "b", "bytes" -> 1;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            default -> -1;
        };
        long bytes = end == 0 || end > 10 || factor < 0 ? -1 : Long.parseLong(value.substring(0, end)) * factor;
        if (bytes < 1 || bytes > Integer.MAX_VALUE) {
            throw new ParameterException(spec.commandLine(), "--syslog-receive-buffer: '" + syslogReceiveBuffer + "' is not a size "
                    + "from 1 byte to 2 GiB; pass bytes, KiB or MiB, e.g. 16MiB");
        }
        return (int) bytes;
    }
}
