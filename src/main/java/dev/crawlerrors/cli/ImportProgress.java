package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.LogSource;
import dev.crawlerrors.ingest.ReadProgress;
import java.io.PrintStream;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows how an import is going: a progress bar over the file's bytes (with lines/s and ETA) on a
 * terminal; off a terminal, a line with the rate every {@value #LOG_EVERY_SECONDS} seconds.
 */
final class ImportProgress implements ReadProgress, AutoCloseable {

    private static final int LOG_EVERY_SECONDS = 5;
    private static final long MIB = 1 << 20;

    private final LogSource source;
    private final PrintStream log;
    private final ProgressBar bar;
    private final long started = System.nanoTime();
    private final long linesBefore;
    private long lastLog = started;

    ImportProgress(LogSource source, long linesBefore, boolean terminal, PrintStream log) {
        this.source = source;
        this.log = log;
        this.linesBefore = linesBefore;
        long size = source.size();
        this.bar = terminal && size > 0
                ? new ProgressBarBuilder().setTaskName(shortName(source.name())).setInitialMax(size)
                        .setUnit(" MiB", MIB).setStyle(ProgressBarStyle.ASCII).showSpeed().build()
                : null;
    }

    @Override
    public void advanced(long lines) {
        long now = System.nanoTime();
        double seconds = (now - started) / 1e9;
        long rate = seconds > 0 ? Math.round(lines / seconds) : 0;
        if (bar != null) {
            bar.stepTo(source.consumed());
            bar.setExtraMessage(String.format(Locale.ROOT, "%,d lines/s", rate));
        } else if (now - lastLog >= LOG_EVERY_SECONDS * 1_000_000_000L) {
            lastLog = now;
            log.printf(Locale.ROOT, "import %s: %,d lines, %,d lines/s%n", source.name(), linesBefore + lines, rate);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.stepTo(source.consumed());
            bar.close();
        }
    }

    private static String shortName(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }
}
