package dev.crawlerrors.ingest;

/** Told how far reading has got, after each chunk. */
@FunctionalInterface
public interface ReadProgress {

    ReadProgress NONE = lines -> { };

    /** {@code lines} of the current source have been parsed and delivered. */
    void advanced(long lines);
}
