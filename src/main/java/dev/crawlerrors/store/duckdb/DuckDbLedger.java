package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * How far each log was read, and the files read to their end: what is committed in the store's
 * {@code imports} and {@code import_files}, and what was appended since and not committed yet. The
 * writer compares a log's position here before it appends (compare-and-set) and writes each
 * batch's progress through it on its own thread; an import asks it where to resume.
 */
final class DuckDbLedger {

    private final DuckDBConnection connection;
    private final DuckDbQuery query;
    /**
     * Whether no log's progress is committed (since open: a new store, or one that only ever took
     * hits without a log, such as the drain's). Then {@link #imported} knows its answer without a
     * query. On a new store that query would be an import's first, holding up its first line.
     */
    private volatile boolean noProgressCommitted;
    /**
     * Progress appended that no commit has covered yet, by log key and by file identity: what
     * {@link #imported} and {@link #importedFiles} add to what the store holds. They used to commit
     * first, so the reader would find it, and an import of many small logs spent most of its time
     * in a commit (an fsync) per log. Entries go once their commit is done (or
     * rolled back), unless a later one took their place.
     */
    private final Map<String, SourceProgress> uncommittedProgress = new ConcurrentHashMap<>();
    /** How many logs in {@link #uncommittedProgress} have each prefix: most asked about have none. */
    private final Map<String, Integer> uncommittedPrefixes = new ConcurrentHashMap<>();
    /** The prefixes of the logs whose progress is committed, as a filter that rules most logs out without a query. */
    private final DuckDbRecordedPrefixes recordedPrefixes;
    /**
     * Queries {@link #imported} made while the filter was not complete: at the fourth, every
     * committed prefix is read into it. A nightly run over a directory asks about its few new logs
     * in a query or two, and a store of millions of logs is not read for them.
     */
    private int prefixQueries;
    static final int PREFIX_QUERIES_BEFORE_LOADING = 4;
    private final Map<String, SourceProgress> uncommittedFiles = new ConcurrentHashMap<>();
    /** The progress and files written in the transaction the writer has open (writer side). */
    private final List<SourceProgress> transactionProgress = new ArrayList<>();
    private final List<SourceProgress> transactionFiles = new ArrayList<>();
    private PreparedStatement insertProgress;
    private PreparedStatement insertFile;
    private PreparedStatement clearProgress;
    private PreparedStatement clearFiles;
    /** Where a batch's progress and files are appended before one statement each moves them (this connection's own). */
    private static final String STAGING = """
            CREATE TEMPORARY TABLE IF NOT EXISTS progress_staging (
              fingerprint VARCHAR, name VARCHAR, bytes_imported BIGINT, lines_imported BIGINT, prefix VARCHAR, check_hash VARCHAR);
            CREATE TEMPORARY TABLE IF NOT EXISTS file_staging (
              file_key VARCHAR, size BIGINT, modified_nanos BIGINT, fingerprint VARCHAR, name VARCHAR, bytes_imported BIGINT,
              lines_imported BIGINT, check_hash VARCHAR)""";


    DuckDbLedger(DuckDBConnection connection, DuckDbQuery query, long recordedLogs) throws SQLException {
        this.connection = connection;
        this.query = query;
        try (Statement st = connection.createStatement()) {
            st.execute(STAGING);
        }
        noProgressCommitted = recordedLogs == 0;
        recordedPrefixes = new DuckDbRecordedPrefixes(recordedLogs);
    }

    /** Notes a log's progress appended and not committed yet (appending side, under the writer's lock). */
    void appended(SourceProgress through) {
        if (uncommittedProgress.put(through.fingerprint(), through) == null) {
            uncommittedPrefixes.merge(through.prefix(), 1, Integer::sum);
        }
        if (through.file() != null) {
            uncommittedFiles.put(through.file().key(), through);
        }
    }

    /**
     * Where the store has the log {@code key} now: as last appended, when that is not committed yet,
     * else as committed; null when it has none. What is appended is looked at first: an entry leaves
     * it only once its commit is done, so a read of the store after finds it there (the readers see
     * the newest commit), and the filter of prefixes holds its prefix by then.
     */
    SourceProgress position(String key) {
        SourceProgress appended = uncommittedProgress.get(key);
        if (appended != null) {
            return appended;
        }
        if (noProgressCommitted || !recordedPrefixes.mayHold(SourceProgress.prefixOf(key))) {
            return null;
        }
        return query.run("SELECT fingerprint, name, bytes_imported, lines_imported, check_hash FROM imports WHERE fingerprint = ?",
                List.of(key), rs -> rs.next() ? new SourceProgress(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                        rs.getString(5), null) : null);
    }

    /**
     * The progress recorded of the logs whose key begins with one of {@code prefixes}: what is
     * committed, and what was appended since, without committing it.
     */
    public List<SourceProgress> imported(Collection<String> prefixes) {
        if (prefixes.isEmpty()) {
            return List.of();
        }
        // what is appended is looked at before the store: an entry committed in between is in the store by then
        Map<String, SourceProgress> found = new HashMap<>();
        Set<String> wanted = prefixes instanceof Set<String> set ? set : new HashSet<>(prefixes);
        if (holdsAnyUncommitted(wanted)) {
            for (SourceProgress progress : uncommittedProgress.values()) {
                if (wanted.contains(progress.prefix())) {
                    found.put(progress.fingerprint(), progress);
                }
            }
        }
        List<String> asked = noProgressCommitted ? List.of() : mayBeCommitted(wanted);
        if (!asked.isEmpty()) {
            List<SourceProgress> stored = query.run("SELECT fingerprint, name, bytes_imported, lines_imported, check_hash"
                    + " FROM imports WHERE prefix IN (SELECT unnest(?::VARCHAR[]))", List.of(DuckDbQuery.Array.strings(asked)), rs -> {
                        List<SourceProgress> rows = new ArrayList<>();
                        while (rs.next()) {
                            rows.add(new SourceProgress(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                                    rs.getString(5), null));
                        }
                        return rows;
                    });
            for (SourceProgress progress : stored) {
                found.merge(progress.fingerprint(), progress, DuckDbLedger::furthest);
            }
        }
        return new ArrayList<>(found.values());
    }

    private boolean holdsAnyUncommitted(Set<String> prefixes) {
        if (uncommittedPrefixes.isEmpty()) {
            return false;
        }
        for (String prefix : prefixes) {
            if (uncommittedPrefixes.containsKey(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Of {@code prefixes}, those the store may have committed, by the filter (read whole at the {@value #PREFIX_QUERIES_BEFORE_LOADING}th query). */
    private List<String> mayBeCommitted(Set<String> prefixes) {
        if (!recordedPrefixes.complete() && ++prefixQueries >= PREFIX_QUERIES_BEFORE_LOADING) {
            query.run("SELECT prefix FROM imports", List.of(), rs -> {
                while (rs.next()) {
                    recordedPrefixes.add(rs.getString(1));
                }
                return null;
            });
            recordedPrefixes.loaded(); // what commits while it was read, its commit added
        }
        List<String> asked = new ArrayList<>();
        for (String prefix : prefixes) {
            if (recordedPrefixes.mayHold(prefix)) {
                asked.add(prefix);
            }
        }
        return asked;
    }

    /**
     * {@link dev.crawlerrors.store.HitWriter#unchangedLines}. When the store records no more than
     * {@value #SCAN_RECORDED_FILES} times as many files as are asked about, it reads the four columns
     * that tell of all of them in one pass; otherwise (a nightly run over a few years of logs) it
     * hands the stamps to a query that compares them, as scanning every recorded file would cost more.
     */
    public long[] unchangedLines(List<FileStamp> stamps) {
        long[] lines = new long[stamps.size()];
        Arrays.fill(lines, -1);
        // what was appended since the last commit is newer than what the store holds
        int[] asked = new int[stamps.size()];
        int count = 0;
        for (int i = 0; i < lines.length; i++) {
            FileStamp stamp = stamps.get(i);
            SourceProgress appended = stamp == null || uncommittedFiles.isEmpty() ? null : uncommittedFiles.get(stamp.key());
            if (appended != null) {
                lines[i] = appended.file().equals(stamp) ? appended.lines() : -1;
            } else if (stamp != null) {
                asked[count++] = i;
            }
        }
        if (count == 0 || noProgressCommitted) {
            return lines;
        }
        long recorded = query.run("SELECT count(*) FROM import_files", List.of(), rs -> rs.next() ? rs.getLong(1) : 0L);
        if (recorded <= (long) SCAN_RECORDED_FILES * count) {
            scanFiles(stamps, asked, count, lines);
        } else {
            compareFiles(stamps, asked, count, lines);
        }
        return lines;
    }

    /** {@link #unchangedLines} by files recorded, at most so many times as many as the files asked about. */
    static final int SCAN_RECORDED_FILES = 4;

    /** Compares the stamps at {@code asked[0, count)} with every recorded file's, read in one pass. */
    private void scanFiles(List<FileStamp> stamps, int[] asked, int count, long[] lines) {
        Map<String, Integer> wanted = new HashMap<>(count * 2);
        for (int j = 0; j < count; j++) {
            wanted.put(stamps.get(asked[j]).key(), asked[j]);
        }
        query.run("SELECT file_key, size, modified_nanos, lines_imported FROM import_files", List.of(), rs -> {
            while (rs.next()) {
                noteUnchanged(rs, stamps, wanted, lines);
            }
            return null;
        });
    }

    /** A method of its own, run for each recorded file: compiled early (see LogFiles.expand). */
    private static void noteUnchanged(ResultSet rs, List<FileStamp> stamps, Map<String, Integer> wanted, long[] lines) throws SQLException {
        Integer i = wanted.get(rs.getString(1));
        if (i != null) {
            FileStamp stamp = stamps.get(i);
            if (stamp.size() == rs.getLong(2) && stamp.modifiedNanos() == rs.getLong(3)) {
                lines[i] = rs.getLong(4);
            }
        }
    }

    /** Compares the stamps at {@code asked[0, count)} in a query that is handed them. */
    private void compareFiles(List<FileStamp> stamps, int[] asked, int count, long[] lines) {
        String[] keys = new String[count];
        Long[] sizes = new Long[count];
        Long[] modified = new Long[count];
        for (int j = 0; j < count; j++) {
            FileStamp stamp = stamps.get(asked[j]);
            keys[j] = stamp.key();
            sizes[j] = stamp.size();
            modified[j] = stamp.modifiedNanos();
        }
        query.run("SELECT w.i, f.lines_imported FROM (SELECT unnest(?::VARCHAR[]) AS k, unnest(?::BIGINT[]) AS s,"
                + " unnest(?::BIGINT[]) AS m, unnest(range(?)) AS i) w"
                + " JOIN import_files f ON f.file_key = w.k AND f.size = w.s AND f.modified_nanos = w.m",
                List.of(new DuckDbQuery.Array("VARCHAR", keys), new DuckDbQuery.Array("BIGINT", sizes), new DuckDbQuery.Array("BIGINT", modified),
                        (long) count), rs -> {
                    while (rs.next()) {
                        lines[asked[(int) rs.getLong(1)]] = rs.getLong(2);
                    }
                    return null;
                });
    }

    /**
     * The files among {@code keys} (file identities, {@link dev.crawlerrors.ingest.FileStamp#key()})
     * recorded as read to their end, with the stamp they had then.
     */
    public List<SourceProgress> importedFiles(Collection<String> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        Map<String, SourceProgress> found = new HashMap<>();
        Set<String> wanted = keys instanceof Set<String> set ? set : new HashSet<>(keys);
        for (SourceProgress progress : uncommittedFiles.values()) {
            if (wanted.contains(progress.file().key())) {
                found.put(progress.file().key(), progress);
            }
        }
        if (!noProgressCommitted) {
            List<SourceProgress> stored = query.run("SELECT file_key, size, modified_nanos, fingerprint, name, bytes_imported,"
                    + " lines_imported, check_hash FROM import_files WHERE file_key IN (SELECT unnest(?::VARCHAR[]))",
                    List.of(DuckDbQuery.Array.strings(keys)), rs -> {
                        List<SourceProgress> rows = new ArrayList<>();
                        while (rs.next()) {
                            rows.add(new SourceProgress(rs.getString(4), rs.getString(5), rs.getLong(6), rs.getLong(7), rs.getString(8),
                                    new FileStamp(rs.getString(1), rs.getLong(2), rs.getLong(3))));
                        }
                        return rows;
                    });
            for (SourceProgress progress : stored) {
                found.putIfAbsent(progress.file().key(), progress); // what was appended since is newer
            }
        }
        return new ArrayList<>(found.values());
    }

    /** Whether any log's progress is committed, or was appended since the store opened. */
    public boolean recordsProgress() {
        return !noProgressCommitted || !uncommittedProgress.isEmpty();
    }

    /** Of two records of one log, the one read further (a log's progress only grows). */
    private static SourceProgress furthest(SourceProgress a, SourceProgress b) {
        return b.bytes() > a.bytes() ? b : a;
    }

    /** After a commit: the progress it covered is in the store (writer side), before it leaves what is appended. */
    void committed() {
        for (SourceProgress progress : transactionProgress) {
            recordedPrefixes.add(progress.prefix()); // before they leave uncommittedProgress (see imported)
        }
        if (!transactionProgress.isEmpty()) {
            noProgressCommitted = false;
        }
    }

    /** The appended progress the open transaction covered leaves {@link #uncommittedProgress}, unless newer took its place. */
    void forgetUncommitted() {
        for (SourceProgress progress : transactionProgress) {
            if (uncommittedProgress.remove(progress.fingerprint(), progress)) {
                uncommittedPrefixes.computeIfPresent(progress.prefix(), (prefix, n) -> n == 1 ? null : n - 1);
            }
        }
        for (SourceProgress progress : transactionFiles) {
            uncommittedFiles.remove(progress.file().key(), progress);
        }
        transactionProgress.clear();
        transactionFiles.clear();
    }

    /**
     * Forgets progress appended and never handed to the writer (appending side, under the writer's lock): a write failed
     * before it, and the store has each log where its last commit left it.
     */
    void dropAppended(Collection<SourceProgress> progresses, Collection<SourceProgress> files) {
        for (SourceProgress progress : progresses) {
            if (uncommittedProgress.remove(progress.fingerprint(), progress)) {
                uncommittedPrefixes.computeIfPresent(progress.prefix(), (prefix, n) -> n == 1 ? null : n - 1);
            }
        }
        for (SourceProgress file : files) {
            uncommittedFiles.remove(file.file().key(), file);
        }
    }

    /**
     * Records how far each log got, and the files read to their end. Through an Appender into this
     * connection's staging tables, then one statement each: executed a row at a time, as a batch of
     * a prepared statement is, 5,000 small logs' rows took the writer seconds.
     */
    void writeProgress(Collection<SourceProgress> progresses) throws SQLException {
        if (progresses.isEmpty()) {
            return;
        }
        if (insertProgress == null) {
            // prepared once: planning it for every batch took the writer thread's time
            clearProgress = connection.prepareStatement("DELETE FROM progress_staging");
            insertProgress = connection.prepareStatement("INSERT OR REPLACE INTO imports"
                    + " (fingerprint, name, bytes_imported, lines_imported, imported_at, prefix, check_hash)"
                    + " SELECT fingerprint, name, bytes_imported, lines_imported, now(), prefix, check_hash FROM progress_staging");
        }
        clearProgress.execute(); // a statement first: the Appender joins the open transaction only once one began it
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "progress_staging")) {
            for (SourceProgress progress : progresses) {
                appender.beginRow().append(progress.fingerprint()).append(progress.name()).append(progress.bytes())
                        .append(progress.lines()).append(progress.prefix());
                orNull(appender, progress.check()).endRow();
            }
        }
        insertProgress.executeUpdate();
        transactionProgress.addAll(progresses);
    }

    private static DuckDBAppender orNull(DuckDBAppender appender, String value) throws SQLException {
        return value == null ? appender.appendNull() : appender.append(value);
    }

    /** Records the files read to their end, by their identity, with the stamp they had. */
    void writeFiles(Collection<SourceProgress> files) throws SQLException {
        if (files.isEmpty()) {
            return;
        }
        if (insertFile == null) {
            clearFiles = connection.prepareStatement("DELETE FROM file_staging");
            insertFile = connection.prepareStatement("INSERT OR REPLACE INTO import_files (file_key, size, modified_nanos, fingerprint,"
                    + " name, bytes_imported, lines_imported, check_hash, imported_at)"
                    + " SELECT file_key, size, modified_nanos, fingerprint, name, bytes_imported, lines_imported, check_hash, now()"
                    + " FROM file_staging");
        }
        clearFiles.execute();
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "file_staging")) {
            for (SourceProgress file : files) {
                appender.beginRow().append(file.file().key()).append(file.file().size()).append(file.file().modifiedNanos())
                        .append(file.fingerprint()).append(file.name()).append(file.bytes()).append(file.lines());
                orNull(appender, file.check()).endRow();
            }
        }
        insertFile.executeUpdate();
        transactionFiles.addAll(files);
    }

    /** Closes the prepared statements, to be prepared again when next needed; failures go to {@code failure}. */
    void closeStatements(SQLException failure) {
        for (PreparedStatement st : new PreparedStatement[] {insertProgress, insertFile, clearProgress, clearFiles}) {
            try {
                if (st != null) {
                    st.close();
                }
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        insertProgress = null;
        insertFile = null;
        clearProgress = null;
        clearFiles = null;
    }
}
