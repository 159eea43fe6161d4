package dev.crawlerrors.store.clickhouse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ClickHouse servers of Debian's package for the tests, started by the project's own script
 * ({@code deploy/clickhouse/test-cluster.sh}) on free loopback ports: a two-shard cluster and a
 * plain server, each started once for the whole test run, when a test first asks for it, and
 * stopped when the JVM ends (or, should it be killed, by the script's watcher). Each test class
 * takes databases of its own ({@link #database}), so classes share the servers without sharing data.
 */
public final class ClickHouseTestCluster {

    private static final Path SCRIPT = Path.of("deploy/clickhouse/test-cluster.sh");
    private static final long START_SECONDS = 120;
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static ClickHouseTestCluster twoShards;
    private static ClickHouseTestCluster plain;

    private final Path dir;
    private final int basePort;
    private final int shards;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ClickHouseTestCluster(Path dir, int basePort, int shards) {
        this.dir = dir;
        this.basePort = basePort;
        this.shards = shards;
    }

    /** The two-shard cluster (cluster crawl_errors), started on first use. */
    public static synchronized ClickHouseTestCluster twoShards() {
        if (twoShards == null) {
            twoShards = start(2);
        }
        return twoShards;
    }

    /** One server with no cluster configured, started on first use. */
    public static synchronized ClickHouseTestCluster plainServer() {
        if (plain == null) {
            plain = start(1);
        }
        return plain;
    }

    /** One server of the caller's own, shared with no other test: for a test that stops it ({@link #stop}). */
    public static ClickHouseTestCluster ownServer() {
        return start(1);
    }

    private static ClickHouseTestCluster start(int shards) {
        if (!Files.isExecutable(Path.of("/usr/sbin/clickhouse-server"))) {
            throw new IllegalStateException("these tests run ClickHouse from Debian's package: apt-get install clickhouse-server "
                    + "(./run-tests installs it)");
        }
        try {
            Path target = Files.createDirectories(Path.of("target"));
            Path dir = Files.createTempDirectory(target.toAbsolutePath(), "clickhouse-");
            for (int attempt = 0; ; attempt++) {
                int base = freeBasePort(shards);
                ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), "start", dir.toString(), Integer.toString(base))
                        .redirectErrorStream(true).redirectOutput(dir.resolve("start.log").toFile());
                pb.environment().put("CH_WATCH_PID", Long.toString(ProcessHandle.current().pid()));
                pb.environment().put("CH_SHARDS", Integer.toString(shards));
                pb.environment().put("CH_MAX_MEMORY_USAGE", "1000000000");
                Process p = pb.start();
                if (!p.waitFor(START_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("the ClickHouse test cluster did not start within " + START_SECONDS + " s: "
                            + Files.readString(dir.resolve("start.log")));
                }
                if (p.exitValue() == 0) {
                    ClickHouseTestCluster cluster = new ClickHouseTestCluster(dir, base, shards);
                    Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "clickhouse-stop"));
                    return cluster;
                }
                if (attempt == 2) {
                    throw new IllegalStateException("the ClickHouse test cluster did not start: " + Files.readString(dir.resolve("start.log")));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A base port whose servers' ports (base + 10 * shard + 0..2) are free now on 127.0.0.1. */
    private static int freeBasePort(int shards) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = 20_000 + ThreadLocalRandom.current().nextInt(30_000);
            boolean free = true;
            for (int s = 0; s < shards && free; s++) {
                for (int k = 0; k < 3 && free; k++) {
                    try (ServerSocket socket = new ServerSocket(base + 10 * s + k, 1, InetAddress.getLoopbackAddress())) {
                        socket.setReuseAddress(true);
                    } catch (IOException e) {
                        free = false;
                    }
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IOException("no free ports found for ClickHouse");
    }

    /** Stops the servers and deletes their data; the JVM's end does it too. */
    public void stop() {
        try {
            ProcessBuilder stopping = new ProcessBuilder("bash", SCRIPT.toString(), "stop", dir.toString(), "--purge").inheritIO();
            // its data goes with it: a server slow to stop is killed after 5 s, not the script's 30 (at a test JVM's
            // end, a stop that took 30 s had the build kill the JVM, and wait 30 s for it)
            stopping.environment().put("CH_STOP_TIMEOUT", "5");
            stopping.start().waitFor(60, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            // the watcher stops it when this JVM is gone
        }
    }

    /**
     * Stops shard {@code shard}'s server where it is (SIGSTOP), as a hung server or a network that
     * drops packets looks: the kernel still accepts its connections, and nothing answers them.
     * {@link #resume} lets it go on; call it before {@link #stop}.
     */
    public void pause(int shard) {
        signal(shard, "STOP");
    }

    /** Lets a {@linkplain #pause paused} server go on (SIGCONT). */
    public void resume(int shard) {
        signal(shard, "CONT");
    }

    private void signal(int shard, String signal) {
        try {
            String pid = Files.readString(dir.resolve("shard" + shard).resolve("server.pid")).strip();
            Process kill = new ProcessBuilder("kill", "-" + signal, pid).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A database name no other test uses. */
    public static String database(String prefix) {
        return prefix + "_" + DATABASES.incrementAndGet() + "_" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
    }

    /** The {@code --db} URL of {@code database} on this cluster (its first server). */
    public String url(String database) {
        return "clickhouse://127.0.0.1:" + basePort + "/" + database;
    }

    public ClickHouseLocation location(String database) {
        return ClickHouseLocation.parse(url(database), null, null);
    }

    /** The HTTP interface of shard {@code shard} (from 1). */
    public URI shard(int shard) {
        return URI.create("http://127.0.0.1:" + (basePort + 10 * (shard - 1)));
    }

    public int shards() {
        return shards;
    }

    /** Runs {@code sql} on shard {@code shard} and returns its TabSeparated answer, trimmed. */
    public String query(int shard, String sql) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(shard(shard)).timeout(Duration.ofSeconds(60))
                    .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() != 200) {
                throw new IllegalStateException("ClickHouse answered " + response.statusCode() + " to " + sql + ": " + response.body());
            }
            return response.body().strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A number {@code sql} answers on shard {@code shard}. */
    public long number(int shard, String sql) {
        return Long.parseLong(query(shard, sql));
    }

    /** The numbers of every shard, in order. */
    public List<Long> perShard(String sql) {
        return java.util.stream.IntStream.rangeClosed(1, shards).mapToObj(s -> number(s, sql)).toList();
    }
}
