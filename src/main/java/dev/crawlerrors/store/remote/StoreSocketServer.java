package dev.crawlerrors.store.remote;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.text.Failures;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket through which {@code crawl-errors import} writes to a store that {@code serve} has
 * open (DuckDB lets one process open a file for writing): the import reads and parses its logs
 * itself and hands over what it would have appended, with the position in its log, so the store
 * keeps both in one transaction as a local import would. A Unix domain socket beside the store,
 * readable by its owner only: whoever may write the store may write through it.
 */
public final class StoreSocketServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StoreSocketServer.class);
    /** Imports handed over at once at most; one more waits for a place. */
    private static final int MAX_CONNECTIONS = 16;

    private final HitStore store;
    private final Path path;
    private final ServerSocketChannel channel;
    private final Semaphore places = new Semaphore(MAX_CONNECTIONS);
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private StoreSocketServer(HitStore store, Path path, ServerSocketChannel channel) {
        this.store = store;
        this.path = path;
        this.channel = channel;
    }

    /** Listens at {@code path} (a stale socket file left by a killed serve is replaced) for imports into {@code store}. */
    public static StoreSocketServer start(HitStore store, Path path) throws IOException {
        Files.deleteIfExists(path);
        ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.bind(UnixDomainSocketAddress.of(path));
            try {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: its own permissions apply
            }
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        StoreSocketServer server = new StoreSocketServer(store, path, channel);
        Thread.ofPlatform().daemon().name("store-socket").start(server::accept);
        return server;
    }

    public Path path() {
        return path;
    }

    private void accept() {
        while (!closed) {
            try {
                places.acquire();
                SocketChannel connection = channel.accept();
                open.add(connection);
                Thread.ofVirtual().name("store-socket-import").start(() -> {
                    try {
                        serve(connection);
                    } finally {
                        open.remove(connection);
                        places.release();
                    }
                });
            } catch (IOException | InterruptedException e) {
                places.release();
                if (!closed) {
                    LOG.warn("the store socket {} stopped accepting imports: {}", path, Failures.message(e));
                }
                return;
            }
        }
    }

    private void serve(SocketChannel connection) {
        try (connection;
             DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(connection), 1 << 16));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(connection), 1 << 16))) {
            while (true) {
                int kind = in.read();
                if (kind < 0 || kind == Frames.QUIT) {
                    return;
                }
                try {
                    answer((byte) kind, in, out);
                } catch (PositionMovedException e) {
                    // another writer got there first: the import reads on from where the store has the log
                    Frames.writeMoved(out, e);
                } catch (RuntimeException e) {
                    // what the store refused (a full disk, a damaged file) is the import's failure to tell
                    out.writeByte(Frames.FAILED);
                    Frames.writeString(out, Failures.message(e));
                }
                out.flush();
            }
        } catch (EOFException e) {
            // the import went away between requests or within one: what it appended is the store's as usual
        } catch (IOException e) {
            if (!closed) {
                LOG.info("an import writing through the store socket went away: {}", Failures.message(e));
            }
        }
    }

    private void answer(byte kind, DataInputStream in, DataOutputStream out) throws IOException {
        switch (kind) {
            case Frames.APPEND -> {
                var hits = Frames.readHits(in);
                SourceProgress from = Frames.readProgress(in);
                SourceProgress through = Frames.readProgress(in);
                if (through == null) {
                    store.append(hits);
                } else if (from == null) {
                    throw new IOException("an append of a log's lines without the position they start from");
                } else {
                    store.append(hits, from, through);
                }
                out.writeByte(Frames.OK);
            }
            case Frames.IMPORTED -> {
                List<SourceProgress> imported = store.imported(Frames.readStrings(in));
                out.writeByte(Frames.OK);
                Frames.writeProgresses(out, imported);
            }
            case Frames.IMPORTED_FILES -> {
                List<SourceProgress> imported = store.importedFiles(Frames.readStrings(in));
                out.writeByte(Frames.OK);
                Frames.writeProgresses(out, imported);
            }
            case Frames.VERDICT -> {
                String ip = Frames.readString(in);
                String crawler = Frames.readString(in);
                store.updateVerdict(ip, crawler, Frames.readVerdict(in));
                out.writeByte(Frames.OK);
            }
            case Frames.VERDICTS -> {
                List<StoredVerdict> verdicts = store.verdicts(Frames.known(Verification.class, Frames.readString(in)));
                out.writeByte(Frames.OK);
                out.writeInt(verdicts.size());
                for (StoredVerdict verdict : verdicts) {
                    Frames.writeString(out, verdict.ip());
                    Frames.writeString(out, verdict.crawler());
                    Frames.writeVerdict(out, verdict.verdict());
                }
            }
            case Frames.FLUSH -> {
                store.flush();
                out.writeByte(Frames.OK);
            }
            case Frames.SIZE -> {
                long size = store.size();
                out.writeByte(Frames.OK);
                out.writeLong(size);
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
        for (SocketChannel connection : open) {
            try {
                connection.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // a stale socket file is replaced by the next serve
        }
    }
}
