package dev.crawlerrors.store.remote;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.Failures;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * A store written through the socket of the {@code serve} that has it open ({@link StoreSocketServer}):
 * what an import appends goes to that process, which stores it with the log's position as a local
 * import would, so a killed import, or a killed serve, loses and repeats nothing: the next import
 * reads on from the position committed. It is the writing side of a store only, each of its views
 * this one connection; the report is read from serve.
 */
public final class StoreSocketClient implements WritableStore, HitWriter, VerdictStore, StoreHealth {

    private final ServedStore served;
    private final SocketChannel channel;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final Consumer<String> waiting;
    private final SocketSignatures signatures = new SocketSignatures(this);

    private StoreSocketClient(ServedStore served, SocketChannel channel, Consumer<String> waiting) throws IOException {
        this.served = served;
        this.channel = channel;
        this.waiting = waiting;
        this.in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
    }

    /**
     * Connects to the serve that has the store open, and waits for a place there when it is taking
     * as many imports as it takes at once: {@code waiting} is told so, once.
     */
    public static StoreSocketClient connect(ServedStore served, Consumer<String> waiting) {
        StoreSocketClient client;
        try {
            SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                channel.connect(UnixDomainSocketAddress.of(served.socket()));
                client = new StoreSocketClient(served, channel, waiting);
            } catch (IOException e) {
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            throw new StoreException("the store " + served.store() + " is open in crawl-errors serve (PID " + served.pid()
                    + "), whose socket " + served.socket() + " does not answer (" + Failures.message(e) + "); stop that serve, "
                    + "or wait until it has started", e);
        }
        try {
            client.ask(Frames.HELLO, () -> { });
        } catch (RuntimeException e) {
            client.closeChannel();
            throw e;
        }
        return client;
    }

    @Override
    public HitWriter writer() {
        return this;
    }

    @Override
    public VerdictStore verdicts() {
        return this;
    }

    @Override
    public StoreHealth health() {
        return this;
    }

    @Override
    public SignatureStore signatures() {
        return signatures;
    }

    /** Writes a request of {@code kind} and reads its answer, as one exchange (for {@link SocketSignatures}). */
    synchronized <T> T request(byte kind, Fields request, Answer<T> answer) {
        ask(kind, () -> request.write(out));
        return read(() -> answer.read(in));
    }

    /** Writes a request's fields. */
    interface Fields {
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads an answer's fields. */
    interface Answer<T> {
        T read(DataInputStream in) throws IOException;
    }

    @Override
    public synchronized void append(List<CrawlerHit> hits) {
        append(hits, null, null);
    }

    @Override
    public synchronized void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
        ask(Frames.APPEND, () -> {
            Frames.writeHits(out, hits);
            Frames.writeProgress(out, from);
            Frames.writeProgress(out, through);
        });
    }

    @Override
    public synchronized List<SourceProgress> imported(Collection<String> fingerprints) {
        ask(Frames.IMPORTED, () -> Frames.writeStrings(out, fingerprints));
        return read(() -> Frames.readProgresses(in));
    }

    @Override
    public synchronized List<SourceProgress> importedFiles(Collection<String> keys) {
        ask(Frames.IMPORTED_FILES, () -> Frames.writeStrings(out, keys));
        return read(() -> Frames.readProgresses(in));
    }

    @Override
    public synchronized void update(String ip, String crawler, Verdict verdict) {
        ask(Frames.VERDICT, () -> {
            Frames.writeString(out, ip);
            Frames.writeString(out, crawler);
            Frames.writeVerdict(out, verdict);
        });
    }

    @Override
    public void commit() {
        flush();
    }

    @Override
    public synchronized List<StoredVerdict> of(Verification verification) {
        ask(Frames.VERDICTS, () -> Frames.writeString(out, verification.name()));
        return read(() -> {
            int n = in.readInt();
            List<StoredVerdict> verdicts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                verdicts.add(new StoredVerdict(Frames.readString(in), Frames.readString(in), Frames.readVerdict(in)));
            }
            return verdicts;
        });
    }

    /** Waits until serve has committed everything this import handed it. */
    @Override
    public synchronized void flush() {
        ask(Frames.FLUSH, () -> { });
    }

    /**
     * The serve at the other end checked the store when it opened it and answers 503 from then on
     * if it finds it damaged; here it is asked to answer at all.
     */
    @Override
    public void checkReadable() {
        size();
    }

    @Override
    public synchronized long size() {
        ask(Frames.SIZE, () -> { });
        return read(in::readLong);
    }

    @Override
    public SitemapStore sitemaps() {
        return SitemapStore.refusing("this store is held by a running serve, which keeps the sitemaps it is given:"
                + " give --sitemap to that serve, or stop it and import again");
    }

    @Override
    public String describe() {
        return served.store() + ", written through crawl-errors serve (PID " + served.pid() + ")";
    }

    /** Commits what was handed over and goes. */
    @Override
    public synchronized void close() {
        try {
            flush();
            out.writeByte(Frames.QUIT);
            out.flush();
        } catch (IOException | StoreException e) {
            // closing: a failure to commit was told by flush
        } finally {
            closeChannel();
        }
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private interface Writing {
        void write() throws IOException;
    }

    private interface Reading<T> {
        T read() throws IOException;
    }

    /** Sends a request and reads the answer's first byte; a refusal is the store's failure. */
    private void ask(byte kind, Writing request) {
        try {
            out.writeByte(kind);
            request.write();
            out.flush();
            int answer = in.read();
            while (answer == Frames.WAIT) {
                waiting.accept(Frames.readString(in));
                answer = in.read();
            }
            if (answer == Frames.MOVED) {
                throw Frames.readMoved(in);
            }
            if (answer == Frames.FAILED) {
                throw new StoreException(served.store() + " (through crawl-errors serve, PID " + served.pid() + "): "
                        + Frames.readString(in), null);
            }
            if (answer != Frames.OK) {
                throw new IOException(answer < 0 ? "the connection was closed" : "an answer out of step");
            }
        } catch (IOException e) {
            throw gone(e);
        }
    }

    private <T> T read(Reading<T> answer) {
        try {
            return answer.read();
        } catch (IOException e) {
            throw gone(e);
        }
    }

    private StoreException gone(IOException e) {
        return new StoreException("crawl-errors serve (PID " + served.pid() + "), which has the store " + served.store()
                + " open, stopped taking this import's lines (" + Failures.message(e) + "): what it committed is kept; run the "
                + "import again to read on from there", e);
    }
}
