package dev.crawlerrors.cli;

import dev.crawlerrors.text.Figures;

/**
 * The import's progress bar as one terminal line, laid out for the terminal's width; at 80 columns:
 * <pre>
 *  75% [==========&gt;   ] 207/276 MiB    768,396 lines/s  ETA 0:00:01  3/4 big3.log</pre>
 * The share, the bytes read of all, the lines/s and the time left are always written in full; the
 * bar takes the rest of the line, and the log's name, last, is shortened in its middle when the bar
 * would be narrower than {@value #MIN_BAR} characters (on a terminal too narrow even for that, the
 * name goes, then the bar). The library's own layout, at 80 columns, cut the lines/s off the end and
 * left a bar one character wide, spending the line on the task's name, the time elapsed and the
 * MiB/s, which the bytes and the lines/s already tell. Without a total (standard input) there is no
 * share, bar or time left.
 *
 * @param bytes        raw bytes read of all logs
 * @param totalBytes   raw bytes all logs will read, or -1 when unknown
 * @param lines        lines read of all logs
 * @param elapsedNanos time since the import started
 * @param counter      which log of how many is being read ({@code 3/4}), or empty for a single log
 * @param name         the name of the log being read
 */
record ImportBarLine(long bytes, long totalBytes, long lines, long elapsedNanos, String counter, String name) {

    /** Narrower, a bar barely moves: each character would be more than a tenth of the import. */
    static final int MIN_BAR = 10;
    private static final String GAP = "  ";
    /** Big imports run at a million lines/s and more: the rate is padded to that, so the bar keeps its width. */
    private static final int RATE_WIDTH = "1,000,000".length();
    private static final String ELLIPSIS = "...";
    /** A name shortened further would say too little: two characters, the ellipsis, four. */
    private static final int MIN_NAME = 9;
    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    /** The line, at most {@code width} characters long when the terminal is wide enough for its figures. */
    String fit(int width) {
        String rate = Figures.grouped(linesPerSecond());
        String figures = size() + GAP + " ".repeat(Math.max(0, RATE_WIDTH - rate.length())) + rate + " lines/s";
        if (totalBytes <= 0) {
            return withLabel(figures, width);
        }
        String share = percent() + "%";
        share = " ".repeat(4 - share.length()) + share;
        figures += GAP + "ETA " + timeLeft();
        // what is left beside the share, the figures and the bar's brackets and the spaces outside them
        int room = width - share.length() - 4 - figures.length();
        if (room < MIN_BAR) {
            return withLabel(share + " " + figures, width);
        }
        String label = label(room - MIN_BAR - GAP.length());
        int bar = room - (label.isEmpty() ? 0 : GAP.length() + label.length());
        return share + " [" + bar(bar) + "] " + figures + (label.isEmpty() ? "" : GAP + label);
    }

    /** {@code line} and the log's label after it, if some of the label fits in {@code width}. */
    private String withLabel(String line, int width) {
        String label = label(width - line.length() - GAP.length());
        return label.isEmpty() ? line : line + GAP + label;
    }

    private int percent() {
        return (int) Math.min(100, bytes * 100 / totalBytes);
    }

    private String bar(int width) {
        int done = (int) Math.min(width, bytes * width / totalBytes);
        return done == width ? "=".repeat(width) : "=".repeat(done) + ">" + " ".repeat(width - done - 1);
    }

    /** {@code 207/276 MiB}: both in the unit the total is best read in, the bytes read padded to the total's width. */
    private String size() {
        long scale = totalBytes > 0 ? totalBytes : bytes;
        long unit = scale < MIB ? KIB : scale < 10 * GIB ? MIB : GIB;
        String unitName = unit == KIB ? " KiB" : unit == MIB ? " MiB" : " GiB";
        String read = amount(bytes, unit);
        if (totalBytes <= 0) {
            return read + unitName;
        }
        String all = amount(totalBytes, unit);
        return " ".repeat(Math.max(0, all.length() - read.length())) + read + "/" + all + unitName;
    }

    /** Whole units, but tenths of GiB: {@code 754}, {@code 12.3}; rounded down, so all is read only at the end. */
    private static String amount(long bytes, long unit) {
        if (unit < GIB) {
            return Long.toString(bytes / unit);
        }
        long tenths = bytes * 10 / GIB;
        return tenths / 10 + "." + tenths % 10;
    }

    private long linesPerSecond() {
        return elapsedNanos > 0 ? Math.round(lines * 1e9 / elapsedNanos) : 0;
    }

    /** {@code 0:03:27}, at the rate the bytes were read so far; unknown before any were. */
    private String timeLeft() {
        if (bytes <= 0 || elapsedNanos <= 0) {
            return "-:--:--";
        }
        long seconds = Math.round((double) elapsedNanos * (totalBytes - Math.min(bytes, totalBytes)) / bytes / 1e9);
        return seconds / 3600 + ":" + twoDigits(seconds / 60 % 60) + ":" + twoDigits(seconds % 60);
    }

    private static String twoDigits(long n) {
        return n < 10 ? "0" + n : Long.toString(n);
    }

    /** {@code 3/4 big3.log}, the name shortened in its middle to fit {@code width}; empty when too little of it would. */
    private String label(int width) {
        String prefix = counter.isEmpty() ? "" : counter + " ";
        int room = width - prefix.length();
        if (name.length() <= room) {
            return prefix + name;
        }
        if (room < MIN_NAME) {
            return "";
        }
        // the end tells rotated logs apart (access.log.3.gz): it keeps the larger part
        int head = (room - ELLIPSIS.length()) / 3;
        int tail = room - ELLIPSIS.length() - head;
        return prefix + name.substring(0, head) + ELLIPSIS + name.substring(name.length() - tail);
    }
}
