package dev.crawlerrors.pipeline;

import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.push.SyslogAddress;
import dev.crawlerrors.ingest.push.SyslogListener;
import dev.crawlerrors.text.Figures;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.function.Consumer;

/** {@code serve --syslog}: access-log lines received as syslog, stored through {@link PushedLines}. */
public final class SyslogSource implements LiveSource {

    private final SyslogAddress address;
    private final SyslogListener.Options options;
    private final FormatChooser formats;
    private final PushedLines lines;
    private final Consumer<String> notices;
    private SyslogListener listener;

    /** @param notices told where it listens, and what it refused */
    public SyslogSource(SyslogAddress address, FormatChooser formats, PushedLines lines, Consumer<String> notices) {
        this(address, SyslogListener.Options.DEFAULT, formats, lines, notices);
    }

    /**
     * @param options the bounds on connections and idle time (TCP) and the receive buffer (UDP)
     * @param notices told where it listens, and what it refused or lost
     */
    public SyslogSource(SyslogAddress address, SyslogListener.Options options, FormatChooser formats, PushedLines lines,
            Consumer<String> notices) {
        this.address = address;
        this.options = options;
        this.formats = formats;
        this.lines = lines;
        this.notices = notices;
    }

    @Override
    public void start() throws IOException {
        try {
            listener = SyslogListener.start(address, options, formats, lines, notice -> notices.accept("syslog: " + notice));
        } catch (IOException e) {
            throw new IOException("cannot listen on " + address + " (" + e.getMessage() + "); pass another --syslog", e);
        }
        notices.accept("Listening for syslog on " + listener.address() + " (" + bounds() + ")");
    }

    /** What the listener bounds, as its start line says it. */
    private String bounds() {
        if (address.tcp()) {
            return "at most " + Figures.counted(options.maxConnections(), "connection") + ", each closed after "
                    + options.idleTimeout().toSeconds() + " s without a line: --syslog-max-connections, --syslog-idle-timeout";
        }
        // Linux reports twice the size asked for, half of it for its own bookkeeping, and grants at most net.core.rmem_max
        String granted = "receive buffer " + Figures.bytes(listener.receiveBuffer()) + " granted for " + Figures.bytes(options.receiveBuffer())
                + " asked (--syslog-receive-buffer)";
        boolean linux = System.getProperty("os.name", "").startsWith("Linux");
        return listener.receiveBuffer() < (linux ? 2L : 1L) * options.receiveBuffer()
                ? granted + "; the kernel's net.core.rmem_max caps it: raise it with sysctl for a larger one"
                : granted;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        SyslogListener bound = listener;
        Tags tags = Tags.of("listener", bound.address().toString());
        FunctionCounter.builder("crawl_errors_syslog_frames", bound, l -> l.totals().frames()).tags(tags)
                .description("syslog frames received").register(registry);
        FunctionCounter.builder("crawl_errors_syslog_frames_malformed", bound, l -> l.totals().malformedFrames()).tags(tags)
                .description("syslog frames dropped as malformed").register(registry);
        if (address.tcp()) {
            Gauge.builder("crawl_errors_syslog_connections_open", bound, SyslogListener::openConnections).tags(tags)
                    .description("TCP syslog connections open").register(registry);
            FunctionCounter.builder("crawl_errors_syslog_connections_refused", bound, l -> l.totals().refusedConnections()).tags(tags)
                    .description("TCP syslog connections refused: --syslog-max-connections were open").register(registry);
            FunctionCounter.builder("crawl_errors_syslog_connections_closed_idle", bound, l -> l.totals().idleConnectionsClosed())
                    .tags(tags).description("TCP syslog connections closed after --syslog-idle-timeout without a line, or the idlest to let a sender past --syslog-max-connections in").register(registry);
        } else if (bound.droppedDatagrams() >= 0) {
            // the kernel's own count, where the system tells it (Linux's /proc/net/udp)
            FunctionCounter.builder("crawl_errors_syslog_datagrams_dropped", bound, SyslogListener::droppedDatagrams).tags(tags)
                    .description("UDP syslog datagrams the kernel dropped: the receive buffer was full").register(registry);
        }
    }

    /** What the listener received and lost so far; once started. */
    public SyslogListener.Totals totals() {
        return listener.totals();
    }

    /** Where it listens, once started (port 0 becomes the port taken). */
    public SyslogAddress address() {
        return listener == null ? address : listener.address();
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.close();
        }
    }
}
