package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.SourceProgress;
import java.util.Collection;
import java.util.List;

/** What was imported before, looked up by the fingerprint of its beginning (the store keeps it). */
@FunctionalInterface
public interface ImportedSources {

    /**
     * The recorded progress of the logs whose key begins with one of {@code fingerprints}
     * ({@link SourceProgress#prefixOf}), in no particular order: every log recorded under those beginnings.
     */
    List<SourceProgress> find(Collection<String> fingerprints);
}
