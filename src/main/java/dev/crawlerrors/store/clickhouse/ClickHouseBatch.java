package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What one commit of {@link ClickHouseHitWriter} holds: hits in log order, the verdicts recorded, how far each log was read. */
final class ClickHouseBatch {

    /** A verdict to record, numbered so that the latest wins ({@link ClickHouseVerdicts#version}). */
    record VerdictRow(String ip, String crawler, Verdict verdict, long version) {
    }

    /** A run of {@link #hits} from one log ({@code key}), from index {@code start} on; null for hits of no log. */
    private record Run(String key, int start) {
    }

    final List<CrawlerHit> hits = new ArrayList<>();
    /** By claim key: a claim's first verdict, or its latest change. */
    final Map<String, VerdictRow> verdicts = new LinkedHashMap<>();
    /** The latest position per log; only the latest is worth writing. */
    final Map<String, SourceProgress> progress = new LinkedHashMap<>();
    /** Where each log's lines in this batch start: the position the store must have for them to be stored. */
    final Map<String, SourceProgress> from = new LinkedHashMap<>();
    /** The claim made of the logs this batch moves on, 0 when none is held ({@link ClickHouseLogClaims}). */
    long claim;
    /** When each log's claim was made, by the first shard's clock (seconds): its commit must land soon after ({@link ClickHouseLogClaims}). */
    final Map<String, Long> claimed = new LinkedHashMap<>();
    private final List<Run> runs = new ArrayList<>();

    boolean isEmpty() {
        return hits.isEmpty() && verdicts.isEmpty() && progress.isEmpty();
    }

    /** Notes that the hits added next are of the log {@code key} (null: of none). */
    void startRun(String key) {
        Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (last == null || !java.util.Objects.equals(last.key(), key)) {
            runs.add(new Run(key, hits.size()));
        }
    }

    /** The hits of the log {@code key}. */
    List<CrawlerHit> hitsOf(String key) {
        List<CrawlerHit> of = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            if (key.equals(runs.get(i).key())) {
                of.addAll(hits.subList(runs.get(i).start(), end(i)));
            }
        }
        return of;
    }

    /** Takes the logs {@code keys} out: their hits, positions and claims; what the batch holds of other logs, or of none, stays. */
    void drop(Set<String> keys) {
        List<CrawlerHit> kept = new ArrayList<>(hits.size());
        List<Run> keptRuns = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Run run = runs.get(i);
            if (run.key() == null || !keys.contains(run.key())) {
                keptRuns.add(new Run(run.key(), kept.size()));
                kept.addAll(hits.subList(run.start(), end(i)));
            }
        }
        hits.clear();
        hits.addAll(kept);
        runs.clear();
        runs.addAll(keptRuns);
        progress.keySet().removeAll(keys);
        from.keySet().removeAll(keys);
        claimed.keySet().removeAll(keys);
    }

    private int end(int run) {
        return run + 1 < runs.size() ? runs.get(run + 1).start() : hits.size();
    }
}
