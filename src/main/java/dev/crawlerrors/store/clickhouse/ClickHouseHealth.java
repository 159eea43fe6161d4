package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreUnavailableException;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.text.Failures;

/**
 * Whether a store on ClickHouse answers: what the report's first page reads is read on every
 * shard, so a server that does not answer is found before a page is asked for; and how many hits
 * the newest snapshot holds, from the per-minute counts.
 */
final class ClickHouseHealth implements StoreHealth {

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final ClickHouseLocation location;
    private final ClickHouseSnapshots snapshots;
    private final ClickHouseCommits commits;
    private final ClickHouseHitReader reader;

    ClickHouseHealth(ClickHouseHttp http, ClickHouseCluster cluster, ClickHouseLocation location, ClickHouseSnapshots snapshots,
            ClickHouseCommits commits, ClickHouseHitReader reader) {
        this.http = http;
        this.cluster = cluster;
        this.location = location;
        this.snapshots = snapshots;
        this.commits = commits;
        this.reader = reader;
    }

    /**
     * Reads the default view's count by minute at the newest snapshot (which reads the commits, the
     * verdicts and the counts by minute too), its newest row, and the logs' progress.
     */
    @Override
    public void checkReadable() {
        check(true);
    }

    /** As {@link #checkReadable}, without the count by minute: the newest row is what the first page shows before its count. */
    @Override
    public void checkNewest() {
        check(false);
    }

    private void check(boolean counts) {
        try {
            Snapshot now = reader.snapshot();
            if (counts) {
                reader.minuteCounts(HitFilter.ERRORS, now);
            }
            reader.rows(HitFilter.ERRORS, now, Long.MIN_VALUE / 4, Long.MAX_VALUE / 4, 0, 1);
            http.query(cluster.meta(), "SELECT count(), sum(bytes), max(file_key) FROM " + location.database() + ".commits");
        } catch (StoreUnavailableException e) {
            // its server may answer again: said so, as a page is (a 503 with Retry-After)
            throw new StoreUnavailableException("the ClickHouse store " + location.shown() + " cannot be read: " + Failures.firstLine(e)
                    + "; check that every server of it runs and answers", e);
        } catch (RuntimeException e) {
            throw new StoreException("the ClickHouse store " + location.shown() + " cannot be read: " + Failures.firstLine(e)
                    + "; check that every server of it runs and answers", e);
        }
    }

    @Override
    public long size() {
        commits.commitIfDirty();
        String minuteCounts = location.database() + (cluster.distributed() ? ".minute_counts" : ".minute_counts_local");
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT sum(hits) FROM " + minuteCounts + " WHERE "
                + snapshots.newest().visible()));
        return r.nextRow() ? r.number() : 0;
    }
}
