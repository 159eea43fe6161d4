package dev.crawlerrors.pipeline;

import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.push.LogDrainServer;
import dev.crawlerrors.text.Failures;
import java.io.IOException;
import java.util.function.Consumer;

/** {@code serve --ingest-port}: the log drain, batches POSTed over HTTP, stored through {@link PushedLines}. */
public final class DrainSource implements LiveSource {

    private final String bind;
    private final String displayHost;
    private final int port;
    private final String token;
    private final String tokenFile;
    private final FormatChooser formats;
    private final PushedLines lines;
    private final Consumer<String> notices;
    private LogDrainServer drain;

    /**
     * @param displayHost {@code bind} as a link names it
     * @param tokenFile   where the token came from, as the user named it
     */
    public DrainSource(String bind, String displayHost, int port, String token, String tokenFile, FormatChooser formats,
            PushedLines lines, Consumer<String> notices) {
        this.bind = bind;
        this.displayHost = displayHost;
        this.port = port;
        this.token = token;
        this.tokenFile = tokenFile;
        this.formats = formats;
        this.lines = lines;
        this.notices = notices;
    }

    @Override
    public void start() throws IOException {
        try {
            drain = LogDrainServer.start(bind, port, token, formats, lines);
        } catch (RuntimeException e) {
            throw new IOException("cannot listen on " + bind + ":" + port + " (" + Failures.rootMessage(e) + "); pass another --ingest-port", e);
        }
        notices.accept("Taking log batches at http://" + displayHost + ":" + drain.port() + LogDrainServer.PATH
                + " (POST, Authorization: Bearer <the token in " + tokenFile + ">)");
    }

    /** The port taken, once started. */
    public int port() {
        return drain.port();
    }

    @Override
    public void close() {
        if (drain != null) {
            drain.close();
        }
    }
}
