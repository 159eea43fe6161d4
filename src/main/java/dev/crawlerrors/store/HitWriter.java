package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Where crawler hits go in, with how far their log has been read. Called from one thread at a time. */
public interface HitWriter {

    /**
     * Stores hits in the order given. The verdict a hit carries is recorded for its address and
     * crawler only when none is recorded yet; later verdicts come through {@link VerdictStore#update}.
     */
    void append(List<CrawlerHit> hits);

    /**
     * Stores hits as {@link #append(List)} does and, in the same transaction, how far their log has
     * been read: a crash keeps both or neither, so an import that resumes from the recorded position
     * neither loses nor repeats a hit. {@code hits} may be empty (a chunk of human traffic). The
     * position is recorded by compare-and-set: only while the log's recorded position is still
     * {@code from} (where this writer's last append of it ended, or where its read started), so that
     * two writers of one log store each line once.
     *
     * @throws PositionMovedException when another writer recorded the log elsewhere since: nothing of
     *                                this call is stored, and the caller reads on from {@link #imported}
     */
    void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through);

    /**
     * The recorded progress of the logs whose key begins with one of {@code fingerprints} ({@link
     * SourceProgress#prefixOf}): what was committed, and what was appended since. It does not commit
     * what was appended (an import of thousands of logs asks once a log).
     */
    List<SourceProgress> imported(Collection<String> fingerprints);

    /**
     * The files among {@code keys} (their identities, {@link dev.crawlerrors.ingest.FileStamp#key()})
     * recorded as read to their end, each with the stamp it had then ({@link SourceProgress#file()}).
     */
    List<SourceProgress> importedFiles(Collection<String> keys);

    /**
     * Which of {@code stamps} are files recorded as read to their end with the very stamp given (the
     * files an import need not open), and the lines recorded of each: by index in {@code stamps},
     * -1 for a file recorded with another stamp or not at all, and for a null stamp (a stream, a file
     * that cannot be looked at). A store may compare the stamps where it keeps them; this one asks
     * {@link #importedFiles} and compares them here.
     */
    default long[] unchangedLines(List<FileStamp> stamps) {
        Map<String, SourceProgress> recorded = new HashMap<>();
        List<String> keys = new ArrayList<>(stamps.size());
        for (FileStamp stamp : stamps) {
            if (stamp != null) {
                keys.add(stamp.key());
            }
        }
        for (SourceProgress file : importedFiles(keys)) {
            recorded.put(file.file().key(), file);
        }
        long[] lines = new long[stamps.size()];
        for (int i = 0; i < lines.length; i++) {
            FileStamp stamp = stamps.get(i);
            SourceProgress file = stamp == null ? null : recorded.get(stamp.key());
            lines[i] = file != null && file.file().equals(stamp) ? file.lines() : -1;
        }
        return lines;
    }

    /**
     * Whether the store holds, or was handed, how far any log was read: an import into a store that
     * holds none need not work out every form a log may have been recorded under.
     */
    default boolean recordsProgress() {
        return true;
    }

    /**
     * Whether lines appended with a position may still be refused after {@link #append} took them,
     * when they are committed ({@link PositionMovedException#atCommit}, told at a later append of
     * their log or at {@link #flush}): an appender keeps what it counted of them until then.
     */
    default boolean refusesAtCommit() {
        return true;
    }

    /**
     * A mark of every hit appended so far, by any appender of this writer: once {@link
     * #committedMark()} reaches it, they are all durable. -1 when the writer cannot say.
     */
    default long appendedMark() {
        return -1;
    }

    /**
     * The mark ({@link #appendedMark()}) up to which every hit appended is durable; -1 when the writer
     * cannot say. A commit that failed stops it where the commits before had brought it.
     */
    default long committedMark() {
        return -1;
    }

    /**
     * Makes everything appended or updated so far durable and visible to every reader.
     *
     * @throws PositionMovedException when a store that compares positions as it commits (ClickHouse)
     *                                refused the lines of some logs: the rest is stored, and those
     *                                logs are read on from {@link #imported}
     */
    void flush();
}
