package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.LineParser;
import dev.crawlerrors.ingest.push.LineBatchSink;
import dev.crawlerrors.ingest.push.PushedBatch;
import dev.crawlerrors.ingest.source.LogReader;
import dev.crawlerrors.ingest.source.ReadRequest;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.SignatureStore;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one way lines pushed to {@code serve} over the network (syslog, the log drain) reach the
 * store: a batch is split into lines and parsed by the reader imports use, its crawler hits are
 * identified and verified by {@link HitRecorder}, appended in one go and flushed, so the batch is
 * in the report when {@link #accept} returns.
 *
 * <p>A batch is stored whole or not at all: its hits are collected while it is read (only the
 * crawler candidates, a small part of the bytes) and appended once it was read to its end, so a
 * sender whose upload broke off can send the batch again without storing a line twice. Batches
 * from several threads are safe: the store serialises writes.
 */
public final class PushedLines implements LineBatchSink, AutoCloseable {

    /** A batch is a few lines (syslog) to a few megabytes (a drain upload): two cores are plenty. */
    private static final int PARSER_THREADS = 2;

    private final HitWriter store;
    private final CrawlerIdentifier identifier;
    private final HitRecorder recorder;
    private final LogReader reader;

    public PushedLines(HitWriter store, SignatureStore kept, CrawlerIdentifier identifier, CrawlerVerifier verifier) {
        this(store, kept, identifier, verifier, null);
    }

    /** As above, the hits of lines that record no host stored on {@code siteHost} ({@code --host}; null: hostless). */
    public PushedLines(HitWriter store, SignatureStore kept, CrawlerIdentifier identifier, CrawlerVerifier verifier, String siteHost) {
        this.store = store;
        this.identifier = identifier;
        this.recorder = new HitRecorder(store, kept, null, identifier, verifier);
        recorder.siteHost(siteHost);
        // every read names its own format; this default is never used
        this.reader = new LogReader(FormatChooser.of(null), PARSER_THREADS);
    }

    @Override
    public PushedBatch accept(InputStream lines, String source, FormatChooser formats) throws IOException {
        AtomicReference<LineParser> chosen = new AtomicReference<>();
        FormatChooser remembering = (in, name) -> {
            FormatChooser.Choice choice = formats.choose(in, name);
            chosen.set(choice.parser());
            return choice;
        };
        List<Hit> hits = new ArrayList<>();
        FailureKept in = new FailureKept(lines);
        ParseCounts counts;
        try {
            counts = reader.read(in, ReadRequest.of(new SourceProgress(null, source, 0, 0), identifier,
                    (chunk, from, through) -> hits.addAll(chunk)).withFormats(remembering));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e); // the sink above throws nothing checked
        }
        if (in.failure != null) {
            throw in.failure; // the reader counted it and went on; a pushed batch is stored whole or not at all
        }
        List<CrawlerHit> stored = recorder.record(hits);
        store.flush();
        LineParser parser = chosen.get();
        return new PushedBatch(counts, parser == null ? null : parser.describe(), stored.size());
    }

    @Override
    public void close() {
        reader.close();
    }

    /** The batch's bytes, keeping the first read error as it was thrown (its type tells the sender what went wrong). */
    private static final class FailureKept extends FilterInputStream {

        IOException failure;

        FailureKept(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException e) {
                throw kept(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException e) {
                throw kept(e);
            }
        }

        private IOException kept(IOException e) {
            if (failure == null) {
                failure = e;
            }
            return e;
        }
    }
}
