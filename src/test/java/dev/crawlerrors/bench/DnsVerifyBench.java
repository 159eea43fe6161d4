package dev.crawlerrors.bench;

import dev.crawlerrors.crawler.dns.DnsEvidence;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.LocalDnsServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.ReverseMap;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * Throughput of cold DNS verification against {@link LocalDnsServer} answering 1 ms late. Each round
 * prints three lines over a fresh set of addresses, each with the CPU its threads used (% of one
 * core): the verifier; the same PTR and A queries sent raw through dnsjava's {@code sendAsync} with
 * the same bound and dnsjava's default I/O client, a socket per query (the verifier's ceiling before
 * it had {@code PooledUdpClient}); and the same queries over one long-lived socket without dnsjava's
 * I/O client (the ceiling of the server fixture and message handling). Not a test: timings depend on the machine. Every name lives only in the local fake
 * server; no packet leaves loopback.
 *
 * <p>Run from the project directory:
 *
 * <pre>
 * export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
 * mvn -q dependency:build-classpath -Dmdep.outputFile=cp.txt
 * mvn -q test-compile &amp;&amp; $JAVA_HOME/bin/java -cp target/test-classes:target/classes:$(cat cp.txt) \
 *     dev.crawlerrors.bench.DnsVerifyBench [addresses=100000] [maxInFlight=256] [rounds=3]
 * </pre>
 */
public final class DnsVerifyBench {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final List<String> GOOGLE = List.of("googlebot.com", "google.com", "googleusercontent.com");

    public static void main(String[] args) throws Exception {
        int addresses = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int maxInFlight = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (LocalDnsServer server = new LocalDnsServer()) {
            server.delay(Duration.ofMillis(1));
            // Each round (and the warm-up) gets its own first octet, so every round is cold at the server too.
            List<List<String>> sets = new ArrayList<>();
            for (int round = 0; round <= rounds; round++) {
                sets.add(addresses(server, 10 + round, round == 0 ? Math.min(addresses, 20_000) : addresses));
            }
            System.out.printf("%,d addresses per round, PTR+A each, server delay 1 ms, maxInFlight %d, %d cores%n",
                    addresses, maxInFlight, Runtime.getRuntime().availableProcessors());
            verify(server, sets.get(0), maxInFlight, "warm-up");
            raw(server, sets.get(0), maxInFlight, "warm-up");
            oneSocket(server, sets.get(0), maxInFlight, "warm-up");
            for (int round = 1; round <= rounds; round++) {
                verify(server, sets.get(round), maxInFlight, "round " + round);
                raw(server, sets.get(round), maxInFlight, "round " + round);
                oneSocket(server, sets.get(round), maxInFlight, "round " + round);
            }
        }
    }

    /** Records PTR and A for {@code count} addresses {@code first.x.y.z}. */
    private static List<String> addresses(LocalDnsServer server, int first, int count) {
        List<String> ips = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String ip = first + "." + ((i >> 16) & 255) + "." + ((i >> 8) & 255) + "." + (i & 255);
            String name = "crawl-" + ip.replace('.', '-') + ".googlebot.com";
            server.ptr(ip, name, 3600).a(name, ip, 3600);
            ips.add(ip);
        }
        return ips;
    }

    private static void verify(LocalDnsServer server, List<String> ips, int maxInFlight, String label) throws Exception {
        long queriesBefore = server.totalQueries();
        Map<Long, ThreadCpu> cpuBefore = cpuByThread();
        try (DnsVerifier verifier = new DnsVerifier(server.address(), Duration.ofSeconds(5), maxInFlight,
                2 * ips.size(), ips.size())) {
            long started = System.nanoTime();
            List<CompletableFuture<DnsEvidence>> checks = new ArrayList<>(ips.size());
            for (String ip : ips) {
                checks.add(verifier.check(ip, GOOGLE));
            }
            CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new)).join();
            double seconds = (System.nanoTime() - started) / 1e9;
            Map<DnsEvidence.Outcome, Integer> outcomes = new EnumMap<>(DnsEvidence.Outcome.class);
            String example = "";
            for (CompletableFuture<DnsEvidence> check : checks) {
                DnsEvidence evidence = check.join();
                outcomes.merge(evidence.outcome(), 1, Integer::sum);
                if (evidence.outcome() != DnsEvidence.Outcome.CONFIRMED && example.isEmpty()) {
                    example = "; e.g. " + evidence.reason();
                }
            }
            System.out.printf("%-8s verifier: %,7d checks in %6.3f s = %,8.0f verifications/s (%,d queries, %,.0f queries/s) %s%n",
                    label, ips.size(), seconds, ips.size() / seconds, verifier.queriesSent(),
                    (server.totalQueries() - queriesBefore) / seconds, outcomes + example);
            printCpu(cpuBefore, seconds);
        }
    }

    /** The same PTR and A queries, sent through dnsjava alone with the same bound. */
    private static void raw(LocalDnsServer server, List<String> ips, int maxInFlight, String label) throws Exception {
        SimpleResolver resolver = new SimpleResolver(DnsVerifier.serverAddress(server.address()));
        resolver.setTimeout(Duration.ofSeconds(5));
        ExecutorService parsers = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "raw-dns");
            thread.setDaemon(true);
            return thread;
        });
        Semaphore permits = new Semaphore(maxInFlight);
        AtomicLong failures = new AtomicLong();
        int queries = 2 * ips.size();
        Map<Long, ThreadCpu> cpuBefore = cpuByThread();
        long started = System.nanoTime();
        for (String ip : ips) {
            Name name = Name.fromString("crawl-" + ip.replace('.', '-') + ".googlebot.com.");
            for (Record question : List.of(Record.newRecord(ReverseMap.fromAddress(ip), Type.PTR, DClass.IN),
                    Record.newRecord(name, Type.A, DClass.IN))) {
                permits.acquire();
                resolver.sendAsync(Message.newQuery(question), parsers).whenComplete((response, error) -> {
                    if (error != null && failures.incrementAndGet() == 1) {
                        System.out.println("raw query failed: " + error);
                    }
                    permits.release();
                });
            }
        }
        permits.acquire(maxInFlight);
        double seconds = (System.nanoTime() - started) / 1e9;
        parsers.shutdown();
        System.out.printf("%-8s raw:      %,7d queries in %6.3f s = %,8.0f queries/s (= %,.0f PTR+A pairs/s), %d failed%n",
                label, queries, seconds, queries / seconds, queries / 2 / seconds, failures.get());
        printCpu(cpuBefore, seconds);
    }

    /**
     * The same queries over one long-lived socket, built and parsed with dnsjava's Message but sent
     * without its I/O client, which opens, binds, connects and closes a socket per query. Shows what
     * the server fixture and message handling can do on this machine.
     */
    private static void oneSocket(LocalDnsServer server, List<String> ips, int maxInFlight, String label) throws Exception {
        Semaphore permits = new Semaphore(maxInFlight);
        AtomicLong answered = new AtomicLong();
        int queries = 2 * ips.size();
        Map<Long, ThreadCpu> cpuBefore = cpuByThread();
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            channel.connect(DnsVerifier.serverAddress(server.address()));
            Thread receiver = new Thread(() -> {
                ByteBuffer in = ByteBuffer.allocate(1_500);
                try {
                    while (answered.get() < queries) {
                        in.clear();
                        channel.read(in);
                        new Message(Arrays.copyOf(in.array(), in.position()));
                        answered.incrementAndGet();
                        permits.release();
                    }
                } catch (IOException e) {
                    if (answered.get() < queries && channel.isOpen()) {
                        System.out.println("one-socket receive failed: " + e);
                    }
                }
            }, "one-socket-receive");
            receiver.setDaemon(true);
            receiver.start();
            long started = System.nanoTime();
            int id = 0;
            for (String ip : ips) {
                Name name = Name.fromString("crawl-" + ip.replace('.', '-') + ".googlebot.com.");
                for (Record question : List.of(Record.newRecord(ReverseMap.fromAddress(ip), Type.PTR, DClass.IN),
                        Record.newRecord(name, Type.A, DClass.IN))) {
                    // A lost answer must not stall the run: after a second, count it lost and go on.
                    permits.tryAcquire(1, TimeUnit.SECONDS);
                    Message query = Message.newQuery(question);
                    query.getHeader().setID(id++ & 0xFFFF);
                    channel.write(ByteBuffer.wrap(query.toWire()));
                }
            }
            receiver.join(5_000);
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("%-8s 1 socket: %,7d queries in %6.3f s = %,8.0f queries/s (= %,.0f PTR+A pairs/s), %d unanswered%n",
                    label, queries, seconds, queries / seconds, queries / 2 / seconds, queries - answered.get());
            printCpu(cpuBefore, seconds);
        }
    }

    /** CPU time (user and system) per live thread, by id, so a slow run shows which side is busy. */
    private static Map<Long, ThreadCpu> cpuByThread() {
        Map<Long, ThreadCpu> cpu = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null) {
                cpu.put(info.getThreadId(), new ThreadCpu(info.getThreadName(), THREADS.getThreadCpuTime(info.getThreadId())));
            }
        }
        return cpu;
    }

    /** Prints CPU used since {@code before} per thread group (the name without its number), as % of one core. */
    private static void printCpu(Map<Long, ThreadCpu> before, double seconds) {
        Map<String, Long> byGroup = new TreeMap<>();
        cpuByThread().forEach((id, now) -> {
            ThreadCpu then = before.get(id);
            long used = now.nanos - (then == null ? 0 : then.nanos);
            byGroup.merge(group(now.name), used, Long::sum);
        });
        StringBuilder line = new StringBuilder("           CPU:");
        byGroup.forEach((group, nanos) -> {
            double percent = 100 * nanos / (seconds * 1e9);
            if (percent >= 1) {
                line.append(String.format(" %s %.0f%%", group, percent));
            }
        });
        System.out.println(line);
    }

    private static String group(String thread) {
        int end = thread.length();
        while (end > 0 && (Character.isDigit(thread.charAt(end - 1)) || thread.charAt(end - 1) == '-')) {
            end--;
        }
        return thread.substring(0, end);
    }

    private record ThreadCpu(String name, long nanos) {
    }
}
