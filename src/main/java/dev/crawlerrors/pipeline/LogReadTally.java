package dev.crawlerrors.pipeline;

import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.source.ResumePoint;

/**
 * What an import did with one log over the reads it took. A read ends early when another writer
 * recorded the log's position meanwhile (the store refuses a chunk by compare-and-set: two imports
 * of one log, or an import beside {@code serve --follow} of it), and the log is read on from where
 * the store has it then: what this import stored, and how many lines the other writer stored in
 * between, add up over the reads.
 */
final class LogReadTally {

    /** Where the first read started: the log as it was before this import. */
    final ResumePoint first;
    /** The counts of the chunks this import stored, over every read. */
    final ParseCounts counts = new ParseCounts();
    /** Where the current read started, and where the store has the log after its last chunk. */
    private SourceProgress readFrom;
    private SourceProgress reached;
    /** The position last stored by this import, null when it stored none. */
    private SourceProgress last;
    private long bytes;
    private long otherWriterLines;
    /** Whether the current read was refused: the log moved. */
    private boolean moved;
    private ParseCounts lastRead = new ParseCounts();

    LogReadTally(ResumePoint first) {
        this.first = first;
        this.readFrom = first.start();
        this.reached = first.start();
    }

    /** This import stored a chunk, {@code through} its end. */
    void stored(SourceProgress through) {
        last = through;
        reached = through;
    }

    /**
     * The store refused a chunk: the read ends, and goes on from where another writer left the log.
     * This import's lines are stored up to {@code storedUpTo}: a store that refuses as it commits
     * refuses chunks it took before.
     */
    void refused(SourceProgress storedUpTo) {
        moved = true;
        if (storedUpTo.bytes() < reached.bytes()) {
            reached = storedUpTo;
        }
    }

    /** A read ended, its counts those of the chunks it stored. */
    void readEnded(ParseCounts read) {
        counts.addAll(read);
        if (read.format() != null) {
            counts.readAs(read.format());
        }
        lastRead = read;
        bytes += reached.bytes() - readFrom.bytes();
    }

    /** Whether the last read was refused, so the log is read on from where the store has it. */
    boolean moved() {
        return moved;
    }

    /** The next read starts at {@code resume}, after the lines another writer stored since this one's last chunk. */
    void readOnFrom(ResumePoint resume) {
        SourceProgress start = resume.start();
        otherWriterLines += Math.max(0, start.lines() - reached.lines());
        readFrom = start;
        reached = start;
        moved = false;
    }

    /** Where the store has the log after this import: its last chunk's end, or where another writer left it. */
    SourceProgress reached() {
        return reached;
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
        return bytes;
    }

    /** Lines of the log another writer stored while this import read it. */
    long otherWriterLines() {
        return otherWriterLines;
    }
}
