package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.Figures;

/**
 * What an import did with one log, as the summary says it.
 *
 * @param name          the log as named on the command line (or found in a directory or glob)
 * @param kind          new, grown, already imported or empty
 * @param lines         lines read this time
 * @param parsed        of those, the lines that parsed
 * @param bytes         decompressed bytes read this time
 * @param previousLines lines imported before, for a log seen before
 */
record SourceOutcome(String name, Kind kind, long lines, long parsed, long bytes, long previousLines) {

    enum Kind { NEW, GROWN, ALREADY_IMPORTED, EMPTY }

    static SourceOutcome empty(String name) {
        return new SourceOutcome(name, Kind.EMPTY, 0, 0, 0, 0);
    }

    static SourceOutcome alreadyImported(String name, long previousLines) {
        return new SourceOutcome(name, Kind.ALREADY_IMPORTED, 0, 0, 0, previousLines);
    }

    @Override
    public String toString() {
        String none = lines > 0 && parsed == 0 ? ", none of which parsed (is it an access log in this format?)" : "";
        return switch (kind) {
            case NEW -> name + ": new, " + Figures.grouped(lines) + " lines" + none;
            case GROWN -> name + ": grown by " + Figures.grouped(lines) + " lines (" + size(bytes) + ") since it was imported with "
                    + Figures.grouped(previousLines) + " lines" + none;
            case ALREADY_IMPORTED -> name + ": already imported (" + Figures.grouped(previousLines) + " lines), nothing new";
            case EMPTY -> name + ": empty, nothing to import";
        };
    }

    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return Figures.fixed(value, 1) + " " + units[unit];
    }
}
