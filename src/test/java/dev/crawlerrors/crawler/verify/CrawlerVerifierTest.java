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
        dns = new LocalDnsServer();
        verifier = verifierWithTimeout(Duration.ofSeconds(2));
    }

    private CrawlerVerifier verifierWithTimeout(Duration timeout) {
        CrawlerVerifier v = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())),
                new DnsVerifier(dns.address(), timeout, 16, 1000, 1000));
        v.onChange((ip, crawler, verdict) -> changes.add(ip + " " + crawler.name() + " " + verdict.verification()));
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

        Verdict provisional = verifier.verify("157.55.39.1", bingbot);
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
        assertThat(verifier.verify("157.55.39.3", bingbot).reason()).contains("timed out after 500 ms");
    }

    @Test
    void withoutDnsADnsOnlyCrawlerIsUnverifiedAndTheReasonSaysDnsIsOff() {
        CrawlerVerifier listsOnly = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString())), null);

        assertThat(listsOnly.verify("198.51.100.20", yandex))
                .isEqualTo(new Verdict(Verification.unverified, "YandexBot publishes no IP list; DNS checks are off"));
        assertThat(listsOnly.verify("203.0.113.9", googlebot).verification()).isEqualTo(Verification.spoofed);
    }
}
