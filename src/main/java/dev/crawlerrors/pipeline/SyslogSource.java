package dev.crawlerrors.pipeline;

import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.push.SyslogAddress;
import dev.crawlerrors.ingest.push.SyslogListener;
import java.io.IOException;
import java.util.function.Consumer;

/** {@code serve --syslog}: access-log lines received as syslog, stored through {@link PushedLines}. */
public final class SyslogSource implements LiveSource {

    private final SyslogAddress address;
    private final FormatChooser formats;
    private final PushedLines lines;
    private final Consumer<String> notices;
    private SyslogListener listener;

    /** @param notices told where it listens, and what it refused */
    public SyslogSource(SyslogAddress address, FormatChooser formats, PushedLines lines, Consumer<String> notices) {
        this.address = address;
        this.formats = formats;
        this.lines = lines;
        this.notices = notices;
    }

    @Override
    public void start() throws IOException {
        try {
            listener = SyslogListener.start(address, formats, lines, notice -> notices.accept("syslog: " + notice));
        } catch (IOException e) {
            throw new IOException("cannot listen on " + address + " (" + e.getMessage() + "); pass another --syslog", e);
        }
        notices.accept("Listening for syslog on " + listener.address());
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
