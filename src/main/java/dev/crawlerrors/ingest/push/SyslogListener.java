package dev.crawlerrors.ingest.push;

import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.Threads;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
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
 *
 * <p>Under abuse ({@link Options}): a TCP connection is read on a virtual thread of its own (a
 * platform thread each made idle connections cost a great deal of memory), at most
 * {@link Options#maxConnections} are open at once, and one that sends nothing for
 * {@link Options#idleTimeout} is closed. A sender past the cap is let in by closing the connection
 * idle longest (a sender forgot it; one that has lines again reconnects), so idle connections can
 * never lock senders out; only when every open connection sent within {@link Options#busyWithin}
 * is the new one refused. UDP has no
 * connections to bound, but a burst the receive buffer cannot hold is lost in the kernel, where the
 * program never sees it: the kernel's count of the socket's drops ({@link UdpDrops}) is read every
 * {@link Options#dropCheckEvery} and a rise is said on the notices and counted in the totals.
 */
public final class SyslogListener implements AutoCloseable {

    /** Connections waiting to be accepted: enough for a fleet's senders reconnecting at once. */
    private static final int BACKLOG = 256;
    /** How many malformed frames, and how many bad lines, are shown; the rest are counted. */
    private static final int SHOWN = ParseCounts.KEPT_BAD_LINES;
    /** The largest UDP payload there is; a datagram never arrives cut short. */
    private static final int MAX_DATAGRAM = 65_535;

    /**
     * How a listener bounds what its senders may cost.
     *
     * @param maxConnections TCP connections open at once; a sender past them takes the place of the connection idle longest
     * @param idleTimeout    a TCP connection that sends nothing for this long is closed; a sender with lines again reconnects
     * @param receiveBuffer  bytes asked of the kernel for the UDP socket's receive buffer, where a burst waits while a
     *                       batch is stored (the kernel grants at most net.core.rmem_max, doubled for its bookkeeping)
     * @param dropCheckEvery how often the kernel's count of the UDP datagrams it dropped is read
     * @param busyWithin     a connection that sent a byte this recently is busy, never closed to let another sender in: when
     *                       every open one is, a sender past the cap is refused (its connection closed at once)
     */
    public record Options(int maxConnections, Duration idleTimeout, int receiveBuffer, Duration dropCheckEvery, Duration busyWithin) {

        /**
         * A thousand connections: a site's fleet of senders, each one connection, far below the
         * descriptors a process may open (a virtual thread costs a few KB). A quarter of an hour
         * idle: a quiet site's senders stay connected through the night's lulls, while connections
         * a sender forgot (a NAT that dropped them) are closed. 4 MiB: a few seconds of a busy
         * site's lines while a batch is stored.
         */
        public static final Options DEFAULT = new Options(1_000, Duration.ofMinutes(15), 4 << 20, Duration.ofSeconds(5));

        /** A connection that sent within the last second is busy: it may be in the middle of a frame. */
        public Options(int maxConnections, Duration idleTimeout, int receiveBuffer, Duration dropCheckEvery) {
            this(maxConnections, idleTimeout, receiveBuffer, dropCheckEvery, Duration.ofSeconds(1));
        }

        public Options {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("at least one connection must be allowed, not " + maxConnections);
            }
            if (idleTimeout.isNegative() || idleTimeout.isZero() || receiveBuffer < 1 || dropCheckEvery.isNegative() || dropCheckEvery.isZero()
                    || busyWithin.isNegative()) {
                throw new IllegalArgumentException("timeouts, intervals and buffer sizes must be positive");
            }
        }
    }

    /**
     * What a listener received so far.
     *
     * @param frames          syslog frames received
     * @param malformedFrames frames dropped: no syslog header, too long, cut short
     * @param lines           the lines those frames held, with how many parsed and how many were bad
     * @param crawlerHits     crawler hits stored from them
     * @param droppedDatagrams UDP datagrams the kernel dropped because the receive buffer was full, -1 where the system does
     *                         not tell (0 for TCP)
     * @param refusedConnections TCP connections refused because {@link Options#maxConnections} were open, each busy
     * @param idleConnectionsClosed TCP connections closed after {@link Options#idleTimeout} without a byte, or as the one
     *                              idle longest to let a sender past {@link Options#maxConnections} in
     */
    public record Totals(long frames, long malformedFrames, long lines, long parsed, long bad, long crawlerHits,
            long droppedDatagrams, long refusedConnections, long idleConnectionsClosed) {
    }

    private final SyslogAddress address;
    private final Options options;
    private final String name;
    private final FormatChooser formats;
    private final LineBatchSink sink;
    private final Consumer<String> notices;
    private final Closeable socket;
    private final LineBatcher batcher;
    private final Thread receiver;
    /** The open TCP connections, each with the {@link System#nanoTime()} its sender last sent a byte (or connected). */
    private final Map<Socket, AtomicLong> connections = new ConcurrentHashMap<>();
    private final AtomicLong displaced = new AtomicLong();
    private final Set<Thread> connectionThreads = ConcurrentHashMap.newKeySet();
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong idleClosed = new AtomicLong();
    /** The kernel's count of the UDP socket's drops; null for TCP. */
    private final UdpDrops drops;
    /** The drops said so far. */
    private long dropsSaid;
    /** The UDP receive buffer the kernel granted, in bytes; 0 for TCP. */
    private final int receiveBuffer;
    private final Thread dropChecker;
    private final ParseCounts lines = new ParseCounts();
    private long crawlerHits;
    private long badShown;
    private String format;
    private volatile boolean closing;

    private SyslogListener(SyslogAddress address, Options options, Closeable socket, int receiveBuffer, FormatChooser formats,
            LineBatchSink sink, Consumer<String> notices) {
        this.address = address;
        this.options = options;
        this.receiveBuffer = receiveBuffer;
        this.drops = address.tcp() ? null : new UdpDrops(address.port());
        this.dropChecker = address.tcp() ? null : Thread.ofVirtual().name("syslog drops " + address).unstarted(this::checkDrops);
        this.name = address.toString();
        this.socket = socket;
        this.formats = formats;
        this.sink = sink;
        this.notices = notices;
        this.batcher = new LineBatcher("syslog-batches " + name, this::store);
        this.receiver = Threads.daemons("syslog " + name).newThread(address.tcp() ? this::acceptConnections : this::receiveDatagrams);
    }

    /** Listens on {@code address} until closed, bounded as {@link Options#DEFAULT} says. */
    public static SyslogListener start(SyslogAddress address, FormatChooser formats, LineBatchSink sink, Consumer<String> notices)
            throws IOException {
        return start(address, Options.DEFAULT, formats, sink, notices);
    }

    /**
     * Listens on {@code address} until closed.
     *
     * @param options  the bounds on connections, idle time and the UDP receive buffer
     * @param formats  chooses the format of each batch's lines ({@code --format})
     * @param sink     stores each batch
     * @param notices  told, in one sentence each, the format the lines are read in, the first
     *                 malformed frames and bad lines, refused connections, datagrams the kernel
     *                 dropped, and what could not be stored
     * @throws IOException when the address cannot be listened on
     */
    public static SyslogListener start(SyslogAddress address, Options options, FormatChooser formats, LineBatchSink sink,
            Consumer<String> notices) throws IOException {
        SyslogListener listener;
        if (address.tcp()) {
            ServerSocket server = new ServerSocket();
            try {
                server.bind(address.socketAddress(), BACKLOG);
            } catch (IOException e) {
                server.close();
                throw e;
            }
            listener = new SyslogListener(address.withPort(server.getLocalPort()), options, server, 0, formats, sink, notices);
        } else {
            DatagramChannel channel = DatagramChannel.open();
            int granted;
            try {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, options.receiveBuffer());
                granted = channel.getOption(StandardSocketOptions.SO_RCVBUF);
                channel.bind(address.socketAddress());
            } catch (IOException e) {
                channel.close();
                throw e;
            }
            int port = ((java.net.InetSocketAddress) channel.getLocalAddress()).getPort();
            listener = new SyslogListener(address.withPort(port), options, channel, granted, formats, sink, notices);
        }
        listener.receiver.start();
        if (listener.dropChecker != null) {
            listener.dropChecker.start();
        }
        return listener;
    }

    /** The address listened on, with the port that was picked when port 0 was asked for. */
    public SyslogAddress address() {
        return address;
    }

    public Totals totals() {
        long dropped = droppedDatagrams();
        synchronized (this) {
            return new Totals(frames.get(), malformed.get(), lines.linesRead(), lines.linesParsed(), lines.linesBad(), crawlerHits,
                    dropped, refused.get(), idleClosed.get());
        }
    }

    /** UDP datagrams the kernel dropped so far, read now; -1 where the system does not tell, 0 for TCP. */
    public long droppedDatagrams() {
        return drops == null ? 0 : drops.dropped();
    }

    /** TCP connections open now. */
    public int openConnections() {
        return connections.size();
    }

    /** The UDP receive buffer the kernel granted, in bytes (Linux reports twice what it holds for lines: half is its bookkeeping); 0 for TCP. */
    public int receiveBuffer() {
        return receiveBuffer;
    }

    /** Reads the kernel's count of dropped datagrams every {@link Options#dropCheckEvery}, and says each rise. */
    private void checkDrops() {
        try {
            while (!closing) {
                Thread.sleep(options.dropCheckEvery());
                sayDrops();
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    private synchronized void sayDrops() {
        long dropped = drops.dropped();
        if (dropped > dropsSaid) {
            notices.accept(String.format(Locale.ROOT, "%s: the kernel dropped %,d datagrams (%,d in all): they came faster than they "
                    + "were stored, and the receive buffer (%s granted) was full; raise --syslog-receive-buffer, and the kernel's "
                    + "net.core.rmem_max that caps it", name, dropped - dropsSaid, dropped, Figures.bytes(receiveBuffer)));
            dropsSaid = dropped;
        }
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
            if (connections.size() >= options.maxConnections() && !displaceIdlest(connection)) {
                refuse(connection);
                continue;
            }
            try {
                connection.setSoTimeout(Math.toIntExact(Math.min(Integer.MAX_VALUE, options.idleTimeout().toMillis())));
            } catch (IOException e) {
                closeQuietly(connection);
                continue;
            }
            AtomicLong lastByte = new AtomicLong(System.nanoTime());
            connections.put(connection, lastByte);
            // a virtual thread: a connection that waits for its sender's next line holds no platform thread
            Thread thread = Thread.ofVirtual().name("syslog " + name + " from " + connection.getRemoteSocketAddress())
                    .unstarted(() -> readConnection(connection, lastByte));
            connectionThreads.add(thread);
            thread.start();
            if (closing) {
                closeQuietly(connection); // close() may have gone through the connections before this one was added
            }
        }
    }

    /**
     * Closes the open connection idle longest, to let {@code newcomer} in, unless it sent within
     * {@link Options#busyWithin}; says so for the first few.
     *
     * @return whether one was closed
     */
    private boolean displaceIdlest(Socket newcomer) {
        Map.Entry<Socket, AtomicLong> idlest = null;
        for (Map.Entry<Socket, AtomicLong> open : connections.entrySet()) {
            if (idlest == null || open.getValue().get() - idlest.getValue().get() < 0) {
                idlest = open;
            }
        }
        long idleNanos = idlest == null ? 0 : System.nanoTime() - idlest.getValue().get();
        if (idlest == null || idleNanos < options.busyWithin().toNanos() || connections.remove(idlest.getKey()) == null) {
            return false;
        }
        closeQuietly(idlest.getKey());
        idleClosed.incrementAndGet();
        long n = displaced.incrementAndGet();
        if (n <= SHOWN) {
            notices.accept(name + ": closed the connection from " + host(idlest.getKey().getRemoteSocketAddress()) + ", idle "
                    + Duration.ofNanos(idleNanos).toSeconds() + " s, to let one from " + host(newcomer.getRemoteSocketAddress()) + " in: "
                    + String.format(Locale.ROOT, "%,d", options.maxConnections()) + " connections are open, as many as "
                    + "--syslog-max-connections allows" + (n == SHOWN ? " (further ones are counted, not shown)" : ""));
        }
        return true;
    }

    /** Closes a connection past {@link Options#maxConnections} at once, every open one being busy; says so for the first few. */
    private void refuse(Socket connection) {
        long n = refused.incrementAndGet();
        if (n <= SHOWN) {
            notices.accept(name + ": refused a connection from " + host(connection.getRemoteSocketAddress()) + ": "
                    + String.format(Locale.ROOT, "%,d", options.maxConnections()) + " connections are open, as many as "
                    + "--syslog-max-connections allows, each sending" + (n == SHOWN ? " (further refusals are counted, not shown)" : ""));
        }
        closeQuietly(connection);
    }

    private void readConnection(Socket connection, AtomicLong lastByte) {
        SocketAddress from = connection.getRemoteSocketAddress();
        try (connection) {
            InputStream in = new FilterInputStream(connection.getInputStream()) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    int n = super.read(b, off, len);
                    if (n > 0) {
                        lastByte.set(System.nanoTime());
                    }
                    return n;
                }
            };
            SyslogStream.read(in, new SyslogStream.Frames() {
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
        } catch (SocketTimeoutException e) {
            idleClosed.incrementAndGet(); // nothing for idleTimeout: closed, the sender reconnects when it has lines
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
        if (dropChecker != null) {
            dropChecker.interrupt();
            join(dropChecker);
            sayDrops(); // read while the socket is open: closed, it leaves the kernel's table, and its last count is kept
        }
        closeQuietly(socket);
        connections.keySet().forEach(SyslogListener::closeQuietly);
        join(receiver);
        connectionThreads.forEach(SyslogListener::join);
        batcher.close();
        Totals totals = totals();
        String lost = address.tcp()
                ? String.format(Locale.ROOT, "; %,d connections refused, %,d closed idle", totals.refusedConnections, totals.idleConnectionsClosed)
                : totals.droppedDatagrams < 0 ? "" : String.format(Locale.ROOT, "; %,d datagrams dropped by the kernel", totals.droppedDatagrams);
        notices.accept(String.format(Locale.ROOT, "%s: closed after %,d frames (%,d malformed): %,d lines, %,d parsed, %,d bad, "
                + "%,d crawler hits stored", name, totals.frames, totals.malformedFrames, totals.lines, totals.parsed, totals.bad,
                totals.crawlerHits) + lost);
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
