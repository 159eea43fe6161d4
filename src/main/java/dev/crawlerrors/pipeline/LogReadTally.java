package dev.crawlerrors.pipeline;

import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.source.ResumePoint;
import java.util.ArrayList;
import java.util.List;

/**
 * What an import did with one log over the reads it took. A read ends early when another writer
 * recorded the log's position meanwhile (the store refuses a chunk by compare-and-set: two imports
 * of one log, or an import beside {@code serve --follow} of it), and the log is read on from where
 * the store has it then: what this import stored, and how many lines the other writer stored in
 * between, add up over the reads.
 *
 * <p>A store that compares as it commits (ClickHouse) refuses chunks it took before, during a read
 * or at the import's last commit: the lines of those chunks are taken back from the counts, once
 * however many times the refusal is told. Each read from where the store had the log is a <i>run</i>;
 * a refusal cuts the run it falls in where it starts, and the lines from that cut to where the next
 * run started are the other writer's. So every line of the log is counted once, as this import's or
 * the other's.
 */
final class LogReadTally {

    /** Where the first read started: the log as it was before this import. */
    final ResumePoint first;
    /** The counts of the chunks this import stored, over every read. */
    final ParseCounts counts = new ParseCounts();
    /** The import's counts of every log, kept in step with {@link #counts}. */
    private final ParseCounts total;
    private final List<Run> runs = new ArrayList<>();
    /** The position last stored by this import, null when it stored none. */
    private SourceProgress last;
    /** Whether the current read was refused: the log moved. */
    private boolean moved;
    /** Chunks a refusal during the current read took back, withdrawn once the read's counts are added. */
    private final List<Chunk> withdrawing = new ArrayList<>();
    private ParseCounts lastRead = new ParseCounts();

    /** One read of the log from where the store had it. */
    private static final class Run {
        final SourceProgress start;
        /** Where the store has the log after this run's last chunk. */
        SourceProgress reached;
        /** Where the store refused this run's lines from, null while none was refused. */
        SourceProgress cut;
        /** Where the next run started (the store had the log there), null for the last run. */
        SourceProgress next;
        /** Chunks counted in this run, up to where its lines were refused. */
        final List<Chunk> chunks = new ArrayList<>();

        Run(SourceProgress start) {
            this.start = start;
            this.reached = start;
        }

        /** Where this import's lines of the run end: where they were refused, else its last chunk's end. */
        SourceProgress stored() {
            return cut != null ? cut : reached;
        }
    }

    /** A chunk's counts, its bad lines numbered from {@code lineBase}, the lines before it. */
    private record Chunk(ParseCounts counts, long lineBase) {
    }

    /** {@code total}: the import's counts, which this log's are added to and taken back from as they are. */
    LogReadTally(ResumePoint first, ParseCounts total) {
        this.first = first;
        this.total = total;
        runs.add(new Run(first.start()));
    }

    private Run current() {
        return runs.get(runs.size() - 1);
    }

    /** A chunk of the current read was counted: it may be taken back if the store refuses it later. */
    void counted(ParseCounts chunk, long lineBase) {
        current().chunks.add(new Chunk(chunk, lineBase));
    }

    /** This import stored a chunk, {@code through} its end. */
    void stored(SourceProgress through) {
        last = through;
        current().reached = through;
    }

    /**
     * The store refused a chunk: the read ends, and goes on from where another writer left the log.
     * This import's lines are stored up to {@code storedUpTo}: a store that refuses as it commits
     * refuses chunks it took before, whose counts are taken back once the read ends.
     */
    void refused(SourceProgress storedUpTo) {
        moved = true;
        withdrawing.addAll(cut(storedUpTo));
    }

    /**
     * The store refused, at the import's last commit, this import's lines of the log from {@code
     * storedUpTo} on (after every read of it ended): their counts are taken back at once, and the log
     * is read on from where the store has it ({@link #readOnFrom}).
     */
    void refusedAtCommit(SourceProgress storedUpTo) {
        for (Chunk chunk : cut(storedUpTo)) {
            withdraw(chunk);
        }
        moved = true;
    }

    /**
     * Cuts the run {@code storedUpTo} falls in there, if it was not cut there or before already;
     * returns the chunks counted past the cut, taken out of the run.
     */
    private List<Chunk> cut(SourceProgress storedUpTo) {
        Run run = runs.get(0);
        for (Run r : runs) {
            if (r.start.bytes() <= storedUpTo.bytes()) {
                run = r;
            }
        }
        SourceProgress at = storedUpTo.bytes() < run.start.bytes() ? run.start : storedUpTo;
        if (run.cut != null && run.cut.bytes() <= at.bytes()) {
            return List.of(); // told before: the same lines, or some of them
        }
        if (at.bytes() >= run.reached.bytes()) {
            return List.of(); // nothing of this import's past it: the chunk refused was not taken
        }
        run.cut = at;
        List<Chunk> past = new ArrayList<>();
        run.chunks.removeIf(chunk -> {
            boolean after = chunk.lineBase() >= at.lines();
            if (after) {
                past.add(chunk);
            }
            return after;
        });
        return past;
    }

    private void withdraw(Chunk chunk) {
        counts.withdraw(chunk.counts(), chunk.lineBase());
        total.withdraw(chunk.counts(), chunk.lineBase());
    }

    /** A read ended, its counts those of the chunks it stored. */
    void readEnded(ParseCounts read) {
        counts.addAll(read);
        total.addAll(read);
        if (read.format() != null) {
            counts.readAs(read.format());
        }
        for (Chunk chunk : withdrawing) {
            withdraw(chunk);
        }
        withdrawing.clear();
        lastRead = read;
    }

    /** Whether the last read was refused, so the log is read on from where the store has it. */
    boolean moved() {
        return moved;
    }

    /** The next read starts at {@code resume}, after the lines another writer stored since this one's last chunk. */
    void readOnFrom(ResumePoint resume) {
        SourceProgress start = resume.start();
        Run before = current();
        before.next = start;
        // what was stored of the runs before is committed: their chunks will not be refused
        before.chunks.clear();
        runs.add(new Run(start));
        moved = false;
    }

    /** Where the store has the log after this import: its last chunk's end, or where another writer left it. */
    SourceProgress reached() {
        return current().stored();
    }

    /** The position this import stored last, null when it stored none. */
    SourceProgress last() {
        return last;
    }

    /** The counts of the last read: what it left (an unfinished last line) and what it met (a read error). */
    ParseCounts lastRead() {
        return lastRead;
    }

    /** Decompressed bytes this import stored of the log. */
    long bytes() {
        long bytes = 0;
        for (Run run : runs) {
            bytes += Math.max(0, run.stored().bytes() - run.start.bytes());
        }
        return bytes;
    }

    /** Lines of the log another writer stored while this import read it. */
    long otherWriterLines() {
        long lines = 0;
        for (Run run : runs) {
            if (run.next != null) {
                lines += Math.max(0, run.next.lines() - run.stored().lines());
            }
        }
        return lines;
    }
}
