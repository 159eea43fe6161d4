package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What goes to the store in one write of {@link DuckDbHitWriter}: hits, verdicts and progress, in one transaction. */
final class DuckDbBatch {

    private static final Comparator<CrawlerHit> BY_TIME = Comparator.comparingLong(hit -> hit.hit().epochMillis());

    final List<CrawlerHit> hits = new ArrayList<>();
    /** The claim number of each hit, in the order of {@link #hits}. */
    int[] claims = new int[1024];
    /** The latest time of the hits added. */
    private long latestMillis = Long.MIN_VALUE;
    private boolean inTimeOrder = true;
    /** The verdicts to record, the latest of each claim: a new claim's first, and those that changed. */
    final Map<String, DuckDbClaimVerdict> verdicts = new LinkedHashMap<>();
    /** The latest position per log; only the latest is worth writing. */
    final Map<String, SourceProgress> progress = new LinkedHashMap<>();
    /** The files read to their end, by their identity ({@link SourceProgress#file()}), the latest of each. */
    final Map<String, SourceProgress> files = new LinkedHashMap<>();
    /** The id of the first hit, given when the batch goes to the writer. */
    long firstId;
    /** Whether the writer commits after this batch (decided when it goes to the writer). */
    boolean commit;

    /** Verdicts a new claim was given with another's history, under their old numbers: for the verdict log alone. */
    final List<DuckDbClaimVerdict> copies = new ArrayList<>();
    /** Hits stored before that go to a claim of their own ({@link DuckDbHitWriter#settleWaitingHits}): their numbers, their claims'. */
    final List<long[]> moves = new ArrayList<>();

    boolean isEmpty() {
        return hits.isEmpty() && verdicts.isEmpty() && progress.isEmpty() && files.isEmpty() && moves.isEmpty();
    }

    /** Adds a hit, noting whether every hit so far came no earlier than the one before it. */
    void add(CrawlerHit hit, int claim) {
        long millis = hit.hit().epochMillis();
        if (millis < latestMillis) {
            inTimeOrder = false;
        } else {
            latestMillis = millis;
        }
        int n = hits.size();
        if (n == claims.length) {
            claims = Arrays.copyOf(claims, n * 2);
        }
        claims[n] = claim;
        hits.add(hit);
    }

    /** Whether no hit came earlier than one added before it (hits of one instant are in order). */
    boolean inTimeOrder() {
        return inTimeOrder;
    }

    /**
     * Puts the hits in time order, as far as one batch goes: nginx logs a request when it ends
     * and Apache stamps it with its start, so a log's lines are only nearly in order; DuckDB
     * keeps min and max per row group, which paging by time relies on. A stable sort: hits of
     * one instant keep their log order. Skipped when they came in order, as they almost always
     * do: the check rides on the appends, while the sort's own check for order would cost
     * compilation and time on every batch.
     */
    void sortByTime() {
        if (!inTimeOrder) {
            Integer[] order = new Integer[hits.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> BY_TIME.compare(hits.get(a), hits.get(b))); // stable
            List<CrawlerHit> sorted = new ArrayList<>(order.length);
            int[] sortedClaims = new int[claims.length];
            for (int i = 0; i < order.length; i++) {
                sorted.add(hits.get(order[i]));
                sortedClaims[i] = claims[order[i]];
            }
            hits.clear();
            hits.addAll(sorted);
            claims = sortedClaims;
            inTimeOrder = true;
        }
    }
}
