package dev.crawlerrors.ingest.push;

import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.format.FormatChooser;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Receives access-log lines as syslog, as nginx sends them with
 * {@code access_log syslog:server=127.0.0.1:5140}: over UDP (a frame a datagram) or TCP (both
 * RFC 6587 framings, see {@link SyslogStream}), with an RFC 3164 or RFC 5424 header that
 * {@link SyslogFrame} strips. The lines are gathered into batches ({@link LineBatcher}: at most
 * 100 ms, so a line is in the report well within a second) and each batch goes to the
 * {@link LineBatchSink}, which stores it.
 *
 * <p>Malformed frames are counted and the first few shown on the notices with the sender's
 * address; they never stop the listener, nor lose the lines of other frames. Closing stops
 * receiving, then stores what was received, and returns once it is stored.
 */
public final class SyslogListener implements AutoCloseable {

    /** How many malformed frames, and how many bad lines, are shown; the rest are counted. */
    private static final int SHOWN = ParseCounts.KEPT_BAD_LINES;
    /** The largest UDP payload there is; a datagram never arrives cut short. */
    private static final int MAX_DATAGRAM = 65_535;
    /** Asked of the kernel so a burst waits in the socket while a batch is stored (it may grant less). */
    private static final int UDP_RECEIVE_BUFFER = 4 << 20;

    /**
     * What a listener received so far.
     *
     * @param frames          syslog frames received
     * @param malformedFrames frames dropped: no syslog header, too long, cut short
     * @param lines           the lines those frames held, with how many parsed and how many were bad
     * @param crawlerHits     crawler hits stored from them
     */
    public record Totals(long frames, long malformedFrames, long lines, long parsed, long bad, long crawlerHits) {
    }

    private final SyslogAddress address;
    private final String name;
    private final FormatChooser formats;
    private final LineBatchSink sink;
    private final Consumer<String> notices;
    private final Closeable socket;
    private final LineBatcher batcher;
    private final Thread receiver;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final Set<Thread> connectionThreads = ConcurrentHashMap.newKeySet();
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final ParseCounts lines = new ParseCounts();
    private long crawlerHits;
    private long badShown;
    private String format;
    private volatile boolean closing;

    private SyslogListener(SyslogAddress address, Closeable socket, FormatChooser formats, LineBatchSink sink,
            Consumer<String> notices) {
        this.address = address;
        this.name = address.toString();
        this.socket = socket;
        this.formats = formats;
        this.sink = sink;
        this.notices = notices;
        this.batcher = new LineBatcher("syslog-batches " + name, this::store);
        this.receiver = new Thread(address.tcp() ? this::acceptConnections : this::receiveDatagrams, "syslog " + name);
        receiver.setDaemon(true);
    }

    /**
     * Listens on {@code address} until closed.
     *
     * @param formats  chooses the format of each batch's lines ({@code --format})
     * @param sink     stores each batch
     * @param notices  told, in one sentence each, the format the lines are read in, the first
     *                 malformed frames and bad lines, and what could not be stored
     * @throws IOException when the address cannot be listened on
     */
    public static SyslogListener start(SyslogAddress address, FormatChooser formats, LineBatchSink sink, Consumer<String> notices)
            throws IOException {
        SyslogListener listener;
        if (address.tcp()) {
            ServerSocket server = new ServerSocket();
            try {
                server.bind(address.socketAddress());
            } catch (IOException e) {
                server.close();
                throw e;
            }
            listener = new SyslogListener(address.withPort(server.getLocalPort()), server, formats, sink, notices);
        } else {
            DatagramChannel channel = DatagramChannel.open();
            try {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, UDP_RECEIVE_BUFFER);
                channel.bind(address.socketAddress());
            } catch (IOException e) {
                channel.close();
                throw e;
            }
            int port = ((java.net.InetSocketAddress) channel.getLocalAddress()).getPort();
            listener = new SyslogListener(address.withPort(port), channel, formats, sink, notices);
        }
        listener.receiver.start();
        return listener;
    }

    /** The address listened on, with the port that was picked when port 0 was asked for. */
    public SyslogAddress address() {
        return address;
    }

    public synchronized Totals totals() {
        return new Totals(frames.get(), malformed.get(), lines.linesRead(), lines.linesParsed(), lines.linesBad(), crawlerHits);
    }

    private void receiveDatagrams() {
        DatagramChannel channel = (DatagramChannel) socket;
        ByteBuffer buffer = ByteBuffer.allocate(MAX_DATAGRAM);
        try {
            while (true) {
                buffer.clear();
                SocketAddress from;
                try {
                    from = channel.receive(buffer);
                } catch (ClosedChannelException e) {
                    return;
                } catch (IOException e) {
                    if (closing) {
                        return;
                    }
                    notices.accept(name + ": receiving failed (" + e.getMessage() + "); listening on");
                    continue;
                }
                frame(buffer.array(), 0, buffer.position(), from);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptConnections() {
        ServerSocket server = (ServerSocket) socket;
        while (!closing) {
            Socket connection;
            try {
                connection = server.accept();
            } catch (IOException e) {
                if (closing) {
                    return;
                }
                notices.accept(name + ": accepting a connection failed (" + e.getMessage() + "); listening on");
                continue;
            }
            connections.add(connection);
            Thread thread = new Thread(() -> readConnection(connection), "syslog " + name + " from " + connection.getRemoteSocketAddress());
            thread.setDaemon(true);
            connectionThreads.add(thread);
            thread.start();
            if (closing) {
                closeQuietly(connection); // close() may have gone through the connections before this one was added
            }
        }
    }

    private void readConnection(Socket connection) {
        SocketAddress from = connection.getRemoteSocketAddress();
        try (connection) {
            SyslogStream.read(connection.getInputStream(), new SyslogStream.Frames() {
                @Override
                public void frame(byte[] b, int start, int end) throws InterruptedException {
                    SyslogListener.this.frame(b, start, end, from);
                }

                @Override
                public void skipped(String message) {
                    frames.incrementAndGet();
                    malformed(from, message);
                }
            });
        } catch (IOException e) {
            // the sender went away, or close() closed the connection: what was read is in the batch
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            connections.remove(connection);
            connectionThreads.remove(Thread.currentThread());
        }
    }

    private void frame(byte[] b, int from, int to, SocketAddress sender) throws InterruptedException {
        frames.incrementAndGet();
        try {
            batcher.add(b, SyslogFrame.messageStart(b, from, to), SyslogFrame.end(b, from, to));
        } catch (BadLineException e) {
            malformed(sender, e.getMessage());
        }
    }

    private void malformed(SocketAddress sender, String message) {
        long n = malformed.incrementAndGet();
        if (n <= SHOWN) {
            notices.accept(name + ": dropped a frame from " + host(sender) + ": " + message
                    + (n == SHOWN ? " (further malformed frames are counted, not shown)" : ""));
        }
    }

    /** Stores one batch; called on the batcher's thread only. */
    private void store(byte[] batch, int length) {
        PushedBatch stored;
        try {
            stored = sink.accept(new ByteArrayInputStream(batch, 0, length), name, formats);
        } catch (IOException | RuntimeException e) {
            long count = 0;
            for (int i = 0; i < length; i++) {
                count += batch[i] == '\n' ? 1 : 0;
            }
            notices.accept(String.format(Locale.ROOT, "%s: %,d lines could not be stored (%s)", name, count, e.getMessage()));
            return;
        }
        synchronized (this) {
            lines.addAll(stored.counts());
            crawlerHits += stored.crawlerHits();
        }
        if (stored.format() != null && !stored.format().equals(format)) {
            format = stored.format();
            notices.accept(name + ": reading lines as " + format);
        }
        for (BadLine bad : stored.counts().firstBadLines()) {
            if (badShown++ < SHOWN) {
                notices.accept(name + ": bad line: " + bad.message() + (badShown == SHOWN ? " (further bad lines are counted, not shown)" : ""));
            }
        }
    }

    /** Stops listening, stores what was received, and returns once it is stored. */
    @Override
    public void close() {
        closing = true;
        closeQuietly(socket);
        connections.forEach(SyslogListener::closeQuietly);
        join(receiver);
        connectionThreads.forEach(SyslogListener::join);
        batcher.close();
        Totals totals = totals();
        notices.accept(String.format(Locale.ROOT, "%s: closed after %,d frames (%,d malformed): %,d lines, %,d parsed, %,d bad, "
                + "%,d crawler hits stored", name, totals.frames, totals.malformedFrames, totals.lines, totals.parsed, totals.bad,
                totals.crawlerHits));
    }

    private static String host(SocketAddress address) {
        String s = String.valueOf(address);
        return s.startsWith("/") ? s.substring(1) : s;
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // closing to stop: nothing is lost
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
