package dev.crawlerrors.store.remote;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StoreFileModes;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket through which {@code crawl-errors import} writes to a store that {@code serve} has
 * open (DuckDB lets one process open a file for writing): the import reads and parses its logs
 * itself and hands over what it would have appended, with the position in its log, so the store
 * keeps both in one transaction as a local import would. A Unix domain socket in a directory only
 * the store's owner may enter ({@link SocketDirectory}): whoever may write the store may write
 * through it, nobody else.
 *
 * <p>No import can hold the others up: {@link Limits#places} are served at once and the next ones
 * are accepted and told that they wait; a request must arrive within {@link Limits#requestWait} of
 * waiting in all and within {@link Limits#frameBytes}, and an import idle between requests while
 * others wait gives its place up after {@link Limits#idleWhileOthersWait}.
 */
public final class StoreSocketServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StoreSocketServer.class);

    /**
     * The bounds of the socket.
     *
     * @param places              imports served at once
     * @param waiting             imports that may wait for a place; the next are refused
     * @param requestWait         how long a request may wait for the import in all (to send it, to take its answer)
     * @param idleWhileOthersWait how long an import may send nothing between requests while others wait
     * @param frameBytes          the most bytes one request may carry: an append of a 1 MiB chunk of a log
     *                            is some 8 MiB at most (its hits, each with its crawler and verdict)
     */
    record Limits(int places, int waiting, Duration requestWait, Duration idleWhileOthersWait, long frameBytes) {
        static final Limits DEFAULT = new Limits(16, 64, Duration.ofSeconds(30), Duration.ofSeconds(60), 32L << 20);
    }

    private final WritableStore store;
    private final SocketDirectory directory;
    private final ServerSocketChannel channel;
    private final Limits limits;
    private final Semaphore places;
    private final AtomicInteger waiting = new AtomicInteger();
    private final Set<ImportConnection> serving = ConcurrentHashMap.newKeySet();
    private final Set<ImportConnection> open = ConcurrentHashMap.newKeySet();
    private final Set<Thread> waiters = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private StoreSocketServer(WritableStore store, SocketDirectory directory, ServerSocketChannel channel, Limits limits) {
        this.store = store;
        this.directory = directory;
        this.channel = channel;
        this.limits = limits;
        this.places = new Semaphore(limits.places());
    }

    /**
     * Listens for imports into {@code store}, whose file is {@code storeFile}, in the socket directory
     * beside it (a stale socket left by a killed serve is replaced).
     *
     * @throws IOException naming the socket when it cannot listen there
     */
    public static StoreSocketServer start(WritableStore store, Path storeFile) throws IOException {
        return start(store, storeFile, Limits.DEFAULT);
    }

    static StoreSocketServer start(WritableStore store, Path storeFile, Limits limits) throws IOException {
        StoreFileModes modes = StoreFileModes.of(storeFile);
        SocketDirectory directory;
        try {
            directory = SocketDirectory.prepare(storeFile, modes);
        } catch (IOException e) {
            throw new IOException("cannot make a directory for the import socket beside " + storeFile + " (" + Failures.message(e) + ")", e);
        }
        Path path = directory.socket();
        ServerSocketChannel channel = null;
        try {
            Files.deleteIfExists(path);
            channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            channel.bind(UnixDomainSocketAddress.of(path));
            modes.tighten(path); // nobody else could reach it meanwhile: the directory is the owner's
        } catch (IOException e) {
            if (channel != null) {
                channel.close();
            }
            directory.remove();
            throw new IOException("cannot listen for imports on " + path + " (" + Failures.message(e) + ")", e);
        }
        StoreSocketServer server = new StoreSocketServer(store, directory, channel, limits);
        Threads.startDaemon("store-socket", server::accept);
        Threads.startDaemon("store-socket-watch", server::watch);
        return server;
    }

    public Path path() {
        return directory.socket();
    }

    private void accept() {
        while (!closed) {
            ImportConnection connection;
            try {
                connection = new ImportConnection(channel.accept(), limits.frameBytes());
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("the store socket {} stopped accepting imports: {}", path(), Failures.message(e));
                }
                return;
            }
            open.add(connection);
            if (places.tryAcquire()) {
                Thread.ofVirtual().name("store-socket-import").start(() -> serve(connection));
            } else if (waiting.incrementAndGet() <= limits.waiting()) {
                Thread.ofVirtual().name("store-socket-waiting").start(() -> awaitPlace(connection));
            } else {
                waiting.decrementAndGet();
                Thread.ofVirtual().name("store-socket-refused").start(() -> refuse(connection));
            }
        }
    }

    /** Tells the import that it waits, and serves it once a place is free. */
    private void awaitPlace(ImportConnection connection) {
        waiters.add(Thread.currentThread());
        boolean admitted = false;
        try {
            connection.tell(Frames.WAIT, "crawl-errors serve is taking " + limits.places() + " imports at once; this one waits for"
                    + " one of them to finish");
            places.acquire();
            admitted = true;
        } catch (IOException | InterruptedException e) {
            close(connection);
        } finally {
            waiting.decrementAndGet();
            waiters.remove(Thread.currentThread());
        }
        if (admitted) {
            serve(connection);
        }
    }

    private void refuse(ImportConnection connection) {
        try {
            connection.tell(Frames.FAILED, "crawl-errors serve is taking " + limits.places() + " imports and " + limits.waiting()
                    + " more wait; run this one when some have finished");
        } catch (IOException e) {
            // it went away: nothing to tell
        } finally {
            close(connection);
        }
    }

    /** Serves one import's requests until it quits or goes; holds a place. */
    private void serve(ImportConnection connection) {
        serving.add(connection);
        try {
            while (true) {
                int kind = connection.in.read();
                if (kind < 0 || kind == Frames.QUIT) {
                    return;
                }
                try {
                    answer((byte) kind, connection.in, connection.out);
                } catch (PositionMovedException e) {
                    // another writer got there first: the import reads on from where the store has the log
                    Frames.writeMoved(connection.out, e);
                } catch (RuntimeException e) {
                    // what the store refused (a full disk, a damaged file) is the import's failure to tell
                    connection.out.writeByte(Frames.FAILED);
                    Frames.writeString(connection.out, Failures.message(e));
                }
                connection.answered();
            }
        } catch (ImportConnection.FrameTooLargeException e) {
            LOG.warn("the store socket refused an import's request: {}", e.getMessage());
            try {
                connection.tell(Frames.FAILED, e.getMessage() + ": refused");
            } catch (IOException again) {
                // it went away: nothing to tell
            }
        } catch (EOFException e) {
            // the import went away between requests or within one: what it appended is the store's as usual
        } catch (IOException e) {
            if (!closed && !connection.closedHere()) {
                LOG.info("the store socket dropped an import's connection: {}", Failures.message(e));
            }
        } finally {
            serving.remove(connection);
            close(connection);
            places.release();
        }
    }

    /**
     * Every second: closes an import that has made a request wait for it longer than the bound (it
     * stopped half-way, or sends a byte now and then), and, while imports wait for a place, the ones
     * idle longest between requests beyond their bound, one for each import waiting.
     */
    private void watch() {
        long tick = Math.max(50, Math.min(1000, limits.requestWait().toMillis() / 4));
        while (!closed) {
            try {
                Thread.sleep(tick);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (ImportConnection connection : serving) {
                if (connection.requestWaitNanos(now) > limits.requestWait().toNanos()) {
                    LOG.warn("closed an import's connection to the store socket: its request waited for it more than {} s",
                            limits.requestWait().toSeconds());
                    close(connection);
                }
            }
            int waitingNow = waiting.get();
            if (waitingNow > 0) {
                serving.stream()
                        .filter(c -> c.idleNanos(now) > limits.idleWhileOthersWait().toNanos())
                        .sorted(Comparator.comparingLong((ImportConnection c) -> c.idleNanos(now)).reversed())
                        .limit(waitingNow)
                        .forEach(c -> {
                            LOG.warn("closed an import's connection to the store socket, idle more than {} s, for an import waiting for a place",
                                    limits.idleWhileOthersWait().toSeconds());
                            close(c);
                        });
            }
        }
    }

    private void close(ImportConnection connection) {
        open.remove(connection);
        connection.close();
    }

    private void answer(byte kind, DataInputStream in, DataOutputStream out) throws IOException {
        switch (kind) {
            case Frames.HELLO -> out.writeByte(Frames.OK);
            case Frames.APPEND -> {
                var hits = Frames.readHits(in);
                SourceProgress from = Frames.readProgress(in);
                SourceProgress through = Frames.readProgress(in);
                if (through == null) {
                    store.writer().append(hits);
                } else if (from == null) {
                    throw new IOException("an append of a log's lines without the position they start from");
                } else {
                    store.writer().append(hits, from, through);
                }
                out.writeByte(Frames.OK);
            }
            case Frames.IMPORTED -> {
                List<SourceProgress> imported = store.writer().imported(Frames.readStrings(in));
                out.writeByte(Frames.OK);
                Frames.writeProgresses(out, imported);
            }
            case Frames.IMPORTED_FILES -> {
                List<SourceProgress> imported = store.writer().importedFiles(Frames.readStrings(in));
                out.writeByte(Frames.OK);
                Frames.writeProgresses(out, imported);
            }
            case Frames.VERDICT -> {
                String ip = Frames.readString(in);
                String crawler = Frames.readString(in);
                store.verdicts().update(ip, crawler, Frames.readVerdict(in));
                out.writeByte(Frames.OK);
            }
            case Frames.VERDICTS -> {
                List<StoredVerdict> verdicts = store.verdicts().of(Frames.known(Verification.class, Frames.readString(in)));
                out.writeByte(Frames.OK);
                out.writeInt(verdicts.size());
                for (StoredVerdict verdict : verdicts) {
                    Frames.writeString(out, verdict.ip());
                    Frames.writeString(out, verdict.crawler());
                    Frames.writeVerdict(out, verdict.verdict());
                }
            }
            case Frames.FLUSH -> {
                store.writer().flush();
                out.writeByte(Frames.OK);
            }
            case Frames.SIZE -> {
                long size = store.health().size();
                out.writeByte(Frames.OK);
                out.writeLong(size);
            }
            case Frames.KEEP_DIRECTORY -> {
                store.signatures().keepDirectory(SocketSignatures.readDirectory(in));
                out.writeByte(Frames.OK);
            }
            case Frames.DIRECTORIES -> {
                var readings = store.signatures().directories();
                out.writeByte(Frames.OK);
                SocketSignatures.writeDirectories(out, readings);
            }
            case Frames.KEEP_PENDING -> {
                store.signatures().keepPending(SocketSignatures.readSignatures(in));
                out.writeByte(Frames.OK);
            }
            case Frames.PENDING -> {
                var signatures = store.signatures().pending(in.readInt());
                out.writeByte(Frames.OK);
                SocketSignatures.writeSignatures(out, signatures);
            }
            case Frames.PENDING_COUNT -> {
                long count = store.signatures().pendingCount();
                out.writeByte(Frames.OK);
                out.writeLong(count);
            }
            case Frames.SETTLED -> {
                store.signatures().settled(Frames.readStrings(in));
                out.writeByte(Frames.OK);
            }
            default -> throw new IOException("'" + (char) kind + "' is no request of the store socket");
        }
    }

    /** Stops taking imports: the ones under way get an error, and what they appended is stored. */
    @Override
    public void close() {
        closed = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        waiters.forEach(Thread::interrupt);
        open.forEach(ImportConnection::close);
        directory.remove();
    }
}
