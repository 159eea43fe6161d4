package dev.crawlerrors.cli;

import dev.crawlerrors.pipeline.FollowProgress;
import dev.crawlerrors.pipeline.ImportListener;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
import java.io.PrintStream;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Shows how an import is going, over all its logs: on a terminal a progress bar over the bytes of
 * every file (with lines/s, the time left and the file being read; see {@link ImportBarLine}),
 * redrawn every second; off a terminal, a line with the rate every {@link FollowProgress#EVERY},
 * as {@code serve --follow} says how it goes.
 *
 * <p>The bar is the library's (its thread redraws it), with a layout and a terminal line of our
 * own: built with its defaults, it starts JLine's terminal on the import's thread (0.35-0.5 s in a
 * bare JVM here: five {@code tty} processes and a native library loaded) and runs {@code stty -a}
 * at every redraw to learn the width. Here the width is asked once, on the bar's thread.
 */
final class ImportProgress implements ImportListener {

    private static final long LOG_EVERY_NANOS = FollowProgress.EVERY.toNanos();

    private final long totalBytes;
    private final int sources;
    private final IntSupplier terminalColumns;
    private final PrintStream log;
    private final LongSupplier nanoTime;
    private final long started;
    private ProgressBar bar;
    private TerminalLine barLine;
    private long lastLog;
    /** Bytes and lines of the logs finished before the current one. */
    private long bytesDone;
    private long linesDone;
    /** The raw bytes read of the current log so far. */
    private LongSupplier current;
    private long currentLines;
    // read by the bar's thread when it redraws
    private volatile String counter = "";
    private volatile String name = "";
    private volatile long linesRead;

    /**
     * @param totalBytes      the raw bytes all logs will read, or -1 when unknown (standard input)
     * @param sources         how many logs will be read
     * @param terminalColumns the width of the terminal {@code log} writes to, asked when the bar is
     *                        first drawn, on the bar's own thread; null when {@code log} is not a terminal
     * @param nanoTime        the clock the rates, the time left and the log's interval are measured by
     */
    ImportProgress(long totalBytes, int sources, IntSupplier terminalColumns, PrintStream log, LongSupplier nanoTime) {
        this.totalBytes = totalBytes;
        this.sources = sources;
        this.terminalColumns = terminalColumns;
        this.log = log;
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.lastLog = started;
    }

    /**
     * The progress of an import that writes to {@code log}: a bar when {@code terminal} is the
     * terminal {@code log} writes to, else the rate every few seconds.
     */
    static ImportListener.Factory on(StandardErrorTerminal terminal, PrintStream log) {
        IntSupplier columns = terminal == null ? null : terminal::columns;
        return (totalBytes, sources) -> new ImportProgress(totalBytes, sources, columns, log, System::nanoTime);
    }

    /** Starts on the {@code index}-th (from 0) log; what the previous one read counts as done. */
    @Override
    public LongConsumer reading(String sourceName, LongSupplier bytesRead, int index) {
        finishCurrent();
        current = bytesRead;
        counter = sources > 1 ? (index + 1) + "/" + sources : "";
        name = ShownText.of(shortName(sourceName));
        if (terminalColumns != null && bar == null && totalBytes != 0) {
            barLine = new TerminalLine(log, terminalColumns);
            bar = new ProgressBarBuilder().setInitialMax(totalBytes > 0 ? totalBytes : -1)
                    .setRenderer((state, width) -> line(state.getCurrent()).fit(width))
                    .setConsumer(barLine).build();
        }
        return this::advanced;
    }

    private void advanced(long lines) {
        currentLines = lines;
        linesRead = linesDone + lines;
        if (bar != null) {
            bar.stepTo(bytesDone + current.getAsLong());
            return;
        }
        long now = nanoTime.getAsLong();
        if (now - lastLog >= LOG_EVERY_NANOS) {
            lastLog = now;
            long read = linesDone + lines;
            double seconds = (now - started) / 1e9;
            long rate = seconds > 0 ? Math.round(read / seconds) : 0;
            String share = totalBytes > 0
                    ? ", " + Math.min(100, (bytesDone + current.getAsLong()) * 100 / totalBytes) + "% of "
                            + Figures.bytes(totalBytes)
                    : "";
            String label = counter.isEmpty() ? name : counter + " " + name;
            log.println("import " + label + ": " + Figures.grouped(read) + " lines, " + Figures.grouped(rate) + " lines/s" + share);
        }
    }

    /** The bar's line with {@code bytes} read, as it stands now. */
    private ImportBarLine line(long bytes) {
        return new ImportBarLine(bytes, totalBytes, linesRead, nanoTime.getAsLong() - started, counter, name);
    }

    private void finishCurrent() {
        if (current != null) {
            bytesDone += current.getAsLong();
            linesDone += currentLines;
            currentLines = 0;
        }
    }

    @Override
    public void close() {
        finishCurrent();
        current = null;
        if (bar != null) {
            bar.stepTo(bytesDone);
            bar.close();
            // a bar closed before its thread first drew it draws once and leaves its line open
            barLine.close();
        }
    }

    private static String shortName(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }

    /**
     * Draws the bar over the current line ({@code \r}, then the line; a newline when it closes), so a
     * notice written on a clean line ({@code \r\e[K}) leaves the bar to be redrawn below it.
     */
    private static final class TerminalLine extends ConsoleProgressBarConsumer {

        private final IntSupplier columns;
        private int width;
        private boolean closed;

        TerminalLine(PrintStream out, IntSupplier columns) {
            super(out);
            this.columns = columns;
        }

        @Override
        public synchronized int getMaxRenderedLength() {
            if (width == 0) {
                // the last column stays empty: a line that fills it makes some terminals wrap
                width = Math.max(1, columns.getAsInt() - 1);
            }
            return width;
        }

        /** Ends the line, once. */
        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                super.close();
            }
        }
    }
}
