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
        dns = new LocalDnsServer().answersTheCanary();
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
            List<StoredHit> shown = store.reader().page(HitFilter.ERRORS, 0, 10);
            assertThat(shown).singleElement().satisfies(hit -> {
                assertThat(hit.crawler()).isEqualTo("YandexBot");
                assertThat(hit.verification()).isEqualTo("verified");
                assertThat(hit.reason()).isEqualTo("PTR spider-198-51-100-20.yandex.com, forward-confirmed");
            });
            HitFilter spoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
            assertThat(store.reader().page(spoofed, 0, 10)).singleElement().extracting(StoredHit::reason).isEqualTo(
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
            assertThat(store.verdicts().of(Verification.unverified)).extracting(v -> v.verdict().reason())
                    .singleElement().asString().contains("SERVFAIL");
            CrawlerCatalog catalog = CrawlerCatalog.builtIn();
            try (var verifier = new dev.crawlerrors.crawler.verify.CrawlerVerifier(
                    new dev.crawlerrors.crawler.verify.IpRangeVerifier(catalog,
                            dev.crawlerrors.crawler.verify.IpRangeSource.parse(dir.resolve("ranges").toString())),
                    new dev.crawlerrors.crawler.dns.DnsVerifier(dns.address(), java.time.Duration.ofSeconds(2), 16, 100, 100));
                 VerdictRechecks rechecks = new VerdictRechecks(store.verdicts(), catalog, verifier)) {

                assertThat(rechecks.run()).isEqualTo(1);
                assertThat(verifier.awaitPending(5000)).isZero();
            }
            assertThat(store.verdicts().of(Verification.verified)).extracting(StoredVerdict::ip).containsExactly("157.55.39.2");
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 1).get(0).reason()).isEqualTo("PTR msnbot-157-55-39-2.search.msn.com, forward-confirmed");
        }
    }

    @Test
    void verifyPrintsTheEvidenceItsVerdictRestsOn() throws Exception {
        dns.ptr("66.249.100.1", "crawl-66-249-100-1.googlebot.com", 3600).a("crawl-66-249-100-1.googlebot.com", "66.249.100.1", 300);
        CommandLine cli = Main.commandLine();

        int exit = cli.execute("verify", "--ip-ranges", dir.resolve("ranges").toString(), "--dns-server", dns.address(), "66.249.100.1");

        assertThat(exit).isZero();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed.lines().toList()).containsSubsequence(
                "crawler:  Googlebot Desktop (Google, crawler_search)",
                "proof:    IP list common-crawlers.json; reverse DNS crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com",
                "lists:    66.249.100.1 is in no Google list (common-crawlers.json (created 2026-11-20))",
                "resolver: the DNS resolver " + dns.address() + " passed its check (66.249.66.1: PTR crawl-66-249-66-1.googlebot.com,"
                        + " forward-confirmed)",
                "dns:      PTR 1.100.249.66.in-addr.arpa: crawl-66-249-100-1.googlebot.com",
                "          A crawl-66-249-100-1.googlebot.com: 66.249.100.1",
                "verdict:  verified",
                "evidence: PTR crawl-66-249-100-1.googlebot.com, forward-confirmed (66.249.100.1 is not in the published list yet)");
        assertThat(printed).containsPattern("list:     common-crawlers.json: 1 prefix, created 2026-11-20T00:00:00, modified [^,]+, read from "
                + java.util.regex.Pattern.quote(dir.resolve("ranges/common-crawlers.json").toString()) + ", (less than a day|\\d+ days?) old");
    }

    @Test
    void theSameLogImportedTwiceGetsTheSameVerdictsFromAResolverThatAnswersNxdomainToEverything() throws Exception {
        // a split-horizon resolver that cannot see Google's reverse zone, on a machine that cannot fetch the lists
        try (LocalDnsServer horizon = new LocalDnsServer().nxdomainForEveryOtherName()) {
            String googlebot = "66.249.66.1 - - [14/May/2025:09:30:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 404 0 \"-\" "
                    + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 0.001";
            Path log = dir.resolve("access.log");
            Files.writeString(log, String.join("\n", googlebot, YANDEX, IMPOSTOR, BINGBOT) + "\n");
            String unreachable = "http://127.0.0.1:" + closedPort() + "/";
            List<String> summaries = new java.util.ArrayList<>();
            List<List<String>> verdicts = new java.util.ArrayList<>();

            for (String name : List.of("first.duckdb", "second.duckdb")) {
                Path db = dir.resolve(name);
                CommandRun run = CommandRun.of("import", "--db", db.toString(), "--ip-ranges", unreachable, "--dns-server", horizon.address(),
                        log.toString());
                assertThat(run.exit()).isZero();
                summaries.add(run.out().lines().filter(line -> line.startsWith("Verdicts:") || line.startsWith("Crawler hits stored:")
                        || line.startsWith("Warning: the DNS resolver")).toList().toString());
                try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
                    verdicts.add(store.verdicts().of(Verification.unverified).stream().map(v -> v.ip() + " " + v.verdict().reason()).toList());
                    assertThat(store.verdicts().of(Verification.spoofed)).as("nothing is called a liar on a broken resolver's word").isEmpty();
                }
            }

            assertThat(summaries.get(1)).isEqualTo(summaries.get(0));
            assertThat(summaries.get(0)).contains("Verdicts: unverified 4")
                    .contains("error hits (status >= 300) for the report: 4 (and 0 from impostors, left out as spoofed)")
                    .contains("Warning: the DNS resolver " + horizon.address() + " failed its check: no PTR for 66.249.66.1 (NXDOMAIN)");
            assertThat(verdicts.get(1)).isEqualTo(verdicts.get(0));
            assertThat(verdicts.get(0)).contains("66.249.66.1 claims Googlebot Desktop; the DNS resolver " + horizon.address()
                    + " failed its check, so its answers are not believed; will check again");
        }
    }

    @Test
    void anImportHandsWhatIsStillPendingToServeAndSaysSo() throws Exception {
        // a list host that answers nothing for as long as the import lasts
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        com.sun.net.httpserver.HttpServer host = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        host.createContext("/", exchange -> {
            try {
                release.await(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        host.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        host.start();
        try {
            Path db = dir.resolve("hits.duckdb");
            Path log = dir.resolve("access.log");
            Files.writeString(log, IMPOSTOR + "\n");

            CommandRun run = CommandRun.of("import", "--db", db.toString(), "--ip-ranges", "http://127.0.0.1:" + host.getAddress().getPort() + "/",
                    "--dns-server", "none", log.toString());

            assertThat(run.exit()).isZero();
            assertThat(run.out()).contains("Verification still pending for 1 crawler address (1 waiting for IP lists still being read:"
                    + " common-crawlers.json); their hits keep a provisional verdict until serve checks them again.");
            try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
                assertThat(store.verdicts().of(Verification.unverified)).singleElement().extracting(v -> v.verdict().reason())
                        .isEqualTo("claims Googlebot Desktop; check pending (reading common-crawlers.json)");
                CrawlerCatalog catalog = CrawlerCatalog.builtIn();
                try (var verifier = new dev.crawlerrors.crawler.verify.CrawlerVerifier(new dev.crawlerrors.crawler.verify.IpRangeVerifier(
                        catalog, dev.crawlerrors.crawler.verify.IpRangeSource.parse(dir.resolve("ranges").toString())), null);
                     VerdictRechecks rechecks = new VerdictRechecks(store.verdicts(), catalog, verifier)) {
                    rechecks.run();
                    assertThat(verifier.awaitPending(5000)).isZero();
                }
                assertThat(store.verdicts().of(Verification.spoofed)).singleElement().extracting(StoredVerdict::ip).isEqualTo("203.0.113.9");
            }
        } finally {
            release.countDown();
            host.stop(0);
        }
    }

    private static int closedPort() throws java.io.IOException {
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
