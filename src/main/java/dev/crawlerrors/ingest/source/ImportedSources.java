package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.SourceProgress;
import java.util.Collection;
import java.util.List;

/** What was imported before, looked up by content fingerprint (the store keeps it). */
@FunctionalInterface
public interface ImportedSources {

    /** The recorded progress of those of {@code fingerprints} that were imported, in no particular order. */
    List<SourceProgress> find(Collection<String> fingerprints);
}
