package dev.crawlerrors.crawler.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.dns.LocalDnsServer.Forgery;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/** The pooled UDP client against a real DNS server on loopback. */
class PooledUdpClientTest {

    private static final Duration PATIENT = Duration.ofSeconds(5);
    private static final Duration LONG = Duration.ofMinutes(10);

    private final List<PooledUdpClient> clients = new ArrayList<>();
    private LocalDnsServer server;
    private InetSocketAddress serverAddress;

    @BeforeEach
    void start() throws Exception {
        server = new LocalDnsServer().recordClientPorts();
        serverAddress = DnsVerifier.serverAddress(server.address());
    }

    @AfterEach
    void stop() throws Exception {
        clients.forEach(PooledUdpClient::close);
        server.close();
    }

    @Test
    void matchesEachAnswerToItsQueryWhenManyAreOutstandingOnOneSocket() throws Exception {
        PooledUdpClient client = client(1, 1_000, LONG);
        server.answerInReverse(50);
        List<CompletableFuture<byte[]>> answers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            server.a("host-" + i + ".example.com", "192.0.2." + i, 300);
            answers.add(ask(client, "host-" + i + ".example.com", PATIENT));
        }

        for (int i = 0; i < 50; i++) {
            Message answer = new Message(answers.get(i).get(5, TimeUnit.SECONDS));
            assertThat(answer.getQuestion().getName()).isEqualTo(Name.fromString("host-" + i + ".example.com."));
            assertThat(address(answer)).isEqualTo("192.0.2." + i);
        }
        assertThat(server.maxOutstanding()).as("all 50 were outstanding at once").isEqualTo(50);
        assertThat(new HashSet<>(server.clientPorts())).as("one socket").hasSize(1);
        assertThat(client.answersIgnored()).isZero();
        assertThat(client.outstanding()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Forgery.class)
    void ignoresAForgedAnswerAndTakesTheRealOneAfterIt(Forgery forgery) throws Exception {
        PooledUdpClient client = client(1, 1_000, LONG);
        server.a("crawl-66-249-66-1.googlebot.com", "66.249.66.1", 300)
                .forge("crawl-66-249-66-1.googlebot.com", forgery, "198.51.100.66");

        Message answer = new Message(ask(client, "crawl-66-249-66-1.googlebot.com", PATIENT).get(5, TimeUnit.SECONDS));

        assertThat(address(answer)).isEqualTo("66.249.66.1");
        assertThat(client.answersIgnored()).isEqualTo(1);
    }

    @Test
    void givesTheCallerItsOwnMessageIdBackWhateverIdWentOnTheWire() throws Exception {
        PooledUdpClient client = client(1, 1_000, LONG);
        server.a("host.example.com", "192.0.2.1", 300);
        Message query = Message.newQuery(Record.newRecord(Name.fromString("host.example.com."), Type.A, DClass.IN));
        query.getHeader().setID(0x1234);

        byte[] answer = client.sendAndReceiveUdp(null, serverAddress, query, query.toWire(), 512, PATIENT).get(5, TimeUnit.SECONDS);

        assertThat(new Message(answer).getHeader().getID()).isEqualTo(0x1234);
    }

    @Test
    void failsAQueryNobodyAnswersWithATimeout() throws Exception {
        PooledUdpClient client = client(1, 1_000, LONG);
        server.silent("quiet.example.com");

        CompletableFuture<byte[]> answer = ask(client, "quiet.example.com", Duration.ofMillis(50));

        assertThatThrownBy(() -> answer.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(SocketTimeoutException.class)
                .hasMessage("no answer from " + server.address() + " within 50 ms to quiet.example.com. A");
        assertThat(client.outstanding()).isZero();
    }

    @Test
    void movesToAFreshPortAfterTheSetNumberOfQueries() throws Exception {
        PooledUdpClient client = client(1, 3, LONG);
        server.a("host.example.com", "192.0.2.1", 300);

        for (int i = 0; i < 7; i++) {
            ask(client, "host.example.com", PATIENT).get(5, TimeUnit.SECONDS);
        }

        List<Integer> ports = server.clientPorts();
        assertThat(ports).hasSize(7);
        assertThat(ports.subList(0, 3)).as("first socket").containsOnly(ports.get(0));
        assertThat(ports.subList(3, 6)).as("second socket").containsOnly(ports.get(3));
        assertThat(ports.get(3)).as("second port").isNotEqualTo(ports.get(0));
        assertThat(ports.get(6)).as("third port").isNotEqualTo(ports.get(3));
        assertThat(client.socketsOpened()).isEqualTo(3);
        assertThat(client.socketsOpen()).as("the used-up ones are closed").isEqualTo(1);
    }

    @Test
    void movesToAFreshPortWhenTheSocketIsTooOld() throws Exception {
        PooledUdpClient client = client(1, 1_000, Duration.ofNanos(1));
        server.a("host.example.com", "192.0.2.1", 300);

        for (int i = 0; i < 4; i++) {
            ask(client, "host.example.com", PATIENT).get(5, TimeUnit.SECONDS);
        }

        assertThat(client.socketsOpened()).isEqualTo(4);
    }

    @Test
    void closesASocketPastItsAgeWithoutWaitingForAnotherQuery() throws Exception {
        PooledUdpClient client = client(1, 1_000, Duration.ofMillis(1));
        server.a("host.example.com", "192.0.2.1", 300);
        ask(client, "host.example.com", PATIENT).get(5, TimeUnit.SECONDS);

        Waits.await("the old socket closed").until(() -> client.socketsOpen() == 0);

        assertThat(client.socketsOpened()).isEqualTo(1);
    }

    @Test
    void handsOutItsSocketsInTurn() throws Exception {
        PooledUdpClient client = client(3, 1_000, LONG);
        server.a("host.example.com", "192.0.2.1", 300);

        for (int i = 0; i < 6; i++) {
            ask(client, "host.example.com", PATIENT).get(5, TimeUnit.SECONDS);
        }

        List<Integer> ports = server.clientPorts();
        assertThat(ports.subList(3, 6)).isEqualTo(ports.subList(0, 3));
        assertThat(new HashSet<>(ports)).hasSize(3);
        assertThat(client.socketsOpened()).isEqualTo(3);
    }

    @Test
    void keepsAUsedUpSocketOpenUntilItsLastQuerySettles() throws Exception {
        PooledUdpClient client = client(1, 1, LONG);
        server.silent("quiet.example.com").a("host.example.com", "192.0.2.1", 300);

        CompletableFuture<byte[]> unanswered = ask(client, "quiet.example.com", LONG);
        ask(client, "host.example.com", PATIENT).get(5, TimeUnit.SECONDS);

        assertThat(client.socketsOpened()).isEqualTo(2);
        assertThat(client.socketsOpen()).as("the first still waits for its answer").isEqualTo(2);
        assertThat(unanswered).isNotDone();
    }

    @Test
    void closingFailsTheOutstandingQueriesAndReleasesTheSockets() throws Exception {
        PooledUdpClient client = client(2, 1_000, LONG);
        server.silent("quiet.example.com");
        List<CompletableFuture<byte[]>> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.add(ask(client, "quiet.example.com", LONG));
        }
        awaitQueries(4);

        client.close();

        for (CompletableFuture<byte[]> answer : answers) {
            assertThatThrownBy(() -> answer.get(5, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(IOException.class)
                    .hasMessage("the DNS client for " + server.address() + " closed before the answer came");
        }
        assertThat(client.socketsOpen()).isZero();
        assertThat(client.outstanding()).isZero();
        for (int port : new HashSet<>(server.clientPorts())) {
            try (DatagramSocket reuse = new DatagramSocket(port)) {
                assertThat(reuse.getLocalPort()).as("port %d is free again", port).isEqualTo(port);
            }
        }
        assertThatThrownBy(() -> ask(client, "quiet.example.com", PATIENT).get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(IOException.class)
                .hasMessage("the DNS client for " + server.address() + " is closed");
    }

    @Test
    void failsTheQueriesOnASocketWhenNothingListensAtTheServersAddress() throws Exception {
        int closedPort;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            closedPort = probe.getLocalPort();
        }
        InetSocketAddress nowhere = new InetSocketAddress("127.0.0.1", closedPort);
        PooledUdpClient client = track(new PooledUdpClient(nowhere, 1, 1_000, LONG, "test-dns-udp"));
        Message query = query("host.example.com");

        CompletableFuture<byte[]> answer = client.sendAndReceiveUdp(null, nowhere, query, query.toWire(), 512, PATIENT);

        assertThatThrownBy(() -> answer.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(PortUnreachableException.class);
        assertThat(client.socketsOpen()).as("the failed socket is closed").isZero();
    }

    @Test
    void refusesToSendAnywhereButItsServer() throws Exception {
        PooledUdpClient client = client(1, 1_000, LONG);
        InetSocketAddress elsewhere = new InetSocketAddress("127.0.0.1", 9);
        Message query = query("host.example.com");

        CompletableFuture<byte[]> answer = client.sendAndReceiveUdp(null, elsewhere, query, query.toWire(), 512, PATIENT);

        assertThatThrownBy(() -> answer.get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("this UDP client sends only to " + server.address() + " from a port of its choosing, not to "
                        + "/127.0.0.1:9 from null");
        assertThat(client.socketsOpened()).isZero();
    }

    private PooledUdpClient client(int sockets, int queriesPerSocket, Duration maxAge) {
        return track(new PooledUdpClient(serverAddress, sockets, queriesPerSocket, maxAge, "test-dns-udp"));
    }

    private PooledUdpClient track(PooledUdpClient client) {
        clients.add(client);
        return client;
    }

    private CompletableFuture<byte[]> ask(PooledUdpClient client, String name, Duration timeout) throws Exception {
        Message query = query(name);
        return client.sendAndReceiveUdp(null, serverAddress, query, query.toWire(), 512, timeout);
    }

    private static Message query(String name) throws Exception {
        return Message.newQuery(Record.newRecord(Name.fromString(name, Name.root), Type.A, DClass.IN));
    }

    private static String address(Message answer) {
        List<Record> records = answer.getSection(Section.ANSWER);
        assertThat(records).hasSize(1);
        return ((ARecord) records.get(0)).getAddress().getHostAddress();
    }

    /** Waits until the server has received {@code count} queries, so close() finds them outstanding. */
    private void awaitQueries(long count) throws InterruptedException {
        Waits.await(count + " queries received").until(() -> server.totalQueries() >= count);
        assertThat(server.totalQueries()).isEqualTo(count);
    }
}
