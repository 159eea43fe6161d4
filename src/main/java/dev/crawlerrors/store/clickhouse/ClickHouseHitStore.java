package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.store.VerdictStore;
import dev.crawlerrors.text.Failures;
import java.util.Map;
import java.util.Set;

/**
 * A store on ClickHouse: one server, or a cluster of shards (see {@link ClickHouseCluster}), spoken
 * to over its HTTP interface. Any number of processes may write and read it at once. It opens the
 * store (its database and tables on every shard) and hands out its parts, a class each: the writer
 * ({@link ClickHouseCommits} around {@link ClickHouseHitWriter}: batches committed whole, within a
 * second), the verdicts ({@link ClickHouseVerdicts}), the reader ({@link ClickHouseHitReader}, at
 * the snapshots of {@link ClickHouseSnapshots}, what a page's link holds) and the health
 * ({@link ClickHouseHealth}).
 */
public final class ClickHouseHitStore implements HitStore {

    private final ClickHouseLocation location;
    private final ClickHouseSettings settings;
    private final ClickHouseCluster cluster;
    private final ClickHouseCommits commits;
    private final ClickHouseSnapshots snapshots;
    private final ClickHouseVerdicts verdicts;
    private final ClickHouseHitReader reader;
    private final ClickHouseSitemaps sitemaps;
    private final ClickHouseUrlStates urlStates;
    /** How many batches this process committed: a close folds the URLs' states when it wrote any. */
    private final java.util.function.LongSupplier committed;
    private final ClickHouseHealth health;
    private final ClickHouseSignatures signatures;
    private final ClickHouseAlertStore alerts;

    private ClickHouseHitStore(ClickHouseLocation location, ClickHouseSettings settings, boolean afresh, long clockAheadSeconds) {
        this.location = location;
        this.settings = settings;
        ClickHouseHttp http = new ClickHouseHttp(location.user(), location.password(), settings);
        this.cluster = ClickHouseCluster.discover(http, location);
        if (afresh) {
            ClickHouseSchema.startAfresh(http, cluster, location.database(), location.user(), location.password());
        } else {
            ClickHouseSchema.prepare(http, cluster, location.database(), location.user(), location.password());
        }
        ClickHouseHitWriter writer = new ClickHouseHitWriter(http, cluster, location.database(), this::alreadyRecorded);
        this.commits = new ClickHouseCommits(writer, http, cluster, location.database());
        this.snapshots = new ClickHouseSnapshots(http, cluster.meta(), location.database(), writer::commits,
                clockAheadSeconds);
        this.verdicts = new ClickHouseVerdicts(http, cluster, location.database(), writer, commits::commitIfDirty);
        this.sitemaps = new ClickHouseSitemaps(http, cluster, location.database());
        this.urlStates = new ClickHouseUrlStates(http, cluster, location.database(), snapshots, verdicts, sitemaps);
        this.reader = new ClickHouseHitReader(http, cluster, location.database(), snapshots, verdicts, commits::commitIfDirty, urlStates,
                sitemaps);
        this.health = new ClickHouseHealth(http, cluster, location, snapshots, commits, reader);
        this.signatures = new ClickHouseSignatures(http, cluster, location.database());
        this.alerts = new ClickHouseAlertStore(http, cluster.meta(), location.database());
        this.committed = writer::commits;
        snapshots.dropOld();
        new ClickHouseLogClaims(http, cluster.meta(), location.database()).dropOld(ClickHouseSnapshots.KEEP_DAYS);
        commits.start(() -> ClickHouseLeftovers.remove(http, cluster, location.database(), snapshots.crashedWriters()));
    }

    /**
     * Opens the store at {@code location}, creating its database and tables on every server that
     * lacks them.
     *
     * @throws StoreException saying what went wrong (unreachable, refused login, a newer schema)
     */
    public static ClickHouseHitStore open(ClickHouseLocation location, ClickHouseSettings settings) {
        return open(location, settings, false);
    }

    /**
     * Opens the store at {@code location} emptied first, for the demo: its database must hold
     * nothing or an earlier demo's store, never anything else.
     */
    public static ClickHouseHitStore openAfresh(ClickHouseLocation location, ClickHouseSettings settings) {
        return open(location, settings, true);
    }

    /** A store that reads as if the servers' clock were {@code seconds} ahead: for a test of writers past their lease. */
    static ClickHouseHitStore openWithClockAhead(ClickHouseLocation location, ClickHouseSettings settings, long seconds) {
        return new ClickHouseHitStore(location, settings, false, seconds);
    }

    private static ClickHouseHitStore open(ClickHouseLocation location, ClickHouseSettings settings, boolean afresh) {
        try {
            return new ClickHouseHitStore(location, settings, afresh, 0);
        } catch (StoreException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StoreException("cannot open the store " + location.shown() + ": " + Failures.firstLine(e), e);
        }
    }

    /** The store, as its URL names it. */
    public ClickHouseLocation location() {
        return location;
    }

    @Override
    public SitemapStore sitemaps() {
        return sitemaps;
    }

    @Override
    public String describe() {
        int shards = shards();
        return "ClickHouse store " + location.shown() + " (" + shards + (shards == 1 ? " server" : " shards") + "; a query may take "
                + settings.memoryBytes() / (1 << 20) + "MiB and " + (settings.threads() == 0 ? "the server's threads" : settings.threads()
                + (settings.threads() == 1 ? " thread" : " threads")) + " on each)";
    }

    /** How many shards hold its hits (1 for a server alone). */
    public int shards() {
        return cluster.shards().size();
    }

    /** Which of the writer's verdict changes their claims have already, at the newest snapshot. */
    private Set<String> alreadyRecorded(Map<String, ClickHouseBatch.VerdictRow> changes) {
        return verdicts.alreadyRecorded(changes, snapshots.newest());
    }

    @Override
    public HitWriter writer() {
        return commits;
    }

    @Override
    public HitReader reader() {
        return reader;
    }

    @Override
    public VerdictStore verdicts() {
        return verdicts;
    }

    @Override
    public SignatureStore signatures() {
        return signatures;
    }

    /** Commits what was appended; the logs whose lines another writer had moved on meanwhile are told (see {@link HitWriter#flush}). */
    @Override
    public StoreHealth health() {
        return health;
    }

    @Override
    public AlertStore alerts() {
        return alerts;
    }

    @Override
    public synchronized void close() {
        commits.close();
        urlStates.close();
        if (committed.getAsLong() > 0) {
            try {
                urlStates.fold(); // what this process wrote, folded before it ends
            } catch (RuntimeException e) {
                // the next fold, by any process, does it
            }
        }
    }
}
