package dev.crawlerrors.store.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.crawler.SampleHits;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.Umask;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store socket with a real store and real connections: no import, stuck or idle or too large,
 * holds the later ones up, and nobody but the store's owner can reach the socket, whatever the umask.
 */
@Timeout(120)
class StoreSocketServerTest {

    /** The default bounds, with the waits short enough for a test. */
    private static final StoreSocketServer.Limits QUICK = new StoreSocketServer.Limits(16, 64, Duration.ofSeconds(1),
            Duration.ofSeconds(1), StoreSocketServer.Limits.DEFAULT.frameBytes());

    @TempDir
    Path dir;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
    }

    private DuckDbHitStore store(Path file) {
        DuckDbHitStore store = DuckDbHitStore.open(file);
        opened.add(store);
        return store;
    }

    private StoreSocketServer server(DuckDbHitStore store, Path file, StoreSocketServer.Limits limits) throws IOException {
        StoreSocketServer server = StoreSocketServer.start(store, file, limits);
        opened.add(server);
        return server;
    }

    private SocketChannel raw(StoreSocketServer server) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(server.path()));
        opened.add(channel);
        return channel;
    }

    private static ServedStore served(Path file, StoreSocketServer server) {
        return new ServedStore(file, ProcessHandle.current().pid(), server.path(), "http://127.0.0.1:1/crawl-errors");
    }


    @Test
    void sixteenImportsStuckMidRequestHoldTheNextOneUpOnlyForTheReadTimeout() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        DuckDbHitStore store = store(file);
        StoreSocketServer server = server(store, file, new StoreSocketServer.Limits(16, 64, Duration.ofSeconds(1), Duration.ofSeconds(600),
                QUICK.frameBytes()));
        for (int i = 0; i < 16; i++) {
            DataOutputStream stuck = new DataOutputStream(Channels.newOutputStream(raw(server)));
            stuck.writeByte(Frames.HELLO);
            stuck.writeByte(Frames.APPEND);
            stuck.writeShort(0); // half of the hit count, then nothing
            stuck.flush();
        }
        List<String> told = new CopyOnWriteArrayList<>();

        CompletableFuture<Long> imported = CompletableFuture.supplyAsync(() -> {
            try (StoreSocketClient client = StoreSocketClient.connect(served(file, server), told::add)) {
                client.append(SampleHits.googlebots(3));
                client.flush();
                return client.size();
            }
        });

        assertThat(imported.get(60, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(told).containsExactly("crawl-errors serve is taking 16 imports at once; this one waits for one of them to finish");
    }

    @Test
    void anImportIdleBetweenRequestsGivesItsPlaceToAWaitingOne() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        DuckDbHitStore store = store(file);
        StoreSocketServer server = server(store, file, new StoreSocketServer.Limits(1, 4, Duration.ofSeconds(30), Duration.ofSeconds(1),
                QUICK.frameBytes()));
        StoreSocketClient idle = StoreSocketClient.connect(served(file, server), message -> { });
        opened.add(idle);
        idle.append(SampleHits.googlebots(1));
        List<String> told = new CopyOnWriteArrayList<>();

        CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> {
            try (StoreSocketClient client = StoreSocketClient.connect(served(file, server), told::add)) {
                client.append(SampleHits.googlebots(2));
                client.flush();
                return client.size();
            }
        });

        assertThat(waiting.get(60, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(told).hasSize(1);
        assertThatThrownBy(() -> idle.append(SampleHits.googlebots(1))).isInstanceOf(StoreException.class)
                .hasMessageContaining("stopped taking this import's lines");
    }

    @Test
    void anImportThatNeverReadsItsAnswersIsClosedAfterTheReadTimeout() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        DuckDbHitStore store = store(file);
        StoreSocketServer server = server(store, file, new StoreSocketServer.Limits(1, 4, Duration.ofSeconds(1), Duration.ofSeconds(60),
                QUICK.frameBytes()));
        DataOutputStream deaf = new DataOutputStream(Channels.newOutputStream(raw(server)));
        CompletableFuture.runAsync(() -> {
            try {
                deaf.writeByte(Frames.HELLO);
                for (int i = 0; i < 1_000_000; i++) {
                    deaf.writeByte(Frames.SIZE); // answers pile up unread until the server's writes block
                }
                deaf.flush();
            } catch (IOException e) {
                // closed by the server: what this test waits for
            }
        });

        try (StoreSocketClient next = StoreSocketClient.connect(served(file, server), message -> { })) {
            assertThat(next.size()).isZero();
        }
    }

    @Test
    void anAppendOfSevenHundredOneMegabyteUrlsIsRefusedAtTheFramesBoundAndServeGoesOn() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        DuckDbHitStore store = store(file);
        StoreSocketServer server = server(store, file, StoreSocketServer.Limits.DEFAULT);
        SocketChannel hostile = raw(server);
        DataInputStream in = new DataInputStream(Channels.newInputStream(hostile));
        DataOutputStream out = new DataOutputStream(Channels.newOutputStream(hostile));
        byte[] url = new byte[1 << 20];
        java.util.Arrays.fill(url, (byte) 'a');
        url[0] = '/';
        AtomicLong sent = new AtomicLong();

        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
            try {
                out.writeByte(Frames.HELLO);
                out.writeByte(Frames.APPEND);
                out.writeInt(700);
                for (int i = 0; i < 700; i++) {
                    out.writeLong(1_747_200_000_000L);
                    out.writeInt(0);
                    Frames.writeString(out, "66.249.66.1");
                    Frames.writeString(out, "GET");
                    out.writeInt(url.length);
                    out.write(url);
                    out.writeInt(404);
                    out.writeLong(-1);
                    Frames.writeString(out, null);
                    Frames.writeString(out, "Googlebot");
                    out.writeDouble(Double.NaN);
                    Frames.writeString(out, null); // host
                    Frames.writeString(out, null); // location
                    Frames.writeString(out, "Googlebot Desktop");
                    Frames.writeString(out, "crawler_search");
                    Frames.writeString(out, "verified");
                    Frames.writeString(out, "in common-crawlers.json");
                    Frames.writeString(out, null); // the claim: its address's, not a signature's
                    sent.addAndGet(url.length);
                }
                out.flush();
            } catch (IOException e) {
                // the server closed its end: what this test waits for
            }
        });

        assertThat(in.readByte()).isEqualTo(Frames.OK); // the greeting
        assertThat(in.readByte()).isEqualTo(Frames.FAILED);
        assertThat(Frames.readString(in)).isEqualTo("a request of more than 32 MiB is more than an import sends at once: refused");
        writing.get(60, TimeUnit.SECONDS);
        assertThat(sent.get()).as("bytes sent before the server closed its end").isLessThan(64L << 20);
        try (StoreSocketClient next = StoreSocketClient.connect(served(file, server), message -> { })) {
            next.append(SampleHits.googlebots(1));
            next.flush();
            assertThat(next.size()).isEqualTo(1);
        }
    }

    @Test
    void theSocketIsInADirectoryOnlyTheOwnerMayEnterEvenUnderUmaskZero() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        DuckDbHitStore store = store(file);
        StoreSocketServer server;
        try (Umask careless = Umask.of(0)) {
            server = server(store, file, QUICK);
        }

        assertThat(server.path()).isEqualTo(dir.resolve("hits.duckdb.serve.d").resolve("import.sock"));
        assertThat(mode(server.path().getParent())).isEqualTo("rwx------");
        assertThat(mode(server.path())).isEqualTo("rw-------");
        server.close();
        assertThat(server.path().getParent()).doesNotExist();
    }

    @Test
    void aStoreOfALongPathListensInAFreshDirectoryOfTheTemporaryOneNotAtAPredictableName() throws Exception {
        Path deep = Files.createDirectories(dir.resolve("a".repeat(60)).resolve("b".repeat(40)));
        Path file = deep.resolve("hits.duckdb");
        DuckDbHitStore store = store(file);
        StoreSocketServer first = server(store, file, QUICK);
        Path firstPath = first.path();
        first.close();
        StoreSocketServer second = server(store, file, QUICK);

        assertThat(second.path().getParent().getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
        assertThat(second.path().getParent().getFileName().toString()).startsWith("crawl-errors-");
        assertThat(second.path()).isNotEqualTo(firstPath);
        assertThat(mode(second.path().getParent())).isEqualTo("rwx------");
        assertThat(firstPath.getParent()).doesNotExist();
    }

    @Test
    void aSocketDirectoryOfAnotherUserOrALinkIsRefusedAndOneOfOursLosesWhatItGained() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        DuckDbHitStore store = store(file);
        Path beside = dir.resolve("hits.duckdb.serve.d");
        Files.createDirectory(beside);
        Files.setPosixFilePermissions(beside, PosixFilePermissions.fromString("rwxrwxrwx"));
        server(store, file, QUICK).close();
        Files.createDirectory(beside);
        Files.setPosixFilePermissions(beside, PosixFilePermissions.fromString("rwxrwxrwx"));

        StoreSocketServer ours = server(store, file, QUICK);
        assertThat(mode(beside)).isEqualTo("rwx------");
        ours.close();

        Files.createSymbolicLink(beside, dir);
        assertThatThrownBy(() -> server(store, file, QUICK)).isInstanceOf(IOException.class)
                .hasMessageContaining("hits.duckdb.serve.d is in the way and is no directory: remove it");
        Files.delete(beside);
        if (System.getProperty("user.name").equals("root")) {
            Files.createDirectory(beside);
            Files.setOwner(beside, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            assertThatThrownBy(() -> server(store, file, QUICK)).isInstanceOf(IOException.class)
                    .hasMessageContaining("hits.duckdb.serve.d belongs to nobody, not to root who serves the store: remove it");
        }
    }

    @Test
    void theServeFileIsOwnerOnlyOrGroupReadableAsTheStoreIs() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        store(file);
        Path socket = dir.resolve("hits.duckdb.serve.d").resolve("import.sock");

        try (Umask careless = Umask.of(0)) {
            ServedStore.claim(file, socket, "http://127.0.0.1:1/crawl-errors");
            assertThat(mode(ServedStore.fileOf(file))).isEqualTo("rw-------");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
            ServedStore.claim(file, socket, "http://127.0.0.1:1/crawl-errors");
            assertThat(mode(ServedStore.fileOf(file))).isEqualTo("rw-r-----");
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
