package dev.crawlerrors.crawler.dns;

import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Futures;
import dev.crawlerrors.text.Threads;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.xbill.DNS.Address;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.ReverseMap;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;
import org.xbill.DNS.io.DefaultIoClientFactory;
import org.xbill.DNS.io.IoClientFactory;
import org.xbill.DNS.io.TcpIoClient;
import org.xbill.DNS.io.UdpIoClient;

/**
 * Verifies a crawler's address the way the operators document it: the PTR name of the address
 * must be in one of the operator's domains, and that name's A (IPv4) or AAAA (IPv6) records must
 * contain the address. A PTR alone proves nothing, since whoever holds an address block writes its
 * PTR records; the forward lookup is in the operator's own zone.
 *
 * <p>Contract: {@link #check} never blocks and never throws; every problem becomes
 * {@link DnsEvidence.Outcome#FAILED} evidence with a reason. Queries go over UDP to one resolver
 * through dnsjava's asynchronous {@link SimpleResolver#sendAsync}, which checks each answer's ID and
 * question and retries a truncated answer over TCP; the UDP datagrams travel through a
 * {@link PooledUdpClient}, a few long-lived sockets on random ports that are replaced after
 * {@value #QUERIES_PER_SOCKET} queries or {@value #MAX_SOCKET_AGE_SECONDS} s (its class comment
 * weighs what that costs against forged answers). At most {@code maxInFlight}
 * queries are outstanding; more wait in a queue (not on a thread). Answers are cached per question
 * for their TTL (positive at most a day; NXDOMAIN and empty answers for the SOA's negative TTL, an
 * hour without one, at most a day); failures are not cached. Identical questions asked at the same
 * time share one query.
 *
 * <p>Threads: the futures {@link #check} returns complete on this verifier's worker threads
 * (named {@code dns-verifier-N}), or are already complete when every answer came from the cache.
 * Dependent stages that do slow work should use an {@code ...Async} method with their own
 * executor, or they hold up the answers of other checks. A query is sent from the thread that
 * frees its permit: the caller's, when one is free at once (writing a datagram, now and then
 * opening a socket, neither of which waits on the network), else a worker's. UDP answers are read
 * on this verifier's {@code dns-verifier-udp} thread; the rare TCP retry goes through dnsjava's own
 * selector thread, shared by the whole JVM.
 */
public final class DnsVerifier implements AutoCloseable {

    /** PTR names in the accepted domains that are forward-checked; the rest are ignored. */
    static final int MAX_NAMES_CONFIRMED = 4;
    /** Workers parse answers and send follow-up queries; on two cores a second one measured no slower. */
    private static final int WORKER_THREADS = 2;
    private static final int MAX_DOMAIN_LISTS = 1_000;
    /**
     * UDP sockets in use at once. Each carries at most {@link #QUERIES_PER_SOCKET} queries however
     * many there are; more of them only make each live longer at a given rate (32 at 40,000
     * queries/s: 0.8 s each). 32 hold about 8 each of the benchmark's 256 queries in flight.
     */
    private static final int UDP_SOCKETS = 32;
    /** Queries one socket sends before a fresh port replaces it; 1 in 1,000 queries opens a socket. */
    static final int QUERIES_PER_SOCKET = 1_000;
    /** How long one socket is used at most, so that a quiet verifier changes ports too. */
    static final int MAX_SOCKET_AGE_SECONDS = 10;

    private final SimpleResolver resolver;
    private final PooledUdpClient udp;
    private final String serverText;
    private final long timeoutNanos;
    private final String timedOut;
    private final QueryPermits permits;
    private final DnsAnswerCache cache;
    private final Map<DnsQuestion, Pending> inFlight = new ConcurrentHashMap<>();
    private final Map<List<String>, AcceptedDomains> domainLists = new ConcurrentHashMap<>();
    private final ExecutorService workers;
    private final ScheduledThreadPoolExecutor timer;
    /** Queries sent, in order; all share one timeout, so this is also deadline order. */
    private final Queue<Pending> sent = new ConcurrentLinkedQueue<>();
    private final LongAdder queriesSent = new LongAdder();
    private final LongAdder cacheHits = new LongAdder();
    private final LongAdder queriesShared = new LongAdder();
    private volatile boolean closed;

    /**
     * A verifier on the real clock.
     *
     * @see #DnsVerifier(String, Duration, int, int, int, LongSupplier)
     */
    public DnsVerifier(String server, Duration timeout, int maxInFlight, int maxCachedAnswers, int maxCachedNegatives) {
        this(server, timeout, maxInFlight, maxCachedAnswers, maxCachedNegatives, System::nanoTime);
    }

    /**
     * @param server             the resolver to ask, {@code host}, {@code host:port},
     *                           {@code [v6-address]:port} or a bare IPv6 address; null for the
     *                           system's resolver (the first name server dnsjava's
     *                           {@code ResolverConfig} finds)
     * @param timeout            how long to wait for each answer; a query is not retried
     * @param maxInFlight        queries outstanding at most
     * @param maxCachedAnswers   positive answers kept, about
     * @param maxCachedNegatives NXDOMAIN and empty answers kept, about
     * @param nanoTime           the clock cache TTLs run on ({@link System#nanoTime} but in tests);
     *                           timeouts always use real time
     * @throws IllegalArgumentException when {@code server} is not an address (the message names it)
     *                                  or a number is out of range
     */
    public DnsVerifier(String server, Duration timeout, int maxInFlight, int maxCachedAnswers, int maxCachedNegatives,
            LongSupplier nanoTime) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the DNS timeout must be positive, not " + timeout);
        }
        this.resolver = server == null ? systemResolver() : new SimpleResolver(serverAddress(server));
        this.resolver.setTimeout(timeout);
        this.serverText = hostPort(resolver.getAddress());
        this.udp = new PooledUdpClient(resolver.getAddress(), UDP_SOCKETS, QUERIES_PER_SOCKET,
                Duration.ofSeconds(MAX_SOCKET_AGE_SECONDS), "dns-verifier-udp");
        this.resolver.setIoClientFactory(new IoClients(udp, new DefaultIoClientFactory().createOrGetTcpClient()));
        this.timeoutNanos = timeout.toNanos();
        this.timedOut = "timed out after " + timeout.toMillis() + " ms asking " + serverText;
        this.cache = new DnsAnswerCache(maxCachedAnswers, maxCachedNegatives, nanoTime);
        this.workers = Executors.newFixedThreadPool(WORKER_THREADS, Threads.numberedDaemons("dns-verifier-"));
        this.permits = new QueryPermits(maxInFlight);
        // One sweep over the queries in send order rather than a timer task per query, which costs
        // a locked heap insert and removal for every answer that comes in time.
        long tick = Math.clamp(timeoutNanos / 20, TimeUnit.MILLISECONDS.toNanos(5), TimeUnit.MILLISECONDS.toNanos(100));
        this.timer = new ScheduledThreadPoolExecutor(1, Threads.numberedDaemons("dns-verifier-timeouts-"));
        this.timer.scheduleWithFixedDelay(this::expire, tick, tick, TimeUnit.NANOSECONDS);
    }

    /**
     * Parses a {@code --dns-server} value: {@code host}, {@code host:port}, {@code [v6-address]:port}
     * or a bare IPv6 address; the port defaults to 53. A host name is looked up here, once.
     *
     * @throws IllegalArgumentException naming the value and what was expected
     */
    public static InetSocketAddress serverAddress(String hostPort) {
        String host = hostPort;
        int port = 53;
        int colon = hostPort.lastIndexOf(':');
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0 || (close + 1 < hostPort.length() && hostPort.charAt(close + 1) != ':')) {
                throw new IllegalArgumentException("DNS server '" + hostPort + "' is not [IPv6-address] or [IPv6-address]:port");
            }
            host = hostPort.substring(1, close);
            port = close + 1 < hostPort.length() ? port(hostPort, hostPort.substring(close + 2)) : 53;
        } else if (colon >= 0 && hostPort.indexOf(':') == colon) {
            // One colon: host:port. More than one is a bare IPv6 address, which has no port.
            host = hostPort.substring(0, colon);
            port = port(hostPort, hostPort.substring(colon + 1));
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("DNS server '" + hostPort + "' has no host; expected host[:port]");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("DNS server '" + hostPort + "': cannot find the address of " + host);
        }
        return address;
    }

    /**
     * Checks that {@code ip} belongs to an operator whose crawlers' PTR names match one of
     * {@code domains}, name patterns such as {@code crawl-*.googlebot.com}, {@code *.search.msn.com}
     * or a plain domain ({@link NamePattern}; always at label boundaries: {@code evilgooglebot.com}
     * is not in {@code googlebot.com}).
     *
     * @param ip      an IPv4 or IPv6 address as text; an IPv4-mapped IPv6 address is checked as IPv4
     * @param domains the accepted domains, e.g. {@code Crawler#dnsDomains()}
     * @return the evidence; never fails exceptionally
     */
    public CompletableFuture<DnsEvidence> check(String ip, List<String> domains) {
        try {
            return start(ip, domains).exceptionally(e -> DnsEvidence.failed("checking " + ip + " failed: " + Failures.message(Futures.unwrap(e))));
        } catch (RuntimeException e) {
            return done(DnsEvidence.failed("checking " + ip + " failed: " + Failures.message(e)));
        }
    }

    /** Queries sent to the resolver so far. */
    public long queriesSent() {
        return queriesSent.sum();
    }

    /** Questions answered from the cache so far. */
    public long cacheHits() {
        return cacheHits.sum();
    }

    /** Questions that joined an identical query already in flight, so far. */
    public long queriesShared() {
        return queriesShared.sum();
    }

    /** Queries waiting for one of the {@code maxInFlight} permits now. */
    public int queriesWaiting() {
        return permits.waiting();
    }

    /** Answers in the cache now, expired ones included until they are next looked at. */
    public int cachedAnswers() {
        return cache.size();
    }

    /**
     * Forgets every cached answer: a resolver found broken may have given wrong ones, which must not
     * outlive it ({@link ResolverCheck}).
     */
    public void forgetAnswers() {
        cache.clear();
    }

    /** The resolver asked, as {@code host:port}. */
    public String server() {
        return serverText;
    }

    /**
     * Stops the worker threads and closes the UDP sockets. Checks still under way complete as
     * FAILED. dnsjava's own I/O thread, used for TCP, is shared by the whole JVM and is left running.
     */
    @Override
    public void close() {
        closed = true;
        DnsAnswer closing = DnsAnswer.failed("was not asked: the DNS verifier closed, asking " + serverText);
        for (Pending pending : inFlight.values()) {
            if (pending.settled.compareAndSet(false, true)) {
                pending.future.complete(closing);
            }
        }
        inFlight.clear();
        sent.clear();
        udp.close();
        timer.shutdownNow();
        workers.shutdown();
    }

    private CompletableFuture<DnsEvidence> start(String ip, List<String> domains) {
        if (closed) {
            return done(DnsEvidence.failed("the DNS verifier is closed; " + ip + " was not checked"));
        }
        InetAddress address = parseIp(ip);
        if (address == null) {
            return done(DnsEvidence.failed("'" + ip + "' is not an IP address"));
        }
        AcceptedDomains accepted = accepted(domains);
        if (accepted.problem != null) {
            return done(DnsEvidence.failed(accepted.problem + "; " + ip + " was not checked"));
        }
        DnsQuestion ptr = new DnsQuestion(ReverseMap.fromAddress(address), Type.PTR);
        // the answers seen, in order, for whoever wants to show them (the verify command)
        List<String> answers = new ArrayList<>(3);
        return resolve(ptr, false, 0).thenCompose(answer -> {
            answers.add("PTR " + ptr.name().toString(true) + ": " + answer.describe());
            return afterPtr(ip, address, accepted, answer, answers);
        }).thenApply(evidence -> evidence.withAnswers(answers));
    }

    private CompletableFuture<DnsEvidence> afterPtr(String ip, InetAddress address, AcceptedDomains accepted, DnsAnswer ptr,
            List<String> answers) {
        switch (ptr.kind()) {
            case FAILED:
                return done(DnsEvidence.failed("DNS " + ptr.failure() + " for the PTR of " + ip));
            case NXDOMAIN:
                return done(DnsEvidence.refuted("no PTR for " + ip + " (NXDOMAIN)"));
            case NODATA:
                return done(DnsEvidence.refuted("no PTR for " + ip + " (empty answer)"));
            case CNAME:
                return done(DnsEvidence.refuted("no PTR for " + ip + " (the CNAME chain to "
                        + ptr.cnameTarget().toString(true) + " does not end)"));
            default:
                break;
        }
        List<Name> names = ptr.names();
        List<Name> inDomain = new ArrayList<>(names.size());
        for (Name name : names) {
            if (inDomain.size() < MAX_NAMES_CONFIRMED && accepted.contain(name)) {
                inDomain.add(name);
            }
        }
        if (inDomain.isEmpty()) {
            String shown = ptr.describe();
            return done(DnsEvidence.refuted(names.size() == 1
                    ? "PTR " + shown + " is not in " + accepted.text
                    : "PTRs " + shown + " are not in " + accepted.text));
        }
        return confirm(ip, address, inDomain, 0, null, null, answers);
    }

    /**
     * Forward-checks the PTR names one after another until one resolves back to the address. When
     * none does, a failure outranks a refutation: the name that could not be asked may have been
     * the one that confirms.
     */
    private CompletableFuture<DnsEvidence> confirm(String ip, InetAddress address, List<Name> names, int index,
            DnsEvidence firstFailed, DnsEvidence firstRefuted, List<String> answers) {
        Name name = names.get(index);
        int type = address instanceof Inet4Address ? Type.A : Type.AAAA;
        return resolve(new DnsQuestion(name, type), true, 0).thenCompose(forward -> {
            String shown = name.toString(true);
            answers.add(Type.string(type) + " " + shown + ": " + forward.describe());
            if (forward.kind() == DnsAnswer.Kind.RECORDS && forward.addresses().contains(address)) {
                return done(DnsEvidence.confirmed("PTR " + shown + ", forward-confirmed"));
            }
            DnsEvidence failed = firstFailed;
            DnsEvidence refuted = firstRefuted;
            if (forward.kind() == DnsAnswer.Kind.FAILED) {
                failed = failed != null ? failed
                        : DnsEvidence.failed("DNS " + forward.failure() + " for the " + Type.string(type) + " of " + shown);
            } else if (refuted == null) {
                refuted = DnsEvidence.refuted("PTR " + shown + " does not resolve back to " + ip
                        + " (" + Type.string(type) + ": " + forward.describe() + ")");
            }
            if (index + 1 < names.size()) {
                return confirm(ip, address, names, index + 1, failed, refuted, answers);
            }
            return done(failed != null ? failed : refuted);
        });
    }

    /** The answer to {@code question}, asking the targets of a CNAME chain the resolver left open. */
    private CompletableFuture<DnsAnswer> resolve(DnsQuestion question, boolean followUp, int hops) {
        CompletableFuture<DnsAnswer> answer = query(question, followUp);
        return answer.thenCompose(a -> a.kind() == DnsAnswer.Kind.CNAME && hops < DnsAnswer.MAX_CNAME_HOPS
                ? resolve(new DnsQuestion(a.cnameTarget(), question.type()), true, hops + 1)
                : answer);
    }

    /** One question: from the cache, by joining the identical query in flight, or by a new query. */
    private CompletableFuture<DnsAnswer> query(DnsQuestion question, boolean followUp) {
        DnsAnswer cached = cache.get(question);
        if (cached != null) {
            cacheHits.increment();
            return CompletableFuture.completedFuture(cached);
        }
        Pending mine = new Pending(question);
        Pending running = inFlight.putIfAbsent(question, mine);
        if (running != null) {
            queriesShared.increment();
            return running.future;
        }
        // The query we might have joined may have finished between the two looks.
        cached = cache.get(question);
        if (cached != null) {
            cacheHits.increment();
            inFlight.remove(question, mine);
            mine.future.complete(cached);
            return mine.future;
        }
        if (closed) {
            inFlight.remove(question, mine);
            mine.future.complete(DnsAnswer.failed("was not asked: the DNS verifier closed, asking " + serverText));
            return mine.future;
        }
        permits.acquire(followUp, () -> send(mine));
        return mine.future;
    }

    /** Sends the query; runs holding a permit, which {@link #settle} gives back. */
    private void send(Pending pending) {
        if (pending.settled.get()) {
            // Closed while it waited for the permit.
            permits.release();
            return;
        }
        queriesSent.increment();
        pending.deadline = System.nanoTime() + timeoutNanos;
        sent.add(pending);
        CompletionStage<Message> reply;
        try {
            reply = resolver.sendAsync(pending.question.toQuery(), workers);
        } catch (RuntimeException e) {
            settle(pending, DnsAnswer.failed(describe(e)));
            return;
        }
        reply.whenComplete((response, error) -> {
            if (response != null) {
                // dnsjava parsed the response on one of our workers; we are on it.
                settle(pending, answer(pending.question, response));
            } else {
                // Errors complete on dnsjava's I/O thread or on the sender's: leave both.
                runOnWorker(() -> settle(pending, DnsAnswer.failed(describe(error))));
            }
        });
    }

    /** Times out the queries past their deadline; runs on the timer thread every few milliseconds. */
    private void expire() {
        long now = System.nanoTime();
        for (Pending head = sent.peek(); head != null; head = sent.peek()) {
            boolean settled = head.settled.get();
            if (!settled && head.deadline - now > 0) {
                return;
            }
            sent.poll();
            if (!settled) {
                Pending late = head;
                runOnWorker(() -> settle(late, DnsAnswer.failed(timedOut)));
            }
        }
    }

    /** Completes a query once, whichever of answer, error and timeout comes first. */
    private void settle(Pending pending, DnsAnswer answer) {
        if (!pending.settled.compareAndSet(false, true)) {
            return;
        }
        cache.put(pending.question, answer);
        inFlight.remove(pending.question, pending);
        permits.release();
        pending.future.complete(answer);
    }

    private static DnsAnswer answer(DnsQuestion question, Message response) {
        try {
            return DnsAnswer.of(question, response);
        } catch (RuntimeException e) {
            return DnsAnswer.failed("answered something unreadable (" + Failures.message(e) + ")");
        }
    }

    private String describe(Throwable error) {
        Throwable cause = Futures.unwrap(error);
        if (cause instanceof SocketTimeoutException) {
            return timedOut;
        }
        return "could not ask " + serverText + " (" + Failures.message(cause) + ")";
    }

    private void runOnWorker(Runnable task) {
        try {
            workers.execute(task);
        } catch (RejectedExecutionException closing) {
            // close() has completed every query still pending; nothing is waiting for this one.
        }
    }

    private AcceptedDomains accepted(List<String> domains) {
        if (domains == null || domains.isEmpty()) {
            return new AcceptedDomains(null, "", "no DNS domains to verify against");
        }
        AcceptedDomains known = domainLists.get(domains);
        if (known != null) {
            return known;
        }
        if (domainLists.size() >= MAX_DOMAIN_LISTS) {
            domainLists.clear();
        }
        return domainLists.computeIfAbsent(List.copyOf(domains), AcceptedDomains::parse);
    }

    /** An IP address literal, without ever asking DNS; null when {@code ip} is not one. */
    private static InetAddress parseIp(String ip) {
        if (ip == null) {
            return null;
        }
        byte[] bytes = Address.toByteArray(ip, Address.IPv4);
        if (bytes == null) {
            bytes = Address.toByteArray(ip, Address.IPv6);
        }
        if (bytes == null) {
            return null;
        }
        try {
            // Maps ::ffff:a.b.c.d to an Inet4Address, so it is checked in in-addr.arpa and by A.
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            return null;
        }
    }

    private static int port(String hostPort, String port) {
        try {
            int value = Integer.parseInt(port);
            if (value >= 1 && value <= 65535) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("DNS server '" + hostPort + "' has port '" + port + "'; expected 1 to 65535");
    }

    private static SimpleResolver systemResolver() {
        try {
            return new SimpleResolver((String) null);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot find the system's DNS resolver: " + e.getMessage(), e);
        }
    }

    private static String hostPort(InetSocketAddress address) {
        InetAddress host = address.getAddress();
        String text = DnsAnswer.text(host);
        return (host instanceof Inet6Address ? "[" + text + "]" : text) + ":" + address.getPort();
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    /** A query in flight; {@code settled} makes answer, error, timeout and close race safely. */
    private static final class Pending {
        final DnsQuestion question;
        final CompletableFuture<DnsAnswer> future = new CompletableFuture<>();
        final AtomicBoolean settled = new AtomicBoolean();
        volatile long deadline;

        Pending(DnsQuestion question) {
            this.question = question;
        }
    }

    /** UDP through the pool; TCP, for truncated answers, through dnsjava's own client. */
    private record IoClients(UdpIoClient udp, TcpIoClient tcp) implements IoClientFactory {

        @Override
        public TcpIoClient createOrGetTcpClient() {
            return tcp;
        }

        @Override
        public UdpIoClient createOrGetUdpClient() {
            return udp;
        }
    }

    /** A list of accepted name patterns, parsed once. */
    private record AcceptedDomains(NamePattern[] patterns, String text, String problem) {

        static AcceptedDomains parse(List<String> domains) {
            NamePattern[] patterns = new NamePattern[domains.size()];
            for (int i = 0; i < patterns.length; i++) {
                try {
                    patterns[i] = NamePattern.parse(domains.get(i));
                } catch (IllegalArgumentException e) {
                    return new AcceptedDomains(null, "", "accepted domain " + e.getMessage());
                }
            }
            return new AcceptedDomains(patterns, String.join(", ", domains), null);
        }

        boolean contain(Name name) {
            for (NamePattern pattern : patterns) {
                if (pattern.matches(name)) {
                    return true;
                }
            }
            return false;
        }
    }
}
