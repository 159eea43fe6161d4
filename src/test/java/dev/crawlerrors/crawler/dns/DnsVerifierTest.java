package dev.crawlerrors.crawler.dns;

import dev.crawlerrors.crawler.CrawlerCatalog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.crawler.dns.DnsEvidence.Outcome;
import dev.crawlerrors.crawler.dns.LocalDnsServer.Forgery;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.xbill.DNS.Rcode;

/** Reverse-then-forward DNS checks against a real DNS server on loopback. */
class DnsVerifierTest {

    private static final CrawlerCatalog CATALOG = CrawlerCatalog.builtIn();
    private static final List<String> GOOGLE = CATALOG.crawler("Googlebot Desktop").orElseThrow().dnsDomains();
    private static final List<String> BING = CATALOG.crawler("Bingbot").orElseThrow().dnsDomains();
    private static final List<String> APPLE = CATALOG.crawler("Applebot").orElseThrow().dnsDomains();
    private static final long SECOND = 1_000_000_000L;

    /** The cache's clock; tests move it instead of sleeping. */
    private final AtomicLong nanos = new AtomicLong(1_000 * SECOND);
    private final List<DnsVerifier> verifiers = new ArrayList<>();
    private LocalDnsServer server;
    private DnsVerifier verifier;

    @BeforeEach
    void start() throws Exception {
        server = new LocalDnsServer();
        verifier = verifier(Duration.ofSeconds(2), 16);
    }

    @AfterEach
    void stop() throws Exception {
        verifiers.forEach(DnsVerifier::close);
        server.close();
    }

    @Test
    void confirmsGooglebotWhosePtrResolvesBackToItsAddress() throws Exception {
        server.ptr("66.249.66.1", "crawl-66-249-66-1.googlebot.com", 3600)
                .a("crawl-66-249-66-1.googlebot.com", "66.249.66.1", 300);

        assertThat(check("66.249.66.1", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR crawl-66-249-66-1.googlebot.com, forward-confirmed"));
    }

    @Test
    void keepsTheAnswersTheEvidenceRestsOn() throws Exception {
        server.ptr("66.249.66.1", "crawl-66-249-66-1.googlebot.com", 3600)
                .a("crawl-66-249-66-1.googlebot.com", "66.249.66.1", 300)
                .nxdomain(LocalDnsServer.reverseName("203.0.113.9"));

        assertThat(verifier.check("66.249.66.1", GOOGLE).get(5, TimeUnit.SECONDS).answers()).containsExactly(
                "PTR 1.66.249.66.in-addr.arpa: crawl-66-249-66-1.googlebot.com",
                "A crawl-66-249-66-1.googlebot.com: 66.249.66.1");
        assertThat(verifier.check("203.0.113.9", GOOGLE).get(5, TimeUnit.SECONDS).answers()).containsExactly(
                "PTR 9.113.0.203.in-addr.arpa: NXDOMAIN");
    }

    @Test
    void refutesASpoofedPtrWhoseNameResolvesToAnotherAddress() throws Exception {
        // Whoever holds 1.2.3.4 writes its PTR; only Google writes googlebot.com.
        server.ptr("1.2.3.4", "crawl-1-2-3-4.googlebot.com", 3600)
                .a("crawl-1-2-3-4.googlebot.com", "5.6.7.8", 300);

        assertThat(check("1.2.3.4", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR crawl-1-2-3-4.googlebot.com does not resolve back to 1.2.3.4 (A: 5.6.7.8)"));
    }

    @ParameterizedTest
    @EnumSource(value = Forgery.class, names = {"WRONG_ID", "WRONG_NAME"})
    void refutesByTheRealForwardAnswerWhenAForgedOneConfirmingComesFirst(Forgery forgery) throws Exception {
        server.ptr("1.2.3.4", "crawl-1-2-3-4.googlebot.com", 3600)
                .a("crawl-1-2-3-4.googlebot.com", "5.6.7.8", 300)
                .forge("crawl-1-2-3-4.googlebot.com", forgery, "1.2.3.4");

        assertThat(check("1.2.3.4", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR crawl-1-2-3-4.googlebot.com does not resolve back to 1.2.3.4 (A: 5.6.7.8)"));
    }

    @Test
    void asksAgainOverTcpWhenTheUdpAnswerIsTruncated() throws Exception {
        server.ptr("66.249.66.1", "crawl-66-249-66-1.googlebot.com", 3600)
                .a("crawl-66-249-66-1.googlebot.com", "66.249.66.1", 300)
                .truncateOverUdp("crawl-66-249-66-1.googlebot.com");

        assertThat(check("66.249.66.1", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR crawl-66-249-66-1.googlebot.com, forward-confirmed"));
        assertThat(server.tcpQueries()).as("the A query, again over TCP").isEqualTo(1);
        assertThat(server.totalQueries()).as("PTR and A over UDP").isEqualTo(2);
    }

    @Test
    void refutesAPtrNameThatDoesNotExist() throws Exception {
        server.ptr("1.2.3.4", "crawl-1-2-3-4.googlebot.com", 3600)
                .nxdomain("crawl-1-2-3-4.googlebot.com");

        assertThat(check("1.2.3.4", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR crawl-1-2-3-4.googlebot.com does not resolve back to 1.2.3.4 (A: NXDOMAIN)"));
    }

    @Test
    void refutesAPtrInALookAlikeDomainWithoutAskingForItsAddress() throws Exception {
        // The attacker owns evilgooglebot.com, so its A record would happily point back.
        server.ptr("198.51.100.7", "crawl-66-249-66-1.evilgooglebot.com", 3600)
                .a("crawl-66-249-66-1.evilgooglebot.com", "198.51.100.7", 300);

        assertThat(check("198.51.100.7", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR crawl-66-249-66-1.evilgooglebot.com is not in crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com"));
        assertThat(server.queries("crawl-66-249-66-1.evilgooglebot.com")).isZero();
    }

    @Test
    void refutesAGoogleCloudMachineWhoseForwardConfirmedNameIsGooglesButNotAGooglebotName() throws Exception {
        // every Google Cloud VM has such a name, and its forward lookup confirms it
        server.ptr("34.118.1.2", "2.1.118.34.bc.googleusercontent.com", 3600).a("2.1.118.34.bc.googleusercontent.com", "34.118.1.2", 300)
                .ptr("34.118.1.3", "crawl-34-118-1-3.google.com", 3600).a("crawl-34-118-1-3.google.com", "34.118.1.3", 300);

        assertThat(check("34.118.1.2", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR 2.1.118.34.bc.googleusercontent.com is not in crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com"));
        assertThat(check("34.118.1.3", GOOGLE).outcome()).isEqualTo(Outcome.REFUTED);
        assertThat(server.queries("2.1.118.34.bc.googleusercontent.com")).isZero();
    }

    @Test
    void confirmsGooglebotFromItsGeoCrawlName() throws Exception {
        server.ptr("66.249.90.1", "geo-crawl-66-249-90-1.geo.googlebot.com", 3600)
                .a("geo-crawl-66-249-90-1.geo.googlebot.com", "66.249.90.1", 300);

        assertThat(check("66.249.90.1", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR geo-crawl-66-249-90-1.geo.googlebot.com, forward-confirmed"));
    }

    @Test
    void refutesAPtrOutsideTheOperatorsDomains() throws Exception {
        server.ptr("203.0.113.12", "vps-12.example.net", 3600);

        assertThat(check("203.0.113.12", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR vps-12.example.net is not in crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com"));
    }

    @Test
    void refutesAnAddressWithoutPtr() throws Exception {
        server.nxdomain(LocalDnsServer.reverseName("203.0.113.9"));

        assertThat(check("203.0.113.9", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "no PTR for 203.0.113.9 (NXDOMAIN)"));
    }

    @Test
    void refutesAnAddressWhosePtrAnswerIsEmpty() throws Exception {
        server.empty(LocalDnsServer.reverseName("203.0.113.10"));

        assertThat(check("203.0.113.10", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "no PTR for 203.0.113.10 (empty answer)"));
    }

    @Test
    void failsWhenTheResolverAnswersServfail() throws Exception {
        server.rcode(LocalDnsServer.reverseName("66.249.66.2"), Rcode.SERVFAIL);

        assertThat(check("66.249.66.2", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.FAILED,
                "DNS answered SERVFAIL for the PTR of 66.249.66.2"));
    }

    @Test
    void failsWhenTheForwardLookupIsRefused() throws Exception {
        server.ptr("66.249.66.4", "crawl-66-249-66-4.googlebot.com", 3600)
                .rcode("crawl-66-249-66-4.googlebot.com", Rcode.REFUSED);

        assertThat(check("66.249.66.4", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.FAILED,
                "DNS answered REFUSED for the A of crawl-66-249-66-4.googlebot.com"));
    }

    @Test
    void failsWhenTheResolverNeverAnswers() throws Exception {
        DnsVerifier impatient = verifier(Duration.ofMillis(300), 16);
        server.silent(LocalDnsServer.reverseName("66.249.66.3"));

        long started = System.nanoTime();
        DnsEvidence evidence = impatient.check("66.249.66.3", GOOGLE).get(5, TimeUnit.SECONDS).withoutAnswers();

        assertThat(evidence).isEqualTo(new DnsEvidence(Outcome.FAILED,
                "DNS timed out after 300 ms asking " + server.address() + " for the PTR of 66.249.66.3"));
        // gave up at its timeout rather than waiting on; the bound leaves room for a loaded machine
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("gave up on time").isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void failsWhenNothingListensAtTheResolversAddress() throws Exception {
        int closedPort;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            closedPort = probe.getLocalPort();
        }
        DnsVerifier nowhere = track(new DnsVerifier("127.0.0.1:" + closedPort, Duration.ofSeconds(2), 4, 100, 100, nanos::get));

        DnsEvidence evidence = nowhere.check("66.249.66.1", GOOGLE).get(5, TimeUnit.SECONDS);

        assertThat(evidence.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(evidence.reason()).startsWith("DNS could not ask 127.0.0.1:" + closedPort + " (nothing listens at that port)")
                .endsWith(" for the PTR of 66.249.66.1");
    }

    @Test
    void confirmsIpv6GooglebotByItsAaaaRecord() throws Exception {
        server.ptr("2001:4860:4801:2008::1", "crawl-2001-4860-4801-2008--1.googlebot.com", 3600)
                .aaaa("crawl-2001-4860-4801-2008--1.googlebot.com", "2001:4860:4801:2008::1", 300);

        assertThat(check("2001:4860:4801:2008::1", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR crawl-2001-4860-4801-2008--1.googlebot.com, forward-confirmed"));
        assertThat(server.ptrQueries("2001:4860:4801:2008::1")).isEqualTo(1);
    }

    @Test
    void comparesIpv6AddressesAsAddressesNotText() throws Exception {
        server.ptr("2001:4860:4801:2008::1", "crawl-2001-4860-4801-2008--1.googlebot.com", 3600)
                .aaaa("crawl-2001-4860-4801-2008--1.googlebot.com", "2001:4860:4801:2008::1", 300);

        assertThat(check("2001:4860:4801:2008:0:0:0:0001", GOOGLE).outcome()).isEqualTo(Outcome.CONFIRMED);
    }

    @Test
    void refutesIpv6WhoseNameResolvesElsewhereAndShowsTheAddressCompressed() throws Exception {
        server.ptr("2001:db8::66", "crawl-2001-4860-4801-2008--1.googlebot.com", 3600)
                .aaaa("crawl-2001-4860-4801-2008--1.googlebot.com", "2001:4860:4801:2008::1", 300);

        assertThat(check("2001:db8::66", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR crawl-2001-4860-4801-2008--1.googlebot.com does not resolve back to 2001:db8::66"
                        + " (AAAA: 2001:4860:4801:2008::1)"));
    }

    @Test
    void checksAnIpv4MappedAddressAsIpv4() throws Exception {
        server.ptr("66.249.66.1", "crawl-66-249-66-1.googlebot.com", 3600)
                .a("crawl-66-249-66-1.googlebot.com", "66.249.66.1", 300);

        assertThat(check("::ffff:66.249.66.1", GOOGLE).outcome()).isEqualTo(Outcome.CONFIRMED);
    }

    @Test
    void confirmsBingbotByDnsAlone() throws Exception {
        server.ptr("157.55.39.1", "msnbot-157-55-39-1.search.msn.com", 3600)
                .a("msnbot-157-55-39-1.search.msn.com", "157.55.39.1", 300);

        assertThat(check("157.55.39.1", BING)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR msnbot-157-55-39-1.search.msn.com, forward-confirmed"));
    }

    @Test
    void refutesGooglebotPtrForAnAddressClaimingBingbot() throws Exception {
        server.ptr("66.249.66.1", "crawl-66-249-66-1.googlebot.com", 3600)
                .a("crawl-66-249-66-1.googlebot.com", "66.249.66.1", 300);

        assertThat(check("66.249.66.1", BING)).isEqualTo(new DnsEvidence(Outcome.REFUTED,
                "PTR crawl-66-249-66-1.googlebot.com is not in *.search.msn.com"));
    }

    @Test
    void matchesDomainsCaseInsensitively() throws Exception {
        server.ptr("17.58.101.179", "17-58-101-179.AppleBot.Apple.COM", 3600)
                .a("17-58-101-179.applebot.apple.com", "17.58.101.179", 300);

        assertThat(check("17.58.101.179", APPLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR 17-58-101-179.AppleBot.Apple.COM, forward-confirmed"));
    }

    @Test
    void followsACnameInTheForwardAnswer() throws Exception {
        server.ptr("66.249.66.5", "crawl-66-249-66-5.googlebot.com", 3600)
                .cname("crawl-66-249-66-5.googlebot.com", "pool-7.googlebot.com", 300)
                .a("pool-7.googlebot.com", "66.249.66.5", 300);

        assertThat(check("66.249.66.5", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR crawl-66-249-66-5.googlebot.com, forward-confirmed"));
        assertThat(verifier.queriesSent()).as("the resolver followed the CNAME; no second forward query").isEqualTo(2);
    }

    @Test
    void asksTheTargetOfACnameTheResolverDidNotFollow() throws Exception {
        server.withoutRecursion()
                .ptr("66.249.66.6", "crawl-66-249-66-6.googlebot.com", 3600)
                .cname("crawl-66-249-66-6.googlebot.com", "pool-8.googlebot.com", 300)
                .a("pool-8.googlebot.com", "66.249.66.6", 300);

        assertThat(check("66.249.66.6", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR crawl-66-249-66-6.googlebot.com, forward-confirmed"));
        assertThat(server.queries("pool-8.googlebot.com")).isEqualTo(1);
    }

    @Test
    void confirmsWhenOneOfSeveralPtrNamesResolvesBack() throws Exception {
        server.ptr("66.249.66.8", "old-name.example.net", 3600)
                .ptr("66.249.66.8", "crawl-66-249-66-8.googlebot.com", 3600)
                .a("crawl-66-249-66-8.googlebot.com", "66.249.66.8", 300);

        assertThat(check("66.249.66.8", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.CONFIRMED,
                "PTR crawl-66-249-66-8.googlebot.com, forward-confirmed"));
    }

    @Test
    void answersASecondCheckOfTheSameAddressFromTheCache() throws Exception {
        googlebot("66.249.66.1", 3600, 300);
        check("66.249.66.1", GOOGLE);

        DnsEvidence again = check("66.249.66.1", GOOGLE);

        assertThat(again.outcome()).isEqualTo(Outcome.CONFIRMED);
        assertThat(server.totalQueries()).isEqualTo(2);
        assertThat(verifier.queriesSent()).isEqualTo(2);
        assertThat(verifier.cacheHits()).isEqualTo(2);
    }

    @Test
    void asksAgainOnlyForTheAnswerWhoseTtlRanOut() throws Exception {
        googlebot("66.249.66.1", 3600, 60);
        check("66.249.66.1", GOOGLE);

        nanos.addAndGet(59 * SECOND);
        check("66.249.66.1", GOOGLE);
        assertThat(server.totalQueries()).as("both answers still fresh").isEqualTo(2);

        nanos.addAndGet(2 * SECOND);
        assertThat(check("66.249.66.1", GOOGLE).outcome()).isEqualTo(Outcome.CONFIRMED);
        assertThat(server.ptrQueries("66.249.66.1")).as("PTR lives an hour").isEqualTo(1);
        assertThat(server.queries("crawl-66-249-66-1.googlebot.com")).as("A lived a minute").isEqualTo(2);
    }

    @Test
    void keepsAPositiveAnswerADayAtMost() throws Exception {
        googlebot("66.249.66.1", 7 * 86_400, 7 * 86_400);
        check("66.249.66.1", GOOGLE);

        nanos.addAndGet((86_400 - 1) * SECOND);
        check("66.249.66.1", GOOGLE);
        assertThat(server.totalQueries()).isEqualTo(2);

        nanos.addAndGet(2 * SECOND);
        check("66.249.66.1", GOOGLE);
        assertThat(server.totalQueries()).isEqualTo(4);
    }

    @Test
    void keepsNxdomainForTheSoaNegativeTtl() throws Exception {
        server.nxdomain(LocalDnsServer.reverseName("203.0.113.9"), 600);
        check("203.0.113.9", GOOGLE);

        nanos.addAndGet(599 * SECOND);
        assertThat(check("203.0.113.9", GOOGLE).reason()).isEqualTo("no PTR for 203.0.113.9 (NXDOMAIN)");
        assertThat(server.ptrQueries("203.0.113.9")).isEqualTo(1);

        nanos.addAndGet(2 * SECOND);
        check("203.0.113.9", GOOGLE);
        assertThat(server.ptrQueries("203.0.113.9")).isEqualTo(2);
    }

    @Test
    void keepsNxdomainWithoutSoaForAnHour() throws Exception {
        server.nxdomain(LocalDnsServer.reverseName("203.0.113.9"));
        check("203.0.113.9", GOOGLE);

        nanos.addAndGet(3_599 * SECOND);
        check("203.0.113.9", GOOGLE);
        assertThat(server.ptrQueries("203.0.113.9")).isEqualTo(1);

        nanos.addAndGet(2 * SECOND);
        check("203.0.113.9", GOOGLE);
        assertThat(server.ptrQueries("203.0.113.9")).isEqualTo(2);
    }

    @Test
    void doesNotCacheAFailure() throws Exception {
        server.rcode(LocalDnsServer.reverseName("66.249.66.2"), Rcode.SERVFAIL);
        check("66.249.66.2", GOOGLE);

        assertThat(check("66.249.66.2", GOOGLE).outcome()).isEqualTo(Outcome.FAILED);
        assertThat(server.ptrQueries("66.249.66.2")).isEqualTo(2);
        assertThat(verifier.cacheHits()).isZero();
    }

    @Test
    void sharesOneQueryAmongIdenticalChecksInFlight() throws Exception {
        server.delay(Duration.ofMillis(50));
        googlebot("66.249.66.1", 3600, 300);

        List<CompletableFuture<DnsEvidence>> checks = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            checks.add(verifier.check("66.249.66.1", GOOGLE));
        }

        for (CompletableFuture<DnsEvidence> check : checks) {
            assertThat(check.get(5, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.CONFIRMED);
        }
        assertThat(server.totalQueries()).isEqualTo(2);
        assertThat(verifier.queriesShared()).as("19 joined the PTR query, then the A query").isEqualTo(38);
    }

    @Test
    void neverHasMoreQueriesInFlightThanItsBound() throws Exception {
        server.delay(Duration.ofMillis(50));
        DnsVerifier bounded = verifier(Duration.ofSeconds(5), 4);
        List<CompletableFuture<DnsEvidence>> checks = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            googlebot("66.249.64." + i, 3600, 300);
        }

        for (int i = 1; i <= 50; i++) {
            checks.add(bounded.check("66.249.64." + i, GOOGLE));
        }

        assertThat(bounded.queriesWaiting()).as("queued, not blocking the caller").isEqualTo(46);
        for (CompletableFuture<DnsEvidence> check : checks) {
            assertThat(check.get(10, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.CONFIRMED);
        }
        assertThat(server.totalQueries()).isEqualTo(100);
        assertThat(server.maxOutstanding()).isEqualTo(4);
    }

    @Test
    void failsInsteadOfThrowingOnSomethingThatIsNotAnAddress() throws Exception {
        assertThat(check("crawl-66-249-66-1.googlebot.com", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.FAILED,
                "'crawl-66-249-66-1.googlebot.com' is not an IP address"));
        assertThat(check(null, GOOGLE)).isEqualTo(new DnsEvidence(Outcome.FAILED, "'null' is not an IP address"));
        assertThat(check("66.249.66.1", List.of())).isEqualTo(new DnsEvidence(Outcome.FAILED,
                "no DNS domains to verify against; 66.249.66.1 was not checked"));
        assertThat(server.totalQueries()).isZero();
    }

    @Test
    void failsEveryCheckAfterItIsClosed() throws Exception {
        verifier.close();

        assertThat(check("66.249.66.1", GOOGLE)).isEqualTo(new DnsEvidence(Outcome.FAILED,
                "the DNS verifier is closed; 66.249.66.1 was not checked"));
    }

    @Test
    void readsTheDnsServerOption() {
        assertThat(DnsVerifier.serverAddress("127.0.0.1")).isEqualTo(new InetSocketAddress("127.0.0.1", 53));
        assertThat(DnsVerifier.serverAddress("127.0.0.1:5353")).isEqualTo(new InetSocketAddress("127.0.0.1", 5353));
        assertThat(DnsVerifier.serverAddress("[::1]:5353")).isEqualTo(new InetSocketAddress("::1", 5353));
        assertThat(DnsVerifier.serverAddress("::1")).isEqualTo(new InetSocketAddress("::1", 53));
        assertThatThrownBy(() -> DnsVerifier.serverAddress("127.0.0.1:dns"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("DNS server '127.0.0.1:dns' has port 'dns'; expected 1 to 65535");
        assertThatThrownBy(() -> DnsVerifier.serverAddress(":53"))
                .hasMessage("DNS server ':53' has no host; expected host[:port]");
        assertThatThrownBy(() -> DnsVerifier.serverAddress("[::1"))
                .hasMessage("DNS server '[::1' is not [IPv6-address] or [IPv6-address]:port");
    }

    @Test
    void namesTheResolverItAsks() {
        assertThat(verifier.server()).isEqualTo(server.address());
        assertThat(track(new DnsVerifier("[::1]:5353", Duration.ofSeconds(1), 1, 1, 1)).server()).isEqualTo("[::1]:5353");
    }

    private void googlebot(String ip, long ptrTtl, long aTtl) {
        String name = "crawl-" + ip.replace('.', '-') + ".googlebot.com";
        server.ptr(ip, name, ptrTtl).a(name, ip, aTtl);
    }

    private DnsEvidence check(String ip, List<String> domains) throws Exception {
        return verifier.check(ip, domains).get(5, TimeUnit.SECONDS).withoutAnswers();
    }

    private DnsVerifier verifier(Duration timeout, int maxInFlight) {
        return track(new DnsVerifier(server.address(), timeout, maxInFlight, 1_000, 1_000, nanos::get));
    }

    private DnsVerifier track(DnsVerifier v) {
        verifiers.add(v);
        return v;
    }
}
