package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.LocalDnsServer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.Hit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Rcode;

/** Lists and reverse-then-forward DNS together, over a real DNS server on loopback; cases from real life. */
class CrawlerVerifierTest {

    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();
    private final Crawler googlebot = catalog.crawler("Googlebot Desktop").orElseThrow();
    private final Crawler inspectionTool = catalog.crawler("Google-InspectionTool").orElseThrow();
    private final Crawler bingbot = catalog.crawler("Bingbot").orElseThrow();
    private final Crawler yandex = catalog.crawler("YandexBot").orElseThrow();
    private final Crawler gptbot = catalog.crawler("GPTBot").orElseThrow();
    private final Crawler bytespider = catalog.crawler("Bytespider").orElseThrow();

    @TempDir
    Path dir;

    private LocalDnsServer dns;
    private CrawlerVerifier verifier;
    private final List<String> changes = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        Files.writeString(dir.resolve("common-crawlers.json"), IpRangeVerifierTest.COMMON);
        Files.writeString(dir.resolve("gptbot.json"),
                "{\"creationTime\": \"2026-11-19T00:00:00\", \"prefixes\": [{\"ipv4Prefix\": \"20.171.207.0/24\"}]}");
        dns = new LocalDnsServer().answersTheCanary();
        verifier = verifierWithTimeout(Duration.ofSeconds(2));
    }

    private CrawlerVerifier verifierWithTimeout(Duration timeout) {
        CrawlerVerifier v = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())),
                new DnsVerifier(dns.address(), timeout, 16, 1000, 1000));
        v.onChange((ip, crawler, verdict) -> changes.add(ip + " " + crawler.name() + " " + verdict.verification()));
        // as serve does at its start: the provisional verdicts below are those of claims whose lists are read
        v.lists().loadAll();
        return v;
    }

    @AfterEach
    void stop() throws Exception {
        verifier.close();
        dns.close();
    }

    @Test
    void verifiesGoogleInspectionToolFromAGoogleAddressWithoutAskingDns() throws Exception {
        Verdict verdict = verifier.verifyAndWait("66.249.66.12", inspectionTool, 5000);

        assertThat(verdict).isEqualTo(new Verdict(Verification.verified, "in common-crawlers.json 66.249.66.0/27 (created 2026-11-20)"));
        assertThat(dns.totalQueries()).isZero();
    }

    @Test
    void hitsOfOneClaimCarryTheKeyItsFirstHitMadeWithTheirVerdict() {
        // the store and the import find a claim's key by identity after the first hit, not by its text
        CrawlerHit first = verifier.verify(hit("66.249.66.12"), inspectionTool);
        CrawlerHit second = verifier.verify(hit(new String("66.249.66.12")), inspectionTool);
        CrawlerHit other = verifier.verify(hit("66.249.66.13"), inspectionTool);

        assertThat(first.claim()).isEqualTo("66.249.66.12 Google-InspectionTool");
        assertThat(second.claim()).isSameAs(first.claim());
        assertThat(second.verdict()).isEqualTo(first.verdict());
        assertThat(second.verdict().verification()).isEqualTo(Verification.verified);
        assertThat(other.claim()).isEqualTo("66.249.66.13 Google-InspectionTool").isNotSameAs(first.claim());
    }

    @Test
    void hitsOfOneAddressStringGetTheirClaimsVerdictAsItChanges() throws Exception {
        // the verifier remembers the verdicts it looked up by the address string's identity: a
        // change (a re-check, then the DNS answer on another thread) must show
        String ip = "157.55.39.4";
        dns.rcode(LocalDnsServer.reverseName(ip), Rcode.SERVFAIL);

        verifier.verify(hit(ip), bingbot);
        assertThat(verifier.awaitPending(5000)).isZero();
        CrawlerHit failed = verifier.verify(hit(ip), bingbot);
        assertThat(failed.verdict().reason()).contains("SERVFAIL");
        assertThat(verifier.verify(hit(ip), bingbot).verdict()).isEqualTo(failed.verdict());

        dns.ptr(ip, "msnbot-157-55-39-4.search.msn.com", 3600).a("msnbot-157-55-39-4.search.msn.com", ip, 300);
        assertThat(verifier.recheckTransient()).isEqualTo(1);
        assertThat(verifier.awaitPending(5000)).isZero();
        CrawlerHit verified = verifier.verify(hit(ip), bingbot);
        assertThat(verified.verdict().verification()).isEqualTo(Verification.verified);
        assertThat(verified.claim()).isEqualTo(failed.claim());
        assertThat(verifier.verify(hit(ip), bingbot).verdict()).isEqualTo(verified.verdict());
    }

    @Test
    void anEmptyQueueMeansEveryVerdictWasTold() throws Exception {
        // the import and serve's re-checks read the store once awaitPending says nothing is queued:
        // a listener still writing then (a slow store) was a verdict missing from the store
        String ip = "157.55.39.4";
        dns.ptr(ip, "msnbot-157-55-39-4.search.msn.com", 3600).a("msnbot-157-55-39-4.search.msn.com", ip, 300);
        java.util.concurrent.CountDownLatch telling = new java.util.concurrent.CountDownLatch(1);
        verifier.onChange((address, crawler, verdict) -> {
            telling.countDown();
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            changes.add(address + " " + crawler.name() + " " + verdict.verification());
        });

        verifier.verify(hit(ip), bingbot);
        assertThat(telling.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        assertThat(verifier.awaitPending(10_000)).isZero();
        assertThat(changes).containsExactly(ip + " Bingbot verified");
    }

    private static Hit hit(String ip) {
        return new Hit(0, 0, ip, "GET", "/", 404, -1, null, "Google-InspectionTool", Double.NaN, null);
    }

    @Test
    void callsAGooglebotAgentFromACloudAddressSpoofedWithBothPiecesOfEvidence() throws Exception {
        dns.nxdomain(LocalDnsServer.reverseName("203.0.113.9"));

        Verdict provisional = verifier.verify("203.0.113.9", googlebot);
        Verdict verdict = verifier.verifyAndWait("203.0.113.9", googlebot, 5000);

        assertThat(provisional.verification()).isEqualTo(Verification.spoofed);
        assertThat(verdict).isEqualTo(new Verdict(Verification.spoofed, "claims Googlebot Desktop; 203.0.113.9 is in no Google list "
                + "(common-crawlers.json (created 2026-11-20)) and no PTR for 203.0.113.9 (NXDOMAIN)"));
    }

    @Test
    void verifiesAGoogleAddressTheListDoesNotHaveYetWhenDnsConfirmsIt() throws Exception {
        dns.ptr("66.249.79.3", "crawl-66-249-79-3.googlebot.com", 3600).a("crawl-66-249-79-3.googlebot.com", "66.249.79.3", 300);

        Verdict verdict = verifier.verifyAndWait("66.249.79.3", googlebot, 5000);

        assertThat(verdict).isEqualTo(new Verdict(Verification.verified,
                "PTR crawl-66-249-79-3.googlebot.com, forward-confirmed (66.249.79.3 is not in the published list yet)"));
        assertThat(changes).containsExactly("66.249.79.3 Googlebot Desktop verified");
    }

    @Test
    void verifiesIpv6GooglebotFromTheList() throws Exception {
        assertThat(verifier.verifyAndWait("2001:4860:4801:10::2b", googlebot, 5000).verification()).isEqualTo(Verification.verified);
    }

    @Test
    void verifiesABingbotByDnsAloneWhenItsListIsNotAvailable() throws Exception {
        dns.ptr("157.55.39.1", "msnbot-157-55-39-1.search.msn.com", 3600).a("msnbot-157-55-39-1.search.msn.com", "157.55.39.1", 300);

        Runnable answer = dns.holdAnswers();
        Verdict provisional = verifier.verify("157.55.39.1", bingbot);
        answer.run();
        Verdict verdict = verifier.verifyAndWait("157.55.39.1", bingbot, 5000);

        assertThat(provisional.verification()).isEqualTo(Verification.unverified);
        assertThat(provisional.reason()).endsWith("reverse DNS check pending");
        assertThat(verdict).isEqualTo(new Verdict(Verification.verified, "PTR msnbot-157-55-39-1.search.msn.com, forward-confirmed"));
    }

    @Test
    void refutesAYandexBotWhosePtrIsInAnotherDomain() throws Exception {
        dns.ptr("198.51.100.20", "host-20.example.net", 3600);

        Verdict verdict = verifier.verifyAndWait("198.51.100.20", yandex, 5000);

        assertThat(verdict).isEqualTo(new Verdict(Verification.spoofed,
                "claims YandexBot; PTR host-20.example.net is not in *.yandex.ru, *.yandex.net, *.yandex.com"));
    }

    @Test
    void verifiesAnAiCrawlerFromItsPublishedRanges() throws Exception {
        assertThat(verifier.verifyAndWait("20.171.207.7", gptbot, 5000))
                .isEqualTo(new Verdict(Verification.verified, "in gptbot.json 20.171.207.0/24 (created 2026-11-19)"));
        assertThat(verifier.verifyAndWait("52.1.2.3", gptbot, 5000).verification()).isEqualTo(Verification.spoofed);
    }

    @Test
    void leavesACrawlerWithNoVerificationMethodUnverifiedAndSaysSo() throws Exception {
        assertThat(verifier.verifyAndWait("198.51.100.30", bytespider, 5000)).isEqualTo(new Verdict(Verification.unverified,
                "no way to verify Bytespider is known (no published IP list or DNS domain)"));
        assertThat(dns.totalQueries()).isZero();
    }

    @Test
    void leavesAnAddressUnverifiedWhenDnsFailsAndDecidesWhenCheckedAgain() throws Exception {
        dns.rcode(LocalDnsServer.reverseName("157.55.39.2"), Rcode.SERVFAIL);

        Verdict failed = verifier.verifyAndWait("157.55.39.2", bingbot, 5000);

        assertThat(failed.verification()).isEqualTo(Verification.unverified);
        assertThat(failed.reason()).contains("SERVFAIL").endsWith("will check again");

        dns.ptr("157.55.39.2", "msnbot-157-55-39-2.search.msn.com", 3600).a("msnbot-157-55-39-2.search.msn.com", "157.55.39.2", 300);
        assertThat(verifier.recheckTransient()).isEqualTo(1);
        assertThat(verifier.awaitPending(5000)).isZero();

        assertThat(verifier.verify("157.55.39.2", bingbot).verification()).isEqualTo(Verification.verified);
        assertThat(changes).containsExactly("157.55.39.2 Bingbot unverified", "157.55.39.2 Bingbot verified");
    }

    @Test
    void neverBlocksTheCallerOnASlowResolver() throws Exception {
        verifier.close();
        verifier = verifierWithTimeout(Duration.ofMillis(500));
        dns.silent(LocalDnsServer.reverseName("157.55.39.3"));

        // had verify waited for the resolver, it would return the timed-out verdict, not the provisional one
        Verdict provisional = verifier.verify("157.55.39.3", bingbot);

        assertThat(provisional.reason()).endsWith("reverse DNS check pending");
        assertThat(verifier.awaitPending(5000)).isZero();
        Verdict timedOut = verifier.verify("157.55.39.3", bingbot);
        assertThat(timedOut.verification()).as("a timeout is no evidence").isEqualTo(Verification.unverified);
        assertThat(timedOut.reason()).contains("timed out after 500 ms").endsWith("will check again");
        assertThat(verifier.recheckTransient()).as("and is checked again").isEqualTo(1);
    }

    @Test
    void answersAtOnceWhileAListIsReadAndDecidesOnceItIs() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        com.sun.net.httpserver.HttpServer host = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        host.createContext("/", exchange -> {
            try {
                release.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = IpRangeVerifierTest.COMMON.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        host.start();
        try (CrawlerVerifier slow = new CrawlerVerifier(new IpRangeVerifier(catalog,
                IpRangeSource.parse("http://127.0.0.1:" + host.getAddress().getPort() + "/")), null)) {
            slow.onChange((ip, crawler, verdict) -> changes.add(ip + " " + crawler.name() + " " + verdict.verification()));

            CrawlerHit first = slow.verify(hit("66.249.66.12"), inspectionTool);
            CrawlerHit second = slow.verify(hit("66.249.66.12"), inspectionTool);

            assertThat(first.verdict()).isEqualTo(new Verdict(Verification.unverified,
                    "claims Google-InspectionTool; check pending (reading common-crawlers.json)"));
            assertThat(second.verdict()).isEqualTo(first.verdict());
            assertThat(slow.pendingChecks()).isEqualTo(new CrawlerVerifier.PendingChecks(1, 0, List.of("common-crawlers.json")));
            assertThat(changes).isEmpty();

            release.countDown();
            assertThat(slow.awaitPending(10_000)).isZero();
            assertThat(changes).containsExactly("66.249.66.12 Google-InspectionTool verified");
            assertThat(slow.verify(hit("66.249.66.12"), inspectionTool).verdict().verification()).isEqualTo(Verification.verified);
        } finally {
            release.countDown();
            host.stop(0);
        }
    }

    @Test
    void aResolverThatAnswersNxdomainToEverythingIsNotBelieved() throws Exception {
        // split-horizon and air-gapped resolvers answer NXDOMAIN for names they cannot see, Google's included
        try (LocalDnsServer broken = new LocalDnsServer().nxdomainForEveryOtherName()) {
            Files.delete(dir.resolve("common-crawlers.json"));
            CrawlerVerifier v = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())),
                    new DnsVerifier(broken.address(), Duration.ofSeconds(2), 16, 1000, 1000));
            try (v) {
                v.lists().loadAll();
                Verdict googlebotVerdict = v.verifyAndWait("66.249.66.1", googlebot, 5000);
                Verdict yandexVerdict = v.verifyAndWait("198.51.100.20", yandex, 5000);

                String resolver = "the DNS resolver " + broken.address();
                assertThat(googlebotVerdict).isEqualTo(new Verdict(Verification.unverified, "claims Googlebot Desktop; "
                        + resolver + " failed its check, so its answers are not believed; will check again"));
                assertThat(yandexVerdict.verification()).isEqualTo(Verification.unverified);
                assertThat(v.resolverHealth()).contains(new dev.crawlerrors.crawler.dns.ResolverCheck.Health(false, resolver
                        + " failed its check: no PTR for 66.249.66.1 (NXDOMAIN), where 66.249.66.1 must have a PTR in crawl-*.googlebot.com;"
                        + " its answers are not believed, so verdicts that rest on DNS alone stay unverified"));
                assertThat(v.describeEvidence(java.time.Instant.now())).last().asString()
                        .startsWith("DNS: " + resolver + " failed its check");
            }
        }
    }

    @Test
    void aResolverThatPassesItsCheckIsBelieved() throws Exception {
        dns.nxdomain(LocalDnsServer.reverseName("203.0.113.9"));

        verifier.verifyAndWait("203.0.113.9", yandex, 5000);

        assertThat(verifier.resolverHealth()).hasValueSatisfying(health -> {
            assertThat(health.trusted()).isTrue();
            assertThat(health.description()).isEqualTo("the DNS resolver " + dns.address()
                    + " passed its check (66.249.66.1: PTR crawl-66-249-66-1.googlebot.com, forward-confirmed)");
        });
        assertThat(verifier.verify("203.0.113.9", yandex)).isEqualTo(new Verdict(Verification.spoofed,
                "claims YandexBot; no PTR for 203.0.113.9 (NXDOMAIN)"));
    }

    @Test
    void aVerifiedClaimDoesNotTurnSpoofedOnAChangedListAlone() throws Exception {
        CrawlerVerifier listsOnly = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())), null);
        listsOnly.lists().loadAll();
        assertThat(listsOnly.verify("66.249.66.12", googlebot).verification()).isEqualTo(Verification.verified);
        Files.writeString(dir.resolve("common-crawlers.json"), IpRangeVerifierTest.COMMON.replace("66.249.66.0/27", "66.249.68.0/27"));

        assertThat(listsOnly.lists().refreshDue(Duration.ZERO)).isTrue();
        listsOnly.forgetVerdicts();

        assertThat(listsOnly.verify("66.249.66.12", googlebot)).isEqualTo(new Verdict(Verification.unverified,
                "claims Googlebot Desktop; was in common-crawlers.json 66.249.66.0/27 (created 2026-11-20); now 66.249.66.12 is in no"
                        + " Google list (common-crawlers.json (created 2026-11-20)), which alone does not overturn it"));
        assertThat(listsOnly.verify("66.249.66.13", googlebot).verification()).as("never verified").isEqualTo(Verification.spoofed);

        // the same for a verdict the store recorded, checked again by serve
        CrawlerVerifier fresh = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())), null);
        fresh.lists().loadAll();
        List<String> heard = new CopyOnWriteArrayList<>();
        fresh.onChange((ip, crawler, verdict) -> heard.add(verdict.verification() + ": " + verdict.reason()));
        fresh.recheck("66.249.66.14", googlebot, new Verdict(Verification.verified, "in common-crawlers.json 66.249.66.0/27 (created 2026-11-19)"));
        assertThat(heard).singleElement().asString().startsWith("unverified: claims Googlebot Desktop; was in common-crawlers.json");
    }

    @Test
    void aVerifiedClaimTurnsSpoofedWhenDnsRefutesItToo() throws Exception {
        dns.nxdomain(LocalDnsServer.reverseName("66.249.66.12"));
        assertThat(verifier.verifyAndWait("66.249.66.12", googlebot, 5000).verification()).isEqualTo(Verification.verified);
        Files.writeString(dir.resolve("common-crawlers.json"), IpRangeVerifierTest.COMMON.replace("66.249.66.0/27", "66.249.68.0/27"));
        verifier.lists().refreshDue(Duration.ZERO);
        verifier.forgetVerdicts();
        // the local resolver answers in microseconds: held, so the verdict before its answer is seen
        Runnable answer = dns.holdAnswers();

        Verdict provisional = verifier.verify("66.249.66.12", googlebot);
        answer.run();
        Verdict verdict = verifier.verifyAndWait("66.249.66.12", googlebot, 5000);

        assertThat(provisional.verification()).as("not spoofed while only the list speaks").isEqualTo(Verification.unverified);
        assertThat(verdict).isEqualTo(new Verdict(Verification.spoofed, "claims Googlebot Desktop; 66.249.66.12 is in no Google list"
                + " (common-crawlers.json (created 2026-11-20)) and no PTR for 66.249.66.12 (NXDOMAIN)"));
    }

    @Test
    void aPrivateAddressIsUnverifiedNotSpoofed() throws Exception {
        for (String ip : List.of("10.0.0.5", "192.168.1.20", "172.20.0.3", "127.0.0.1", "100.64.0.9", "fd00::5", "::1", "::ffff:10.1.2.3")) {
            Verdict verdict = verifier.verifyAndWait(ip, googlebot, 5000);
            assertThat(verdict).as(ip).isEqualTo(new Verdict(Verification.unverified, "claims Googlebot Desktop; " + ip
                    + " is a private address: the request came through a proxy that recorded no client"
                    + " (log X-Forwarded-For and name the proxy with --trusted-proxies)"));
        }
        assertThat(dns.totalQueries()).as("no DNS asked for an address only a proxy has").isZero();
    }

    @Test
    void behindATrustedProxyTheClientIsVerifiedAndAProxyWithoutOneIsUnverified() throws Exception {
        CrawlerVerifier behindCdn = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())), null, null,
                TrustedProxies.parse("173.245.48.0/20"));
        behindCdn.lists().loadAll();
        Hit viaCdn = new Hit(0, 0, "173.245.48.5", "GET", "/", 404, -1, null, "Googlebot", Double.NaN, null, "66.249.66.12");
        Hit noClient = new Hit(0, 0, "173.245.48.6", "GET", "/", 404, -1, null, "Googlebot", Double.NaN, null, null);

        CrawlerHit client = behindCdn.verify(viaCdn, googlebot);
        CrawlerHit proxy = behindCdn.verify(noClient, googlebot);

        assertThat(client.hit().ip()).isEqualTo("66.249.66.12");
        assertThat(client.claim()).isEqualTo("66.249.66.12 Googlebot Desktop");
        assertThat(client.verdict().verification()).isEqualTo(Verification.verified);
        assertThat(proxy.hit().ip()).isEqualTo("173.245.48.6");
        assertThat(proxy.verdict()).isEqualTo(new Verdict(Verification.unverified, "claims Googlebot Desktop; 173.245.48.6 is a trusted"
                + " proxy (--trusted-proxies) and the line records no client address behind it"));
    }

    @Test
    void withoutDnsADnsOnlyCrawlerIsUnverifiedAndTheReasonSaysDnsIsOff() {
        CrawlerVerifier listsOnly = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())), null);
        listsOnly.lists().loadAll();

        assertThat(listsOnly.verify("198.51.100.20", yandex))
                .isEqualTo(new Verdict(Verification.unverified, "YandexBot publishes no IP list; DNS checks are off"));
        assertThat(listsOnly.verify("203.0.113.9", googlebot).verification()).isEqualTo(Verification.spoofed);
    }
}
