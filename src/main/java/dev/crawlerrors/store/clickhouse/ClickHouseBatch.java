package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one commit of {@link ClickHouseHitWriter} holds: hits in log order, the verdicts recorded, how far each log was read. */
final class ClickHouseBatch {

    /** A verdict to record, numbered so that the latest wins ({@link ClickHouseVerdicts#version}). */
    record VerdictRow(String ip, String crawler, Verdict verdict, long version) {
    }

    final List<CrawlerHit> hits = new ArrayList<>();
    /** By claim key: a claim's first verdict, or its latest change. */
    final Map<String, VerdictRow> verdicts = new LinkedHashMap<>();
    /** The latest position per log; only the latest is worth writing. */
    final Map<String, SourceProgress> progress = new LinkedHashMap<>();

    boolean isEmpty() {
        return hits.isEmpty() && verdicts.isEmpty() && progress.isEmpty();
    }
}
