package dev.crawlerrors.ingest.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.Waits;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.format.NamedFormats;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The syslog listener on real loopback sockets, its batches handed to a sink that keeps their
 * lines: frames over UDP and TCP stripped of their headers, malformed frames counted and said with
 * their sender while the good ones around them go on, a sink that fails said without stopping the
 * listener, and closing that hands on what was received before it returns. What a store then does
 * with the lines is {@code pipeline.SyslogIngestTest}'s.
 */
class SyslogListenerTest {

    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger batches = new AtomicInteger();
    private SyslogListener listener;

    /** Keeps each line of a batch, and says every line parsed. */
    private final LineBatchSink keeping = (in, source, formats) -> {
        batches.incrementAndGet();
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        ParseCounts counts = new ParseCounts();
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                lines.add(line);
                counts.countParsed(true);
            }
        }
        return new PushedBatch(counts, "combined", counts.linesRead());
    };

    @AfterEach
    void close() {
        if (listener != null) {
            listener.close();
        }
    }

    private void listen(String address, LineBatchSink sink) throws IOException {
        listener = SyslogListener.start(SyslogAddress.parse(address), NamedFormats.liveChooser("auto", notice -> { }), sink, notices::add);
    }

    private void sendUdp(String... frames) throws IOException {
        try (DatagramSocket socket = new DatagramSocket()) {
            for (String frame : frames) {
                byte[] bytes = frame.getBytes(StandardCharsets.UTF_8);
                socket.send(new DatagramPacket(bytes, bytes.length, new InetSocketAddress("127.0.0.1", listener.address().port())));
            }
        }
    }

    private void sendTcp(String... writes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", listener.address().port())) {
            OutputStream out = socket.getOutputStream();
            for (String write : writes) {
                out.write(write.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        }
    }

    @Test
    void handsOnUdpFramesWithoutTheirRfc3164Or5424Headers() throws IOException {
        listen("udp://127.0.0.1:0", keeping);
        assertThat(listener.address().port()).as("the port bound").isPositive();

        sendUdp("<190>Nov 22 01:02:03 web1 nginx: first line", "<190>1 2025-11-22T01:02:03Z web1 nginx - - - second line");

        Waits.await("two lines").until(() -> lines.size() == 2);
        assertThat(lines).containsExactlyInAnyOrder("first line", "second line");
        assertThat(listener.totals().frames()).isEqualTo(2);
    }

    @Test
    void readsOctetCountedFramesAcrossWritesAndNewlineFramedOnesOverTcp() throws IOException {
        listen("tcp://127.0.0.1:0", keeping);
        String frame = "<190>Nov 22 01:02:03 web1 nginx: counted";

        sendTcp(frame.length() + " " + frame.substring(0, 10), frame.substring(10));
        sendTcp("<190>Nov 22 01:02:03 web1 nginx: one\n<190>Nov 22 01:02:03 web1 nginx: two\n");

        Waits.await("three lines").until(() -> lines.size() == 3);
        assertThat(lines).containsExactlyInAnyOrder("counted", "one", "two");
    }

    @Test
    void countsAndSaysAMalformedFrameWithItsSenderAndKeepsTheGoodOnesAroundIt() throws IOException {
        listen("udp://127.0.0.1:0", keeping);

        sendUdp("<190>Nov 22 01:02:03 web1 nginx: before", "hello", "<190>Nov 22 01:02:03 web1 nginx: after");

        Waits.await("the good frames").until(() -> lines.size() == 2);
        assertThat(lines).containsExactlyInAnyOrder("before", "after");
        assertThat(listener.totals().malformedFrames()).isEqualTo(1);
        assertThat(notices).anySatisfy(n -> assertThat(n).startsWith("udp://127.0.0.1:" + listener.address().port() + ": dropped a frame from 127.0.0.1"));
    }

    @Test
    void saysWhatASinkCouldNotStoreAndGoesOnListening() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        listen("udp://127.0.0.1:0", (in, source, formats) -> {
            if (calls.incrementAndGet() == 1) {
                throw new IOException("the disk is full");
            }
            return keeping.accept(in, source, formats);
        });

        sendUdp("<190>Nov 22 01:02:03 web1 nginx: lost");
        Waits.await("the failure said").until(() -> notices.stream().anyMatch(n -> n.contains("could not be stored (the disk is full)")));
        sendUdp("<190>Nov 22 01:02:03 web1 nginx: kept");

        Waits.await("the next line").until(() -> lines.contains("kept"));
        assertThat(notices).anySatisfy(n -> assertThat(n).endsWith(": 1 lines could not be stored (the disk is full)"));
    }

    @Test
    void handsOnWhatWasReceivedBeforeCloseReturnsAndSaysItsTotals() throws IOException {
        listen("tcp://127.0.0.1:0", keeping);
        try (Socket socket = new Socket("127.0.0.1", listener.address().port())) {
            socket.getOutputStream().write("<190>Nov 22 01:02:03 web1 nginx: last words\n".getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            Waits.await("the frame received").until(() -> listener.totals().frames() == 1);
        }

        listener.close();

        assertThat(lines).containsExactly("last words");
        assertThat(listener.totals().parsed()).isEqualTo(1);
        assertThat(notices).last().asString().startsWith(listener.address() + ": closed after 1 frames (0 malformed): 1 lines, 1 parsed");
        listener = null;
    }

    @Test
    void refusesAPortAnotherSocketHolds() throws IOException {
        listen("tcp://127.0.0.1:0", keeping);
        int taken = listener.address().port();

        assertThatThrownBy(() -> SyslogListener.start(SyslogAddress.parse("tcp://127.0.0.1:" + taken),
                NamedFormats.liveChooser("auto", n -> { }), keeping, notices::add)).isInstanceOf(IOException.class);
    }

    @Test
    void refusesLimitsThatCannotBound() {
        assertThatThrownBy(() -> new SyslogListener.Options(0, Duration.ofMinutes(1), 1024, Duration.ofSeconds(1)))
                .hasMessage("at least one connection must be allowed, not 0");
        assertThatThrownBy(() -> new SyslogListener.Options(10, Duration.ZERO, 1024, Duration.ofSeconds(1)))
                .hasMessage("timeouts, intervals and buffer sizes must be positive");
    }

    /** The sink reads its batch from a stream of whole lines: none cut at a batch's end. */
    @Test
    void givesTheSinkWholeLinesOnly() throws IOException {
        List<Boolean> endsInNewline = Collections.synchronizedList(new ArrayList<>());
        listen("udp://127.0.0.1:0", (in, source, formats) -> {
            byte[] batch = in.readAllBytes();
            endsInNewline.add(batch.length > 0 && batch[batch.length - 1] == '\n');
            return keeping.accept(InputStream.nullInputStream(), source, formats);
        });

        sendUdp("<190>Nov 22 01:02:03 web1 nginx: a", "<190>Nov 22 01:02:03 web1 nginx: b");

        Waits.await("a batch").until(() -> !endsInNewline.isEmpty());
        assertThat(endsInNewline).containsOnly(true);
    }
}
