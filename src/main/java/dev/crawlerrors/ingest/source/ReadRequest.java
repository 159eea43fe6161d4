package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.HitSink;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.SourceSink;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.LineParser;

/**
 * What one {@link LogReader} read asks for: where it starts, which agents it keeps, where its hits
 * go, and, where the caller has a say, how it is parsed and what it does at the end. Made with
 * {@link #of} and refined with the {@code with} methods, so a new option is one more of them and no
 * caller changes.
 *
 * @param from       where the input starts in its log (bad lines are numbered from the log's start)
 * @param filter     the agents kept
 * @param sink       takes each chunk's hits with the positions it starts and ends at
 * @param progress   told of the bytes read
 * @param parser     the parser the caller chose (a followed log keeps its file's), or null
 * @param formats    the chooser the caller chose (the drain's {@code ?format=}), or null: the reader's own
 * @param check      the check of the bytes before each position handed on, kept from one read to the next; or null
 * @param resume     where {@link LogReader#readOn} starts, overriding {@code from}; or null
 * @param unfinished what {@link LogReader#readOn} does with a last line without a newline
 * @param counted    told the counts of each chunk as they are added to the read's, once the sink took it
 */
public record ReadRequest(SourceProgress from, AgentFilter filter, SourceSink sink, ReadProgress progress, LineParser parser,
        FormatChooser formats, TailCheck check, ResumePoint resume, LogReader.UnfinishedLine unfinished, Counted counted) {

    /** Told the counts of each chunk of a read as they are added to the read's. */
    @FunctionalInterface
    public interface Counted {

        Counted NONE = (chunk, lineBase) -> { };

        /**
         * @param chunk    the chunk's counts, its bad lines numbered from {@code lineBase}
         * @param lineBase the lines of the log before the chunk
         */
        void counted(ParseCounts chunk, long lineBase);
    }

    /** The request without {@code counted}, as it was before it had one. */
    public ReadRequest(SourceProgress from, AgentFilter filter, SourceSink sink, ReadProgress progress, LineParser parser,
            FormatChooser formats, TailCheck check, ResumePoint resume, LogReader.UnfinishedLine unfinished) {
        this(from, filter, sink, progress, parser, formats, check, resume, unfinished, Counted.NONE);
    }

    /** A read from {@code from} to the input's end, in the format the reader chooses. */
    public static ReadRequest of(SourceProgress from, AgentFilter filter, SourceSink sink) {
        return new ReadRequest(from, filter, sink, ReadProgress.NONE, null, null, null, null, LogReader.UnfinishedLine.READ);
    }

    /** A read of a whole input named {@code source} whose hits, without positions, go to {@code sink}. */
    public static ReadRequest of(String source, AgentFilter filter, HitSink sink) {
        return of(new SourceProgress(null, source, 0, 0), filter, (hits, from, through) -> {
            if (!hits.isEmpty()) {
                sink.accept(hits);
            }
        });
    }

    /** This read, telling {@code progress} of the bytes it reads. */
    public ReadRequest withProgress(ReadProgress progress) {
        return new ReadRequest(from, filter, sink, progress, parser, formats, check, resume, unfinished, counted);
    }

    /**
     * This read, with {@code parser} rather than the reader's chooser. A {@linkplain LineParser#sequential()
     * sequential} parser is used itself, not a copy, so what its directives set carries on to the caller's next read.
     */
    public ReadRequest withParser(LineParser parser) {
        return new ReadRequest(from, filter, sink, progress, parser, formats, check, resume, unfinished, counted);
    }

    /** This read, in the format {@code formats} chooses for it rather than the reader's own. */
    public ReadRequest withFormats(FormatChooser formats) {
        return new ReadRequest(from, filter, sink, progress, parser, formats, check, resume, unfinished, counted);
    }

    /** This read, handing on with each position the check of the bytes before it ({@link TailCheck}), kept in {@code check}. */
    public ReadRequest withCheck(TailCheck check) {
        return new ReadRequest(from, filter, sink, progress, parser, formats, check, resume, unfinished, counted);
    }

    /** This read, from where {@code resume} says, for {@link LogReader#readOn}. */
    public ReadRequest withResume(ResumePoint resume) {
        return new ReadRequest(resume.start(), filter, sink, progress, parser, formats, check, resume, unfinished, counted);
    }

    /** This read, doing with a last line that has no newline what {@code unfinished} says. */
    public ReadRequest withUnfinished(LogReader.UnfinishedLine unfinished) {
        return new ReadRequest(from, filter, sink, progress, parser, formats, check, resume, unfinished, counted);
    }

    /**
     * This read, telling {@code counted} the counts of each chunk the sink took (and of those between
     * that it was not handed, human lines only): a sink whose store may refuse chunks after it took
     * them can take their counts back.
     */
    public ReadRequest withCounted(Counted counted) {
        return new ReadRequest(from, filter, sink, progress, parser, formats, check, resume, unfinished, counted);
    }
}
