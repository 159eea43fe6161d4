package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.Figures;
import dev.crawlerrors.ingest.LogSource;
import dev.crawlerrors.ingest.ReadProgress;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
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
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(LOG_EVERY_SECONDS);
    private static final long MIB = 1 << 20;

    private final long totalBytes;
    private final int sources;
    private final boolean terminal;
    private final PrintStream log;
    private final LongSupplier nanoTime;
    private final long started;
    private ProgressBar bar;
    private long lastLog;
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
        this(totalBytes, sources, terminal, log, System::nanoTime);
    }

    /** @param nanoTime the clock the rate and the interval of its log are measured by */
    ImportProgress(long totalBytes, int sources, boolean terminal, PrintStream log, LongSupplier nanoTime) {
        this.totalBytes = totalBytes;
        this.sources = sources;
        this.terminal = terminal;
        this.log = log;
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.lastLog = started;
    }

    /** Starts on the {@code index}-th (from 0) log; what the previous one read counts as done. */
    ReadProgress reading(LogSource source, int index) {
        finishCurrent();
        current = source;
        currentLabel = (sources > 1 ? (index + 1) + "/" + sources + " " : "") + shortName(source.name());
        if (terminal && bar == null && totalBytes != 0) {
            bar = new ProgressBarBuilder().setTaskName("import").setInitialMax(totalBytes > 0 ? totalBytes : -1)
                    .setUnit(" MiB", MIB).setStyle(ProgressBarStyle.ASCII).showSpeed().build();
        }
        return this::advanced;
    }

    private void advanced(long lines) {
        currentLines = lines;
        long now = nanoTime.getAsLong();
        long read = linesDone + lines;
        double seconds = (now - started) / 1e9;
        long rate = seconds > 0 ? Math.round(read / seconds) : 0;
        if (bar != null) {
            bar.stepTo(bytesDone + current.consumed());
            // the bar writes its extra message right after the speed: a space keeps them apart
            bar.setExtraMessage(" " + currentLabel + ", " + Figures.grouped(rate) + " lines/s");
        } else if (now - lastLog >= LOG_EVERY_NANOS) {
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
