package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.CrawlerVerifier;
import dev.crawlerrors.ingest.CombinedLineParser;
import dev.crawlerrors.ingest.FormatChooser;
import dev.crawlerrors.ingest.LogFollower;
import dev.crawlerrors.ingest.LogReader;
import dev.crawlerrors.ingest.StickyFormat;
import dev.crawlerrors.store.HitStore;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code serve --follow}: tails logs into the store while the report is served. Each batch of new
 * lines is stored with its position and flushed at once, so it is in the report well within a
 * second and a restart reads on exactly where this stopped.
 */
final class FollowedLogs implements AutoCloseable {

    /** Parsing a poll's few lines needs no more; a backlog after a restart gets two cores. */
    private static final int PARSER_THREADS = 2;

    private final LogReader reader;
    private final LogFollower follower;

    /** Follows combined logs. */
    FollowedLogs(List<Path> paths, HitStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier, Consumer<String> notices) {
        this(paths, FormatChooser.of(new CombinedLineParser()), store, identifier, verifier, notices);
    }

    /** Follows logs in the format {@code formats} chooses for each, once, from its first lines ({@code --format}). */
    FollowedLogs(List<Path> paths, FormatChooser formats, HitStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier,
            Consumer<String> notices) {
        HitRecorder recorder = new HitRecorder(store, identifier, verifier);
        this.reader = new LogReader(new StickyFormat(formats), PARSER_THREADS);
        this.follower = new LogFollower(paths, reader, identifier, store::imported, recorder::record, store::flush, notices);
    }

    void start() {
        follower.start();
    }

    /** Looks at every file once, on the caller's thread (tests). */
    void pollOnce() {
        follower.pollOnce();
    }

    /** Stops following; what was read is stored by the time this returns. */
    @Override
    public void close() {
        follower.close();
        reader.close();
    }
}
