package dev.crawlerrors.crawler.dns;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.Address;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.PTRRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.ReverseMap;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * A real DNS server for tests: it answers DNS packets over UDP on 127.0.0.1, on a port of its own
 * choosing, from records configured per name. It answers like a recursive resolver would: a CNAME
 * comes with its target's records when it has them.
 *
 * <p>Per name it serves records (PTR, A, AAAA, CNAME, each with its TTL), NXDOMAIN, an empty answer,
 * an error code such as SERVFAIL, or silence (to provoke a timeout). Negative answers carry an SOA
 * when one was configured for the name, so the client can read the negative TTL. A name that was
 * never configured is answered REFUSED, so a test that forgot one fails loudly rather than
 * refuting. An optional fixed delay is applied on a scheduler, so any number of queries can be
 * outstanding at once; the receive loop runs on a daemon thread. It counts the queries it receives
 * per name, and the most it has had unanswered at once; on request it notes the port each query
 * came from.
 *
 * <p>To test a client's defences it can also hold answers back and send a batch in reverse order,
 * and precede the real answer for a name with a forged one (see {@link Forgery}). For names marked
 * {@link #truncateOverUdp truncated} it answers over UDP with the TC flag and no records, and gives
 * the whole answer over TCP on the same port.
 */
public final class LocalDnsServer implements AutoCloseable {

    private static final Name ZONE_SOA_HOST = name("ns.invalid.");
    private static final Name ZONE_SOA_ADMIN = name("hostmaster.invalid.");

    private final DatagramChannel channel;
    private final Thread receiver;
    private final ScheduledThreadPoolExecutor delayer;
    private final Map<Name, Zone> zones = new ConcurrentHashMap<>();
    private final Map<Name, AtomicInteger> queriesByName = new ConcurrentHashMap<>();
    private final AtomicLong queries = new AtomicLong();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicInteger maxOutstanding = new AtomicInteger();
    private final Map<Name, Forged> forgeries = new ConcurrentHashMap<>();
    private final Queue<Integer> clientPorts = new ConcurrentLinkedQueue<>();
    private final List<Held> held = new ArrayList<>();
    private volatile int holdBatch;
    private volatile boolean recordPorts;
    private final Set<Name> truncated = ConcurrentHashMap.newKeySet();
    private final AtomicLong tcpQueries = new AtomicLong();
    /** Bound with the UDP port from the start: a port free for UDP may be taken for TCP by the time it is asked for. */
    private final ServerSocketChannel tcp;
    private boolean accepting;
    private volatile long delayNanos;
    /** While not complete, answers wait for it; null: answers go at once (or after the delay). */
    private volatile CompletableFuture<Void> gate;
    private volatile boolean recursive = true;
    /** How names that were never configured are answered; null: REFUSED. */
    private volatile Zone otherwise;

    public LocalDnsServer() throws IOException {
        channel = DatagramChannel.open();
        // Queries that arrive while the receive thread is descheduled wait in this buffer; the
        // default (about 200 KB, some 150 loopback packets) overflows under load and drops them.
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
        tcp = bindBeside(channel);
        delayer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "local-dns-delay");
            thread.setDaemon(true);
            return thread;
        });
        receiver = new Thread(this::receive, "local-dns-receive");
        receiver.setDaemon(true);
        receiver.start();
    }

    /** Binds a TCP port and {@code udp} to the same number, trying other numbers while one is taken. */
    private static ServerSocketChannel bindBeside(DatagramChannel udp) throws IOException {
        IOException taken = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            ServerSocketChannel tcp = ServerSocketChannel.open();
            try {
                tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                udp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), ((InetSocketAddress) tcp.getLocalAddress()).getPort()));
                return tcp;
            } catch (IOException e) {
                tcp.close();
                taken = e;
            }
        }
        throw taken;
    }

    /** Where to send queries: {@code 127.0.0.1:port}. */
    public String address() {
        return "127.0.0.1:" + port();
    }

    public int port() {
        try {
            return ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException("the local DNS server has no address", e);
        }
    }

    /** Answers every query {@code delay} late, on a scheduler, not on the receiving thread. */
    public LocalDnsServer delay(Duration delay) {
        delayNanos = delay.toNanos();
        return this;
    }

    /**
     * Holds every answer until the returned action is run, so a test can look at what a client
     * knows before its answer arrives, however fast or slow the machine; then sends them, in order.
     */
    public Runnable holdAnswers() {
        CompletableFuture<Void> held = new CompletableFuture<>();
        gate = held;
        return () -> {
            gate = null;
            held.complete(null);
        };
    }

    /**
     * Holds answers until {@code batch} have been asked for, then sends them last first, so a client
     * that took answers in the order it asked would mismatch them. Takes the place of the delay,
     * and no forged answers are sent meanwhile.
     */
    LocalDnsServer answerInReverse(int batch) {
        holdBatch = batch;
        return this;
    }

    /**
     * Sends a forged answer just before each real answer for {@code owner}: one that differs from
     * the query as {@code forgery} says and claims {@code owner} has the address {@code forgedIp}.
     */
    LocalDnsServer forge(String owner, Forgery forgery, String forgedIp) {
        forgeries.put(name(owner), new Forged(forgery, address(forgedIp)));
        return this;
    }

    /**
     * Answers UDP queries for {@code owner} with the TC flag and no records, as a server does when
     * the answer does not fit a datagram; the whole answer comes over TCP, on the same port.
     *
     * @throws IOException when the TCP port cannot be opened
     */
    synchronized LocalDnsServer truncateOverUdp(String owner) throws IOException {
        if (!accepting) {
            accepting = true;
            Thread acceptor = new Thread(this::acceptTcp, "local-dns-tcp");
            acceptor.setDaemon(true);
            acceptor.start();
        }
        truncated.add(name(owner));
        return this;
    }

    /** Queries received over TCP. */
    long tcpQueries() {
        return tcpQueries.get();
    }

    /** Answers a CNAME alone, as an authoritative server does, without its target's records. */
    LocalDnsServer withoutRecursion() {
        recursive = false;
        return this;
    }

    /** A PTR record for {@code ip}'s reverse name (in-addr.arpa or ip6.arpa). */
    public LocalDnsServer ptr(String ip, String target, long ttl) {
        Name reverse = reverse(ip);
        return add(new PTRRecord(reverse, DClass.IN, ttl, name(target)));
    }

    public LocalDnsServer a(String owner, String ip, long ttl) {
        return add(new ARecord(name(owner), DClass.IN, ttl, address(ip)));
    }

    public LocalDnsServer aaaa(String owner, String ip, long ttl) {
        return add(new AAAARecord(name(owner), DClass.IN, ttl, address(ip)));
    }

    public LocalDnsServer cname(String owner, String target, long ttl) {
        return add(new CNAMERecord(name(owner), DClass.IN, ttl, name(target)));
    }

    /** The name does not exist; the answer carries no SOA. */
    public LocalDnsServer nxdomain(String owner) {
        return set(name(owner), new Zone(Behaviour.NXDOMAIN, List.of(), -1, 0));
    }

    /** The name does not exist; the answer carries an SOA whose TTL and MINIMUM are {@code negativeTtl}. */
    public LocalDnsServer nxdomain(String owner, long negativeTtl) {
        return set(name(owner), new Zone(Behaviour.NXDOMAIN, List.of(), negativeTtl, 0));
    }

    /** The name exists but has no records: NOERROR with an empty answer, no SOA. */
    public LocalDnsServer empty(String owner) {
        return set(name(owner), new Zone(Behaviour.RECORDS, List.of(), -1, 0));
    }

    /** Answers queries for the name with {@code rcode}, e.g. {@link Rcode#SERVFAIL}. */
    public LocalDnsServer rcode(String owner, int rcode) {
        return set(name(owner), new Zone(Behaviour.RCODE, List.of(), -1, rcode));
    }

    /** Never answers queries for the name. */
    public LocalDnsServer silent(String owner) {
        return set(name(owner), new Zone(Behaviour.SILENT, List.of(), -1, 0));
    }

    /**
     * Answers NXDOMAIN for every name not configured, as a split-horizon or air-gapped resolver
     * does for the names it cannot see (instead of REFUSED, which makes a forgotten name fail loudly).
     */
    public LocalDnsServer nxdomainForEveryOtherName() {
        otherwise = new Zone(Behaviour.NXDOMAIN, List.of(), -1, 0);
        return this;
    }

    /** Never answers a name not configured, as a resolver that drops queries it cannot forward. */
    public LocalDnsServer silentForEveryOtherName() {
        otherwise = new Zone(Behaviour.SILENT, List.of(), -1, 0);
        return this;
    }

    /**
     * Answers the check crawl-errors makes of a resolver before its answers count (the default
     * canary, {@code 66.249.66.1=crawl-*.googlebot.com}) as Google's DNS does.
     */
    public LocalDnsServer answersTheCanary() {
        return ptr(CANARY_IP, CANARY_NAME, 3600).a(CANARY_NAME, CANARY_IP, 3600);
    }

    public static final String CANARY_IP = "66.249.66.1";
    public static final String CANARY_NAME = "crawl-66-249-66-1.googlebot.com";

    /** The reverse name of {@code ip}, as a name to configure or count. */
    public static String reverseName(String ip) {
        return reverse(ip).toString();
    }

    /** Queries received for {@code owner}, of any type. */
    int queries(String owner) {
        AtomicInteger count = queriesByName.get(name(owner));
        return count == null ? 0 : count.get();
    }

    /** Queries received for the reverse name of {@code ip}. */
    int ptrQueries(String ip) {
        return queries(reverseName(ip));
    }

    public long totalQueries() {
        return queries.get();
    }

    /** Notes the source port of every query from now on (a long run would fill memory with them). */
    LocalDnsServer recordClientPorts() {
        recordPorts = true;
        return this;
    }

    /** The source port of every query received since {@link #recordClientPorts}, in the order they came. */
    List<Integer> clientPorts() {
        return List.copyOf(clientPorts);
    }

    /** The most queries received and not yet answered at any one time (silent names aside). */
    public int maxOutstanding() {
        return maxOutstanding.get();
    }

    @Override
    public void close() throws IOException {
        channel.close();
        tcp.close();
        delayer.shutdownNow();
        try {
            receiver.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private LocalDnsServer add(Record record) {
        zones.compute(record.getName(), (owner, zone) -> {
            List<Record> records = new ArrayList<>(zone == null || zone.behaviour != Behaviour.RECORDS ? List.of() : zone.records);
            records.add(record);
            return new Zone(Behaviour.RECORDS, List.copyOf(records), zone == null ? -1 : zone.negativeTtl, 0);
        });
        return this;
    }

    private LocalDnsServer set(Name owner, Zone zone) {
        zones.put(owner, zone);
        return this;
    }

    private void receive() {
        ByteBuffer buffer = ByteBuffer.allocate(65_535);
        while (channel.isOpen()) {
            SocketAddress client;
            byte[] packet;
            try {
                buffer.clear();
                client = channel.receive(buffer);
                buffer.flip();
                packet = new byte[buffer.remaining()];
                buffer.get(packet);
            } catch (ClosedChannelException closed) {
                return;
            } catch (IOException e) {
                continue;
            }
            respond(client, packet);
        }
    }

    private void respond(SocketAddress client, byte[] packet) {
        Message query;
        try {
            query = new Message(packet);
        } catch (IOException notDns) {
            return;
        }
        Record question = query.getQuestion();
        if (question == null) {
            return;
        }
        queries.incrementAndGet();
        queriesByName.computeIfAbsent(question.getName(), n -> new AtomicInteger()).incrementAndGet();
        if (recordPorts) {
            clientPorts.add(((InetSocketAddress) client).getPort());
        }
        Zone zone = zones.get(question.getName());
        if (zone == null) {
            zone = otherwise;
        }
        if (zone != null && zone.behaviour == Behaviour.SILENT) {
            return;
        }
        maxOutstanding.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
        Message full = answer(query, question, zone);
        if (truncated.contains(question.getName())) {
            full.removeAllRecords(Section.ANSWER);
            full.removeAllRecords(Section.AUTHORITY);
            full.getHeader().setFlag(Flags.TC);
        }
        byte[] real = full.toWire();
        Forged forged = forgeries.get(question.getName());
        byte[] forgery = forged == null ? null : forgery(query, question, forged).toWire();
        Runnable reply = () -> {
            if (forgery != null) {
                sendForged(client, forgery);
            }
            send(client, real);
        };
        if (holdBatch > 0) {
            List<Held> batch = null;
            synchronized (held) {
                held.add(new Held(client, real));
                if (held.size() >= holdBatch) {
                    batch = new ArrayList<>(held);
                    held.clear();
                }
            }
            if (batch != null) {
                for (int i = batch.size() - 1; i >= 0; i--) {
                    send(batch.get(i).client, batch.get(i).response);
                }
            }
            return;
        }
        CompletableFuture<Void> waitFor = gate;
        if (waitFor != null) {
            waitFor.thenRun(reply);
            return;
        }
        long delay = delayNanos;
        if (delay > 0) {
            try {
                delayer.schedule(reply, delay, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                // the server is closing; the query goes unanswered
            }
        } else {
            reply.run();
        }
    }

    /** Serves each TCP connection on its own thread: length-prefixed queries in, whole answers out. */
    private void acceptTcp() {
        while (true) {
            SocketChannel connection;
            try {
                connection = tcp.accept();
            } catch (IOException closed) {
                return;
            }
            Thread serving = new Thread(() -> serveTcp(connection), "local-dns-tcp-connection");
            serving.setDaemon(true);
            serving.start();
        }
    }

    private void serveTcp(SocketChannel connection) {
        try (connection) {
            ByteBuffer length = ByteBuffer.allocate(2);
            while (true) {
                length.clear();
                if (!readFully(connection, length)) {
                    return;
                }
                ByteBuffer packet = ByteBuffer.allocate(length.getShort(0) & 0xFFFF);
                if (!readFully(connection, packet)) {
                    return;
                }
                Message query = new Message(packet.array());
                Record question = query.getQuestion();
                tcpQueries.incrementAndGet();
                byte[] response = answer(query, question, zones.get(question.getName())).toWire();
                ByteBuffer out = ByteBuffer.allocate(2 + response.length).putShort((short) response.length).put(response).flip();
                while (out.hasRemaining()) {
                    connection.write(out);
                }
            }
        } catch (IOException e) {
            // the client closed the connection or sent something that is not DNS
        }
    }

    private static boolean readFully(SocketChannel connection, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (connection.read(buffer) < 0) {
                return false;
            }
        }
        return true;
    }

    private static Message forgery(Message query, Record question, Forged forged) {
        int id = query.getHeader().getID();
        Message fake = new Message(forged.forgery == Forgery.WRONG_ID ? (id + 1) & 0xFFFF : id);
        if (forged.forgery != Forgery.NOT_A_RESPONSE) {
            fake.getHeader().setFlag(Flags.QR);
        }
        fake.getHeader().setFlag(Flags.RA);
        Name name = forged.forgery == Forgery.WRONG_NAME ? name("forged." + question.getName()) : question.getName();
        int type = forged.forgery == Forgery.WRONG_TYPE ? (question.getType() == Type.A ? Type.AAAA : Type.A) : question.getType();
        int dclass = forged.forgery == Forgery.WRONG_CLASS ? DClass.CH : question.getDClass();
        fake.addRecord(Record.newRecord(name, type, dclass), Section.QUESTION);
        fake.addRecord(new ARecord(question.getName(), DClass.IN, 3600, forged.address), Section.ANSWER);
        return fake;
    }

    private void sendForged(SocketAddress client, byte[] forgery) {
        try {
            channel.send(ByteBuffer.wrap(forgery), client);
        } catch (IOException e) {
            // the client went away or the server is closing
        }
    }

    private Message answer(Message query, Record question, Zone zone) {
        Message response = new Message(query.getHeader().getID());
        response.getHeader().setFlag(Flags.QR);
        response.getHeader().setFlag(Flags.AA);
        response.getHeader().setFlag(Flags.RA);
        if (query.getHeader().getFlag(Flags.RD)) {
            response.getHeader().setFlag(Flags.RD);
        }
        response.addRecord(question, Section.QUESTION);
        if (zone == null) {
            response.getHeader().setRcode(Rcode.REFUSED);
            return response;
        }
        switch (zone.behaviour) {
            case RCODE -> response.getHeader().setRcode(zone.rcode);
            case NXDOMAIN -> {
                response.getHeader().setRcode(Rcode.NXDOMAIN);
                addSoa(response, question.getName(), zone);
            }
            default -> {
                // Follows CNAMEs as a recursive resolver would, a few hops at most.
                Zone current = zone;
                for (int hop = 0; hop < 8 && current != null; hop++) {
                    boolean found = false;
                    Name next = null;
                    for (Record record : current.records) {
                        if (record.getType() == question.getType()) {
                            response.addRecord(record, Section.ANSWER);
                            found = true;
                        } else if (record instanceof CNAMERecord cname) {
                            response.addRecord(record, Section.ANSWER);
                            next = cname.getTarget();
                        }
                    }
                    if (found || next == null || !recursive) {
                        break;
                    }
                    current = zones.get(next);
                }
                if (response.getSection(Section.ANSWER).isEmpty()) {
                    addSoa(response, question.getName(), zone);
                }
            }
        }
        return response;
    }

    private static void addSoa(Message response, Name owner, Zone zone) {
        if (zone.negativeTtl >= 0) {
            Name apex = owner.labels() > 2 ? new Name(owner, owner.labels() - 3) : owner;
            response.addRecord(new SOARecord(apex, DClass.IN, zone.negativeTtl, ZONE_SOA_HOST, ZONE_SOA_ADMIN,
                    1, 3600, 600, 86400, zone.negativeTtl), Section.AUTHORITY);
        }
    }

    private void send(SocketAddress client, byte[] response) {
        outstanding.decrementAndGet();
        try {
            channel.send(ByteBuffer.wrap(response), client);
        } catch (IOException e) {
            // the client went away or the server is closing; a test will notice the missing answer
        }
    }

    private static Name reverse(String ip) {
        try {
            return ReverseMap.fromAddress(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + ip + "' is not an IP address", e);
        }
    }

    private static InetAddress address(String ip) {
        try {
            return Address.getByAddress(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + ip + "' is not an IP address", e);
        }
    }

    private static Name name(String text) {
        try {
            return Name.fromString(text, Name.root);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a DNS name", e);
        }
    }

    private enum Behaviour { RECORDS, NXDOMAIN, RCODE, SILENT }

    /**
     * How a forged answer differs from what the query asked; otherwise it is a well-formed answer
     * from the server's address and port, whose A record gives the name the forger's address.
     */
    public enum Forgery {
        /** The message ID is the query's plus one. */
        WRONG_ID,
        /** The question's name has an extra first label, {@code forged}. */
        WRONG_NAME,
        /** The question asks for AAAA instead of A (or A instead of anything else). */
        WRONG_TYPE,
        /** The question's class is CHAOS instead of IN. */
        WRONG_CLASS,
        /** The QR flag is clear: a query, not a response. */
        NOT_A_RESPONSE
    }

    private record Forged(Forgery forgery, InetAddress address) {
    }

    private record Held(SocketAddress client, byte[] response) {
    }

    /** What the server knows about one name. */
    private record Zone(Behaviour behaviour, List<Record> records, long negativeTtl, int rcode) {
    }
}
