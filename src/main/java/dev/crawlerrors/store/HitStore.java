package dev.crawlerrors.store;

/**
 * A store engine: what every engine provides, one small contract per concern (writing hits,
 * reading them for the report, keeping verdicts). Writes come from one thread; reads from any.
 */
public interface HitStore extends HitWriter, HitReader, VerdictStore, AutoCloseable {

    @Override
    void close();
}
