package dev.crawlerrors.pipeline;

import static dev.crawlerrors.ingest.SampleLogs.line;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.ingest.push.SyslogAddress;
import dev.crawlerrors.ingest.push.SyslogListener;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syslog listener under abuse, on real loopback sockets with the real store: many idle TCP
 * connections (3,000 had made 2,980 platform threads and 810 MB, with no cap and no timeout), and
 * UDP bursts larger than the socket's receive buffer (7.2% of 100,000 datagrams was lost in the
 * kernel, and nothing said so).
 */
class SyslogAbuseTest {

    @TempDir
    Path dir;

    private PushedStore stored;
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        stored = new PushedStore(dir);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : closing.reversed()) {
            c.close();
        }
        stored.close();
    }

    private static void await(String what, BooleanSupplier condition) {
        Waits.await(what).until(condition::getAsBoolean);
    }

    private static String nginx(int i) {
        return "<190>Nov 22 01:02:03 web1 nginx: " + line(i).strip();
    }

    @Test
    void idleTcpConnectionsHoldNoPlatformThreadAreCappedAndClosedWhenIdleTooLong() throws Exception {
        // every connection counts as busy for an hour: none is closed to let another in, so the ones past the cap are refused
        SyslogListener.Options options = new SyslogListener.Options(50, Duration.ofSeconds(5), 1 << 20, Duration.ofSeconds(5),
                Duration.ofHours(1));
        SyslogListener listener = SyslogListener.start(SyslogAddress.parse("tcp://127.0.0.1:0"), options,
                NamedFormats.liveChooser("auto", notice -> { }), stored.pushed, notices::add);
        closing.add(listener);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", listener.address().port());
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();

        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                Socket socket = new Socket();
                socket.connect(address, 5_000);
                idle.add(socket);
            }
            await("50 open and 150 refused", () -> listener.openConnections() == 50 && listener.totals().refusedConnections() == 150);
            int threadsWhileOpen = ManagementFactory.getThreadMXBean().getThreadCount();

            // a platform thread a connection made 200 more; virtual threads run on a carrier a core
            assertThat(threadsWhileOpen - threadsBefore).as("platform threads started for 200 connections").isLessThan(20);
            assertThat(notices.get(0)).matches(Pattern.quote(listener.address() + ": refused a connection from 127.0.0.1:")
                    + "\\d+: 50 connections are open, as many as --syslog-max-connections allows, each sending");
            assertThat(notices).filteredOn(n -> n.contains("refused a connection")).hasSize(20);

            await("the 50 idle ones closed", () -> listener.openConnections() == 0);
            assertThat(listener.totals().idleConnectionsClosed()).isEqualTo(50);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }

        // room again: a sender with lines is read as ever
        try (Socket sender = new Socket("127.0.0.1", listener.address().port())) {
            OutputStream out = sender.getOutputStream();
            out.write((nginx(1) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            await("the sender's line stored", () -> stored.storedUrls().size() == 1);
        }
        assertThat(stored.storedUrls()).containsExactly("/page/1");
    }

    @Test
    void aSenderPastTheCapTakesThePlaceOfTheConnectionIdleLongest() throws Exception {
        // busy means sent within no time at all: every idle connection may give its place up
        SyslogListener.Options options = new SyslogListener.Options(50, Duration.ofMinutes(15), 1 << 20, Duration.ofSeconds(5), Duration.ZERO);
        SyslogListener listener = SyslogListener.start(SyslogAddress.parse("tcp://127.0.0.1:0"), options,
                NamedFormats.liveChooser("auto", notice -> { }), stored.pushed, notices::add);
        closing.add(listener);
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress("127.0.0.1", listener.address().port()), 5_000);
                socket.setSoTimeout(20_000);
                idle.add(socket);
                int open = i + 1;
                await(open + " open", () -> listener.openConnections() == open);
            }

            try (Socket sender = new Socket("127.0.0.1", listener.address().port())) {
                OutputStream out = sender.getOutputStream();
                out.write((nginx(1) + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                await("the new sender's line stored", () -> stored.storedUrls().size() == 1);
            }

            assertThat(idle.get(0).getInputStream().read()).as("the connection idle longest was closed").isEqualTo(-1);
            assertThat(listener.totals().refusedConnections()).isZero();
            assertThat(listener.totals().idleConnectionsClosed()).isEqualTo(1);
            assertThat(notices.get(0)).matches(Pattern.quote(listener.address() + ": closed the connection from 127.0.0.1:")
                    + "\\d+, idle \\d+ s, to let one from 127.0.0.1:\\d+ in: 50 connections are open, as many as "
                    + "--syslog-max-connections allows");
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void countsTheDatagramsTheKernelDroppedSaysSoAndServesTheCountAtMetrics() throws Exception {
        // the smallest receive buffer the kernel grants: a few datagrams, so a burst overflows it
        SyslogListener.Options options = new SyslogListener.Options(1_000, Duration.ofMinutes(15), 1, Duration.ofMillis(100));
        SyslogSource source = new SyslogSource(SyslogAddress.parse("udp://127.0.0.1:0"), options,
                NamedFormats.liveChooser("auto", notice -> { }), stored.pushed, notices::add);
        source.start();
        closing.add(source);
        ReportServer metrics = ReportServer.start(new CrawlErrorReport(stored.store.reader(), ReportConfig.in(ZoneId.of("UTC"))), stored.store.health(), ServerConfig.on("127.0.0.1", 0).withMeters(List.of(source)));
        closing.add(metrics);
        InetSocketAddress to = new InetSocketAddress("127.0.0.1", source.address().port());
        byte[] datagram = (nginx(1) + " " + "x".repeat(600)).getBytes(StandardCharsets.UTF_8);

        long sent = 0;
        try (DatagramChannel sender = DatagramChannel.open()) {
            for (int burst = 0; burst < 20 && source.totals().droppedDatagrams() == 0; burst++) {
                for (int i = 0; i < 2_000; i++) {
                    sender.send(ByteBuffer.wrap(datagram), to);
                    sent++;
                }
                long expected = sent;
                // on loopback a datagram is either read or dropped for want of room, and the kernel counts the latter
                await("every datagram read or counted dropped", () -> {
                    SyslogListener.Totals totals = source.totals();
                    return totals.frames() + totals.droppedDatagrams() == expected;
                });
            }
        }
        SyslogListener.Totals totals = source.totals();
        assertThat(totals.droppedDatagrams()).as("datagrams dropped of " + sent).isPositive();
        assertThat(totals.frames() + totals.droppedDatagrams()).isEqualTo(sent);
        await("the drops said", () -> notices.stream().anyMatch(n -> n.contains("the kernel dropped")));
        assertThat(notices).anyMatch(n -> n.matches(Pattern.quote("syslog: " + source.address() + ": the kernel dropped ")
                + "[\\d,]+ datagrams \\([\\d,]+ in all\\): they came faster than they were stored, and the receive buffer \\(.+ granted\\) "
                + "was full; raise --syslog-receive-buffer, and the kernel's net.core.rmem_max that caps it"));
        assertThat(notices.get(0)).startsWith("Listening for syslog on " + source.address() + " (receive buffer ");

        HttpResponse<String> scraped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + metrics.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        Matcher dropped = Pattern.compile("crawl_errors_syslog_datagrams_dropped_total\\{listener=\"" + Pattern.quote(source.address().toString())
                + "\"} (\\d+)\\.0").matcher(scraped.body());
        assertThat(dropped.find()).as(scraped.body()).isTrue();
        assertThat(Long.parseLong(dropped.group(1))).isEqualTo(totals.droppedDatagrams());
        assertThat(scraped.body()).contains("crawl_errors_syslog_frames_total{listener=\"" + source.address() + "\"} " + totals.frames() + ".0");

        closing.remove(source);
        source.close();
        assertThat(notices.getLast()).endsWith(String.format(Locale.ROOT, " crawler hits stored; %,d datagrams dropped by the kernel",
                totals.droppedDatagrams()));
    }
}
