package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.source.LogFollower;
import dev.crawlerrors.ingest.source.LogReader;
import dev.crawlerrors.store.HitStore;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code serve --follow}: tails logs into the store while the report is served. Each batch of new
 * lines is stored with its position and flushed at once, so it is in the report well within a
 * second and a restart reads on exactly where this stopped. While lines flow, a line every few
 * seconds says how many and how many crawler hits they held ({@link FollowProgress}).
 */
public final class FollowedLogs implements LiveSource {

    /** Parsing a poll's few lines needs no more; a backlog after a restart gets two cores. */
    private static final int PARSER_THREADS = 2;

    private final LogReader reader;
    private final LogFollower follower;
    private final FollowProgress progress;

    /**
     * @param formats  each followed file's format ({@code --format}; auto detects it per file)
     * @param notices  told what happened to a file, and every few seconds how following is going
     */
    public FollowedLogs(List<Path> paths, FormatChooser formats, HitStore store, CrawlerIdentifier identifier, CrawlerVerifier verifier,
            Consumer<String> notices) {
        HitRecorder recorder = new HitRecorder(store, identifier, verifier);
        this.progress = new FollowProgress(notices);
        this.reader = new LogReader(formats, PARSER_THREADS);
        this.follower = new LogFollower(paths, reader, formats, identifier, store::imported,
                (hits, through) -> progress.stored(recorder.record(hits, through)),
                counts -> {
                    store.flush();
                    progress.read(counts.linesRead(), counts.linesBad());
                }, notices);
    }

    @Override
    public void start() {
        follower.start();
        progress.start();
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
        progress.close();
    }
}
