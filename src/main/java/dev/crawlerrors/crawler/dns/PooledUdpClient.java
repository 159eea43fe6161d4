package dev.crawlerrors.crawler.dns;

import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.xbill.DNS.DNSInput;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;
import org.xbill.DNS.WireParseException;
import org.xbill.DNS.io.UdpIoClient;

/**
 * dnsjava's UDP client for one DNS server, over a small pool of long-lived sockets instead of a new
 * socket per query: opening, binding and closing a socket for every query costs more than the query.
 * Plug it into a {@link org.xbill.DNS.SimpleResolver} with {@code setIoClientFactory}.
 *
 * <p>Each socket sits on a random ephemeral port, connected to the server; every query gets a fresh
 * random ID, and an answer is taken only if it comes on the query's socket with the query's ID,
 * name, type and class, so a forged answer is ignored rather than cutting a query short. A socket
 * is retired after {@code queriesPerSocket} queries or {@code maxSocketAge}, so a found port goes
 * stale; docs/verification.md, "DNS answers over a pool of sockets", weighs what this costs.
 *
 * <p>An ICMP port-unreachable fails every query outstanding on its socket (it cannot be tied to one).
 * Queries are sent on the caller's thread; one daemon thread reads every answer, times queries out
 * and retires sockets, and completes the futures, so callers move their work elsewhere.
 */
final class PooledUdpClient implements UdpIoClient, AutoCloseable {

    /** How often, at most, outstanding queries are checked for their deadline. */
    private static final long SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Datagrams read from one socket before the others get a turn. */
    private static final int READS_PER_TURN = 64;
    private static final int HEADER_LENGTH = 12;

    private final InetSocketAddress server;
    /** The server as messages show it: {@code 127.0.0.1:53}, {@code [::1]:53}. */
    private final String serverText;
    private final int queriesPerSocket;
    private final long maxSocketAgeNanos;
    private final Selector selector;
    private final Thread reader;
    private final SecureRandom random = new SecureRandom();
    /**
     * Random bytes for message IDs, drawn a block at a time: a {@link SecureRandom} call per ID
     * costs more than the query's other work. Guarded by {@code this}.
     */
    private final byte[] idBytes = new byte[512];
    private int idNext = idBytes.length;
    /** Sockets handed out in turn; guarded by {@code this}, and null until first used. */
    private final PooledSocket[] active;
    /** Every socket still open, retired ones included; the reader sweeps them for timeouts. */
    private final Set<PooledSocket> open = ConcurrentHashMap.newKeySet();
    private final LongAdder socketsOpened = new LongAdder();
    private final LongAdder answersIgnored = new LongAdder();
    private int next;
    /** Why the client closed (close() or the reader's failure); null while open. Guarded by {@code this}. */
    private IOException closedBecause;

    /**
     * @param server           the only address queries go to
     * @param sockets          sockets in use at once, at least 1
     * @param queriesPerSocket queries a socket sends before it is replaced, at least 1
     * @param maxSocketAge     how long a socket is used before it is replaced, positive
     * @param threadName       the name of the thread that reads the answers
     * @throws UncheckedIOException when no selector can be opened
     */
    PooledUdpClient(InetSocketAddress server, int sockets, int queriesPerSocket, Duration maxSocketAge, String threadName) {
        if (sockets < 1 || queriesPerSocket < 1 || maxSocketAge.isNegative() || maxSocketAge.isZero()) {
            throw new IllegalArgumentException("a UDP pool needs at least 1 socket, 1 query per socket and a positive age, not "
                    + sockets + ", " + queriesPerSocket + " and " + maxSocketAge);
        }
        this.server = server;
        String host = server.getHostString();
        this.serverText = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + server.getPort();
        this.queriesPerSocket = queriesPerSocket;
        this.maxSocketAgeNanos = maxSocketAge.toNanos();
        this.active = new PooledSocket[sockets];
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for DNS over UDP to " + serverText, e);
        }
        this.reader = Threads.startDaemon(threadName, this::read);
    }

    /**
     * Sends {@code data} (the wire form of {@code query}) to the server and completes with the
     * answer's bytes, carrying the ID {@code data} had; or fails with {@link SocketTimeoutException}
     * when none comes within {@code timeout}, with the socket's {@link IOException}, or with an
     * {@link IOException} once the client is closed. Never blocks and never throws.
     *
     * @param local  must be null: the pool's sockets are bound to ports the operating system picks
     * @param remote must be the server this client was made for
     * @param max    not enforced; see the class comment
     */
    @Override
    public CompletableFuture<byte[]> sendAndReceiveUdp(InetSocketAddress local, InetSocketAddress remote, Message query,
            byte[] data, int max, Duration timeout) {
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        if (local != null || !server.equals(remote)) {
            answer.completeExceptionally(new IllegalArgumentException("this UDP client sends only to " + serverText
                    + " from a port of its choosing, not to " + remote + " from " + local));
            return answer;
        }
        Record question = query.getQuestion();
        if (data.length < HEADER_LENGTH || question == null) {
            answer.completeExceptionally(new IllegalArgumentException("a DNS query needs a header and a question; got "
                    + data.length + " bytes" + (question == null ? " without a question" : "")));
            return answer;
        }
        Exchange exchange = new Exchange(question, ((data[0] & 0xFF) << 8) | (data[1] & 0xFF), timeout, answer);
        byte[] wire = data.clone();
        try {
            // Registered before it is sent, so the answer cannot come back before its query is known.
            PooledSocket socket = register(exchange);
            wire[0] = (byte) (exchange.wireId >>> 8);
            wire[1] = (byte) exchange.wireId;
            int sent = socket.channel.write(ByteBuffer.wrap(wire));
            if (sent != wire.length) {
                throw new IOException("the socket's send buffer is full; sent " + sent + " of " + wire.length + " bytes");
            }
        } catch (IOException | RuntimeException e) {
            if (exchange.socket != null) {
                exchange.socket.forget(exchange);
            }
            answer.completeExceptionally(e);
        }
        return answer;
    }

    /** Sockets opened so far, the ones replaced included. */
    long socketsOpened() {
        return socketsOpened.sum();
    }

    /** Sockets open now: in use, or retired with queries still outstanding. */
    int socketsOpen() {
        return open.size();
    }

    /** Datagrams read that answered no outstanding query: late, forged, or not a response. */
    long answersIgnored() {
        return answersIgnored.sum();
    }

    /** Queries sent and neither answered nor timed out. */
    int outstanding() {
        int count = 0;
        for (PooledSocket socket : open) {
            count += socket.outstanding();
        }
        return count;
    }

    /** Fails every outstanding query with an {@link IOException}, closes every socket and stops the reader. */
    @Override
    public void close() {
        shutDown(new IOException("the DNS client for " + serverText + " closed before the answer came"));
    }

    private void shutDown(IOException reason) {
        List<PooledSocket> sockets;
        synchronized (this) {
            if (closedBecause != null) {
                return;
            }
            closedBecause = reason;
            sockets = new ArrayList<>(open);
        }
        for (PooledSocket socket : sockets) {
            socket.fail(reason);
        }
        try {
            // Wakes the reader, whose select then throws ClosedSelectorException and ends it.
            selector.close();
        } catch (IOException e) {
            // Nothing is left to release: every socket is closed already.
        }
    }

    /** Picks the next socket in turn, replacing it when it is used up, and gives the exchange an ID on it. */
    private synchronized PooledSocket register(Exchange exchange) throws IOException {
        if (closedBecause != null) {
            throw new IOException("the DNS client for " + serverText + " is closed", closedBecause);
        }
        int slot = next;
        next = (next + 1) % active.length;
        PooledSocket socket = active[slot];
        long now = System.nanoTime();
        if (socket == null || socket.assigned >= queriesPerSocket || now - socket.openedAt > maxSocketAgeNanos
                || socket.retired()) {
            // Opened before the old one is retired, so the operating system cannot hand out its port again.
            PooledSocket fresh = openSocket(now);
            active[slot] = fresh;
            if (socket != null) {
                socket.retire();
            }
            socket = fresh;
        }
        socket.assigned++;
        socket.add(exchange, this::nextId);
        return socket;
    }

    /** A random 16-bit message ID; called holding the client's lock. */
    private int nextId() {
        if (idNext == idBytes.length) {
            random.nextBytes(idBytes);
            idNext = 0;
        }
        int id = (idBytes[idNext] & 0xFF) << 8 | (idBytes[idNext + 1] & 0xFF);
        idNext += 2;
        return id;
    }

    /** Retires the sockets past their age, so that a client left idle holds no port open for long. */
    private synchronized void retireAged(long now) {
        for (int slot = 0; slot < active.length; slot++) {
            PooledSocket socket = active[slot];
            if (socket != null && now - socket.openedAt > maxSocketAgeNanos) {
                active[slot] = null;
                socket.retire();
            }
        }
    }

    private PooledSocket openSocket(long now) throws IOException {
        DatagramChannel channel = DatagramChannel.open();
        try {
            channel.configureBlocking(false);
            channel.bind(null);
            channel.connect(server);
            PooledSocket socket = new PooledSocket(channel, now);
            channel.register(selector, SelectionKey.OP_READ, socket);
            open.add(socket);
            // The reader polls the new socket only from its next select on.
            selector.wakeup();
            socketsOpened.increment();
            return socket;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The reader thread: takes answers as they come and sweeps for timeouts, until closed. */
    private void read() {
        ByteBuffer in = ByteBuffer.allocateDirect(65_535);
        long nextSweep = System.nanoTime() + SWEEP_NANOS;
        try {
            while (true) {
                selector.select(key -> drain((PooledSocket) key.attachment(), in), TimeUnit.NANOSECONDS.toMillis(SWEEP_NANOS));
                long now = System.nanoTime();
                if (now - nextSweep >= 0) {
                    nextSweep = now + SWEEP_NANOS;
                    retireAged(now);
                    for (PooledSocket socket : open) {
                        socket.expire(now);
                    }
                }
            }
        } catch (ClosedSelectorException closed) {
            // close() ran; it has failed every outstanding query.
        } catch (IOException | RuntimeException e) {
            // Without the reader no query would ever settle: fail them all, and every later one, at once.
            shutDown(new IOException("the DNS client for " + serverText + " stopped reading answers: " + Failures.message(e), e));
        }
    }

    private void drain(PooledSocket socket, ByteBuffer in) {
        // A retired socket closes on its last answer; reading it again would only throw.
        for (int i = 0; i < READS_PER_TURN && socket.channel.isOpen(); i++) {
            int length;
            try {
                in.clear();
                length = socket.channel.read(in);
            } catch (PortUnreachableException e) {
                socket.fail(e);
                return;
            } catch (IOException e) {
                // Closed under us (retired or close()), or an error the socket reports once; the
                // queries on it time out if it goes on.
                return;
            }
            if (length <= 0) {
                return;
            }
            socket.take(in, length);
        }
    }

    /** Whether {@code answer} is a response whose question is {@code question}: name, type and class. */
    private static boolean answers(byte[] answer, Record question) {
        if ((answer[2] & 0x80) == 0 || ((answer[4] & 0xFF) << 8 | (answer[5] & 0xFF)) == 0) {
            return false;
        }
        try {
            DNSInput in = new DNSInput(answer);
            in.jump(HEADER_LENGTH);
            Name name = new Name(in);
            return in.readU16() == question.getType() && in.readU16() == question.getDClass() && name.equals(question.getName());
        } catch (WireParseException e) {
            return false;
        }
    }

    /** One query waiting for its answer. */
    private static final class Exchange {
        final Record question;
        final int callerId;
        final long deadline;
        final long timeoutMillis;
        final CompletableFuture<byte[]> answer;
        /** Set once, under the client's lock, before the query is sent. */
        PooledSocket socket;
        int wireId;

        Exchange(Record question, int callerId, Duration timeout, CompletableFuture<byte[]> answer) {
            this.question = question;
            this.callerId = callerId;
            this.deadline = System.nanoTime() + timeout.toNanos();
            this.timeoutMillis = timeout.toMillis();
            this.answer = answer;
        }
    }

    /** One connected socket and the queries outstanding on it, by wire ID; guarded by itself. */
    private final class PooledSocket {
        final DatagramChannel channel;
        final long openedAt;
        /** Queries handed to this socket; guarded by the client. */
        int assigned;
        private final Map<Integer, Exchange> byId = new HashMap<>();
        private boolean retired;
        private boolean closed;

        PooledSocket(DatagramChannel channel, long openedAt) {
            this.channel = channel;
            this.openedAt = openedAt;
        }

        /** Gives the exchange a random ID that no other query outstanding here has. */
        synchronized void add(Exchange exchange, IntSupplier ids) throws IOException {
            if (closed) {
                throw new IOException("the socket to " + serverText + " closed before the query went out");
            }
            int id;
            do {
                id = ids.getAsInt();
            } while (byId.containsKey(id));
            exchange.wireId = id;
            exchange.socket = this;
            byId.put(id, exchange);
        }

        synchronized void forget(Exchange exchange) {
            byId.remove(exchange.wireId, exchange);
            closeIfDone();
        }

        /** Whether no more queries may go out here: used up, too old, or failed by an error. */
        synchronized boolean retired() {
            return retired;
        }

        synchronized int outstanding() {
            return byId.size();
        }

        /** No more queries go out here; closes once the last one outstanding settles. */
        synchronized void retire() {
            retired = true;
            closeIfDone();
        }

        /** Completes the query {@code in} answers, if it answers one; runs on the reader. */
        void take(ByteBuffer in, int length) {
            if (length < HEADER_LENGTH) {
                answersIgnored.increment();
                return;
            }
            byte[] bytes = new byte[length];
            in.get(0, bytes);
            int id = (bytes[0] & 0xFF) << 8 | (bytes[1] & 0xFF);
            Exchange exchange;
            synchronized (this) {
                exchange = byId.get(id);
            }
            if (exchange == null || !answers(bytes, exchange.question)) {
                answersIgnored.increment();
                return;
            }
            synchronized (this) {
                if (!byId.remove(id, exchange)) {
                    // Timed out or failed while we looked at it.
                    answersIgnored.increment();
                    return;
                }
                closeIfDone();
            }
            bytes[0] = (byte) (exchange.callerId >>> 8);
            bytes[1] = (byte) exchange.callerId;
            exchange.answer.complete(bytes);
        }

        /** Fails the queries past their deadline. */
        void expire(long now) {
            List<Exchange> late = null;
            synchronized (this) {
                for (Iterator<Exchange> it = byId.values().iterator(); it.hasNext(); ) {
                    Exchange exchange = it.next();
                    if (now - exchange.deadline >= 0) {
                        it.remove();
                        if (late == null) {
                            late = new ArrayList<>();
                        }
                        late.add(exchange);
                    }
                }
                if (late != null) {
                    closeIfDone();
                }
            }
            if (late != null) {
                for (Exchange exchange : late) {
                    exchange.answer.completeExceptionally(new SocketTimeoutException("no answer from " + serverText
                            + " within " + exchange.timeoutMillis + " ms to " + exchange.question.getName() + " "
                            + Type.string(exchange.question.getType())));
                }
            }
        }

        /** Fails every outstanding query with {@code error} and closes the socket. */
        void fail(IOException error) {
            List<Exchange> failed;
            synchronized (this) {
                failed = new ArrayList<>(byId.values());
                byId.clear();
                retired = true;
                closeIfDone();
            }
            for (Exchange exchange : failed) {
                exchange.answer.completeExceptionally(error);
            }
        }

        private void closeIfDone() {
            if (retired && byId.isEmpty() && !closed) {
                closed = true;
                open.remove(this);
                try {
                    channel.close();
                } catch (IOException e) {
                    // The port is released whatever close reports.
                }
            }
        }
    }
}
