package dev.crawlerrors.bench;

import com.sun.management.OperatingSystemMXBean;
import com.sun.net.httpserver.HttpServer;
import dev.crawlerrors.sitemap.SitemapLimits;
import dev.crawlerrors.sitemap.SitemapRead;
import dev.crawlerrors.sitemap.SitemapReader;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.SitemapWrite;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;

/**
 * The sitemap read of issue 32 on its own: {@link SitemapBenchSet}'s index of FILES children
 * (URLS URLs in all) served over HTTP on loopback from this process, read ROUNDS times through the
 * real {@link SitemapReader} into the store at STORE ({@code none}: into a sink that keeps nothing,
 * the parse alone). Prints, per read, wall and CPU seconds (the process's, and the reading thread's:
 * what other threads do beside it, such as the store's appending, overlaps with it), and the heap retained after it and the
 * process's resident memory (now and its peak) in MiB.
 *
 * <pre>
 * java -Xmx512m -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.SitemapReadBench URLS FILES DIR STORE|none [ROUNDS]
 * </pre>
 *
 * <p>The files are served on an ephemeral port, or on {@code -Dbench.port=PORT}.
 */
public final class SitemapReadBench {

    private SitemapReadBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4 || args.length > 5) {
            System.err.println("usage: SitemapReadBench URLS FILES DIR STORE|none [ROUNDS]");
            System.exit(2);
        }
        Path dir = Path.of(args[2]);
        int rounds = args.length == 5 ? Integer.parseInt(args[4]) : 3;
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.getInteger("bench.port", 0)), 0);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/", exchange -> {
            Path file = dir.resolve(exchange.getRequestURI().getPath().substring(1));
            try (exchange; OutputStream out = exchange.getResponseBody()) {
                if (!Files.isRegularFile(file)) {
                    exchange.sendResponseHeaders(404, -1);
                    return;
                }
                exchange.sendResponseHeaders(200, Files.size(file));
                Files.copy(file, out);
            }
        });
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
        if (!Files.exists(dir.resolve("sitemap-00.xml")) || !(args[0] + " " + args[1]).equals(readSize(dir))) {
            SitemapBenchSet.main(new String[] {args[0], args[1], dir.toString(), base});
            Files.writeString(dir.resolve("size"), args[0] + " " + args[1]);
        }
        String index = Files.readString(dir.resolve("sitemap-index.xml")).replaceAll("http://127\\.0\\.0\\.1:\\d+/", base);
        Files.writeString(dir.resolve("index-now.xml"), index);
        DuckDbHitStore store = args[3].equals("none") ? null : DuckDbHitStore.open(Path.of(args[3]));
        try {
            SitemapReader reader = new SitemapReader(SitemapLimits.DEFAULT);
            System.out.printf("before: heap %.1f MiB, RSS %.1f MiB%n", heapMiB(), status("VmRSS"));
            for (int round = 1; round <= rounds; round++) {
                double heapBefore = heapMiB();
                long cpu = cpuNanos();
                long mainCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                long start = System.nanoTime();
                SitemapRead read;
                if (store == null) {
                    int[] kept = new int[1];
                    read = reader.read(dir.resolve("index-now.xml").toString(), url -> ++kept[0] > 0);
                } else {
                    SitemapStore sitemaps = store.sitemaps();
                    String name = dir.resolve("index-now.xml").toString(); // as SitemapReads names a read: the path given
                    try (SitemapWrite write = sitemaps.replacing(name)) {
                        read = reader.read(name, write);
                        long committing = System.nanoTime();
                        write.commit(read.readAt());
                        System.out.printf("  commit: %.2f s%n", (System.nanoTime() - committing) / 1e9);
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                double cpuSeconds = (cpuNanos() - cpu) / 1e9;
                double mainSeconds = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - mainCpu) / 1e9;
                System.out.printf("read %d: %,d URLs from %d files in %.2f s (CPU %.2f s, of which the reading thread %.2f s); heap retained %.1f MiB (before %.1f);"
                        + " RSS %.1f MiB, peak %.1f MiB%s%n", round, read.urls(), read.files(), seconds, cpuSeconds, mainSeconds, heapMiB(), heapBefore,
                        status("VmRSS"), status("VmHWM"), read.warnings().isEmpty() ? "" : "; " + read.warnings());
            }
        } finally {
            if (store != null) {
                store.close();
            }
            server.stop(0);
        }
        System.exit(0); // the server's threads are no daemons
    }

    private static String readSize(Path dir) throws IOException {
        Path size = dir.resolve("size");
        return Files.exists(size) ? Files.readString(size).strip() : "";
    }

    private static long cpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The heap in use after a full collection. */
    private static double heapMiB() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) / 1048576.0;
    }

    /** A field of /proc/self/status in MiB (0 where there is none). */
    private static double status(String field) throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        return 0;
    }
}
