package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.dns.LocalDnsServer;
import dev.crawlerrors.pipeline.VerdictRechecks;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.Rcode;
import picocli.CommandLine;

/** Imports and re-checks that ask a real DNS server on loopback. */
class DnsVerificationImportTest {

    static final String YANDEX = "198.51.100.20 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/straten/q HTTP/1.1\" 404 0 \"-\" "
            + "\"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)\" 0.001";
    static final String IMPOSTOR = "203.0.113.9 - - [14/May/2025:09:32:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 0 \"-\" "
            + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 0.001";
    static final String BINGBOT = "157.55.39.2 - - [14/May/2025:09:33:02 +0200] \"GET /ghent/kouter HTTP/1.1\" 308 0 \"-\" "
            + "\"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)\" 0.001";

    @TempDir
    Path dir;

    private LocalDnsServer dns;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private PrintStream originalOut;

    @BeforeEach
    void start() throws Exception {
        dns = new LocalDnsServer();
        originalOut = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        Files.createDirectories(dir.resolve("ranges"));
        Files.writeString(dir.resolve("ranges/common-crawlers.json"),
                "{\"creationTime\":\"2026-11-20T00:00:00\",\"prefixes\":[{\"ipv4Prefix\":\"66.249.64.0/19\"}]}");
    }

    @AfterEach
    void stop() throws Exception {
        System.setOut(originalOut);
        dns.close();
    }

    private int importLog(Path db, String... lines) throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, String.join("\n", lines) + "\n");
        CommandLine cli = Main.commandLine();
        cli.setErr(new java.io.PrintWriter(new ByteArrayOutputStream(), true));
        return cli.execute("import", "--db", db.toString(), "--ip-ranges", dir.resolve("ranges").toString(),
                "--dns-server", dns.address(), log.toString());
    }

    @Test
    void storesTheVerdictDnsReachesAndCountsItInTheSummary() throws Exception {
        dns.ptr("198.51.100.20", "spider-198-51-100-20.yandex.com", 3600).a("spider-198-51-100-20.yandex.com", "198.51.100.20", 300)
                .nxdomain(LocalDnsServer.reverseName("203.0.113.9"));
        Path db = dir.resolve("hits.duckdb");

        assertThat(importLog(db, YANDEX, IMPOSTOR)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Verdicts: verified 1 spoofed 1")
                .contains("error hits (status >= 300) for the report: 1 (and 1 from impostors, left out as spoofed)");
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            List<StoredHit> shown = store.page(HitFilter.ERRORS, 0, 10);
            assertThat(shown).singleElement().satisfies(hit -> {
                assertThat(hit.crawler()).isEqualTo("YandexBot");
                assertThat(hit.verification()).isEqualTo("verified");
                assertThat(hit.reason()).isEqualTo("PTR spider-198-51-100-20.yandex.com, forward-confirmed");
            });
            HitFilter spoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
            assertThat(store.page(spoofed, 0, 10)).singleElement().extracting(StoredHit::reason).isEqualTo(
                    "claims Googlebot Desktop; 203.0.113.9 is in no Google list (common-crawlers.json (created 2026-11-20)) "
                            + "and no PTR for 203.0.113.9 (NXDOMAIN)");
        }
    }

    @Test
    void serveChecksAgainWhatDnsCouldNotAnswerAndTheReportShowsTheNewVerdict() throws Exception {
        dns.rcode(LocalDnsServer.reverseName("157.55.39.2"), Rcode.SERVFAIL);
        Path db = dir.resolve("hits.duckdb");
        assertThat(importLog(db, BINGBOT)).isZero();

        dns.ptr("157.55.39.2", "msnbot-157-55-39-2.search.msn.com", 3600).a("msnbot-157-55-39-2.search.msn.com", "157.55.39.2", 300);
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.verdicts(Verification.unverified)).extracting(v -> v.verdict().reason())
                    .singleElement().asString().contains("SERVFAIL");
            CrawlerCatalog catalog = CrawlerCatalog.builtIn();
            try (var verifier = new dev.crawlerrors.crawler.verify.CrawlerVerifier(
                    new dev.crawlerrors.crawler.verify.IpRangeVerifier(catalog,
                            dev.crawlerrors.crawler.verify.IpRangeSource.parse(dir.resolve("ranges").toString())),
                    new dev.crawlerrors.crawler.dns.DnsVerifier(dns.address(), java.time.Duration.ofSeconds(2), 16, 100, 100));
                 VerdictRechecks rechecks = new VerdictRechecks(store, catalog, verifier)) {

                assertThat(rechecks.run()).isEqualTo(1);
                assertThat(verifier.awaitPending(5000)).isZero();
            }
            assertThat(store.verdicts(Verification.verified)).extracting(StoredVerdict::ip).containsExactly("157.55.39.2");
            assertThat(store.page(HitFilter.ERRORS, 0, 1).get(0).reason()).isEqualTo("PTR msnbot-157-55-39-2.search.msn.com, forward-confirmed");
        }
    }

    @Test
    void verifyPrintsTheDnsEvidence() throws Exception {
        dns.ptr("66.249.100.1", "crawl-66-249-100-1.googlebot.com", 3600).a("crawl-66-249-100-1.googlebot.com", "66.249.100.1", 300);
        CommandLine cli = Main.commandLine();

        int exit = cli.execute("verify", "--ip-ranges", dir.resolve("ranges").toString(), "--dns-server", dns.address(), "66.249.100.1");

        assertThat(exit).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("lists:    66.249.100.1 is in no Google list (common-crawlers.json (created 2026-11-20))")
                .contains("verdict:  verified")
                .contains("evidence: PTR crawl-66-249-100-1.googlebot.com, forward-confirmed (66.249.100.1 is not in the published list yet)");
    }
}
