package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.Figures;
import dev.crawlerrors.ingest.LogSource;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.ShownText;
import java.io.PrintStream;
import java.time.Duration;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows how an import is going, over all its logs: on a terminal a progress bar over the bytes of
 * every file (with speed, ETA, the file being read and lines/s; without a total when standard input
 * is among them); off a terminal, a line with the rate every {@value #LOG_EVERY_SECONDS} seconds.
 */
final class ImportProgress implements AutoCloseable {

    private static final int LOG_EVERY_SECONDS = 5;
    private final long logEveryNanos;
    private static final long MIB = 1 << 20;

    private final long totalBytes;
    private final int sources;
    private final boolean terminal;
    private final PrintStream log;
    private final long started = System.nanoTime();
    private ProgressBar bar;
    private long lastLog = started;
    /** Bytes and lines of the logs finished before the current one. */
    private long bytesDone;
    private long linesDone;
    private LogSource current;
    private String currentLabel = "";
    private long currentLines;

    /**
     * @param totalBytes the raw bytes all logs will read, or -1 when unknown (standard input)
     * @param sources    how many logs will be read
     */
    ImportProgress(long totalBytes, int sources, boolean terminal, PrintStream log) {
        this(totalBytes, sources, terminal, log, Duration.ofSeconds(LOG_EVERY_SECONDS));
    }

    ImportProgress(long totalBytes, int sources, boolean terminal, PrintStream log, Duration logEvery) {
        this.logEveryNanos = logEvery.toNanos();
        this.totalBytes = totalBytes;
        this.sources = sources;
        this.terminal = terminal;
        this.log = log;
    }

    /** Starts on the {@code index}-th (from 0) log; what the previous one read counts as done. */
    ReadProgress reading(LogSource source, int index) {
        finishCurrent();
        current = source;
        currentLabel = (sources > 1 ? (index + 1) + "/" + sources + " " : "") + ShownText.of(shortName(source.name()));
        if (terminal && bar == null && totalBytes != 0) {
            bar = new ProgressBarBuilder().setTaskName("import").setInitialMax(totalBytes > 0 ? totalBytes : -1)
                    .setUnit(" MiB", MIB).setStyle(ProgressBarStyle.ASCII).showSpeed().build();
        }
        return this::advanced;
    }

    private void advanced(long lines) {
        currentLines = lines;
        long now = System.nanoTime();
        long read = linesDone + lines;
        double seconds = (now - started) / 1e9;
        long rate = seconds > 0 ? Math.round(read / seconds) : 0;
        if (bar != null) {
            bar.stepTo(bytesDone + current.consumed());
            // the bar writes its extra message right after the speed: a space keeps them apart
            bar.setExtraMessage(" " + currentLabel + ", " + Figures.grouped(rate) + " lines/s");
        } else if (now - lastLog >= logEveryNanos) {
            lastLog = now;
            String share = totalBytes > 0
                    ? ", " + Math.min(100, (bytesDone + current.consumed()) * 100 / totalBytes) + "% of "
                            + SourceOutcome.size(totalBytes)
                    : "";
            log.println("import " + currentLabel + ": " + Figures.grouped(read) + " lines, " + Figures.grouped(rate) + " lines/s" + share);
        }
    }

    private void finishCurrent() {
        if (current != null) {
            bytesDone += current.consumed();
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
        }
    }

    private static String shortName(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }
}
