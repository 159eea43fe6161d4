package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.signature.PendingSignature;
import dev.crawlerrors.crawler.signature.DirectoryFetcher;
import dev.crawlerrors.crawler.signature.KeyDirectories;
import dev.crawlerrors.crawler.signature.LoopbackDirectory;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.signature.SignedLines;
import dev.crawlerrors.crawler.signature.Signers;
import dev.crawlerrors.crawler.signature.WebBotAuthVerifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.NginxFormat;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredSignature;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signatures checked off the reader's path: an import that settles none of them stores their hits
 * pending, says so, and a page at a snapshot taken then shows them pending; {@code serve}'s
 * re-checks settle them later with the verdicts an import that waited would have given, on DuckDB
 * and ClickHouse. The queue in memory is bounded: what it has no room for waits in the store.
 */
@ClickHouseTest
class SignatureSettlerTest {

    private static final String HOST = "www.example.com";
    private static final HitFilter ALL = new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, Set.of(Verification.values()),
            null, null, null, null);

    @TempDir
    Path dir;

    private SignedAgent agent;
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    @BeforeEach
    void start() throws Exception {
        agent = SignedAgent.start(dir);
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    @Test
    void aSignedImportsVerdictsSettleAfterTheImportOnDuckDb() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            verdictsSettleAfterTheImport(store);
        }
    }

    @Test
    void aSignedImportsVerdictsSettleAfterTheImportOnClickHouse() throws Exception {
        ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("signed_settle")),
                ClickHouseSettings.IMPORT)) {
            verdictsSettleAfterTheImport(store);
        }
    }

    @Test
    void aSignedImportsVerdictsSettleFromTheirHitsRowsOnDuckDb() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            verdictsSettleAfterTheImport(store, 1);
        }
    }

    private void verdictsSettleAfterTheImport(HitStore store) throws Exception {
        verdictsSettleAfterTheImport(store, -1);
    }

    /**
     * {@code apartFirst}: the lines an import checks at its end at most, and keeps apart; past them the
     * lines wait in their hits' rows where the store keeps them so (DuckDB); -1: the import's default.
     */
    private void verdictsSettleAfterTheImport(HitStore store, int apartFirst) throws Exception {
        Instant at = now.minusSeconds(600);
        List<String> lines = List.of(
                signedLine("203.0.113.7", "/antwerp/meir", "/antwerp/meir", at),
                signedLine("203.0.113.7", "/admin", "/antwerp/meir", at.plusSeconds(1)),
                signedLine("198.51.100.4", "/ghent/kouter", "/ghent/kouter", at.plusSeconds(2)),
                // an expired signature and a Signature-Input that is no structured field: the reader keeps them as logged too
                SignedLines.nginx("198.51.100.4", at.plusSeconds(3), "GET", "/bruges/markt", 404, SignedLines.CHROME, HOST,
                        agent.signer.sign("GET", HOST, "/bruges/markt", at.getEpochSecond() - 7200, at.getEpochSecond() - 3600)),
                SignedLines.nginx("198.51.100.4", at.plusSeconds(4), "GET", "/leuven", 404, SignedLines.CHROME, HOST,
                        new dev.crawlerrors.ingest.SignatureFields("sig1=:AAEC:", "sig1=(\"@path", "\"" + agent.directory.origin() + "\"")));

        LogImport job = newImport(store);
        job.settleSignaturesWith(SignatureSettler.CAPACITY, 0);
        if (apartFirst >= 0) {
            job.settleSignaturesAtEnd(apartFirst);
        }
        ImportSummary summary = run(job, lines);

        String pending = "signed for " + agent.directory.origin() + "; check pending: " + WebBotAuthVerifier.NOT_CHECKED_YET
                + "; will check again";
        assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::url, StoredHit::crawler, StoredHit::verification, StoredHit::reason)
                .containsExactly(
                        tuple("/leuven", "Test agent", "unverified", pending),
                        tuple("/bruges/markt", "Test agent", "unverified", pending),
                        tuple("/ghent/kouter", "Test agent", "unverified", pending),
                        tuple("/admin", "Test agent", "unverified", pending),
                        tuple("/antwerp/meir", "Test agent", "unverified", pending));
        assertThat(summary.signaturesChecked).isZero();
        assertThat(summary.signaturesPending).isEqualTo(5);
        if (apartFirst < 0) {
            assertThat(printed(summary)).contains("Signatures checked: 0; still pending: 5, their hits"
                    + " unverified until serve checks them.\n").contains("Verdicts: unverified 5\n");
        } else {
            assertThat(printed(summary)).contains("Signatures pending: 5, more than the " + apartFirst + " an import checks at its end;"
                    + " their hits unverified until serve checks them in the background.\n").contains("Verdicts: unverified 5\n");
            // one batch of five, past the one the import keeps apart: none goes apart, all wait in their hits' rows
            assertThat(store.signatures().pending(10)).as("all in their hits' rows")
                    .extracting(kept -> kept.id().startsWith("#")).containsExactly(true, true, true, true, true);
        }
        assertThat(store.signatures().pendingCount()).isEqualTo(5);
        assertThat(store.signatures().pending(10)).as("kept as logged: nothing parsed on the reader's path")
                .allSatisfy(kept -> assertThat(kept.base()).isEmpty())
                .extracting(kept -> kept.request() != null).containsOnly(true);
        Snapshot before = store.reader().snapshot();

        settleAsServeDoes(store);

        String verified = "signed by " + agent.directory.origin() + " with key " + agent.signer.thumbprint() + " (Ed25519, in its directory since "
                + when(store.signatures().directories().get(0).fetchedMillis()) + ")";
        assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::url, StoredHit::verification, StoredHit::reason).containsExactly(
                tuple("/leuven", "unverified", "a signature field is not a valid structured field as logged"),
                tuple("/bruges/markt", "spoofed", "the signature had expired when the request was made: a replay outside its"
                        + " created/expires window (" + agent.directory.origin() + ")"),
                tuple("/ghent/kouter", "verified", verified),
                tuple("/admin", "spoofed", "the signature does not verify with key " + agent.signer.thumbprint() + " of " + agent.directory.origin()
                        + ": the logged request is not the one signed, or the signature was forged"),
                tuple("/antwerp/meir", "verified", verified));
        assertThat(store.signatures().pendingCount()).isZero();
        assertThat(store.reader().rows(ALL, before, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, 0, 10))
                .as("a page at a snapshot taken before they settled")
                .extracting(StoredHit::verification, StoredHit::reason).containsOnly(tuple("unverified", pending));
        assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/leuven", "/ghent/kouter",
                "/antwerp/meir");
    }

    @Test
    void theQueueInMemoryIsBoundedAndWhatItHasNoRoomForWaitsInTheStore() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            lines.add(signedLine("203.0.113." + (10 + i), "/page/" + i, "/page/" + i, now.minusSeconds(300 - i)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            LogImport job = newImport(store);
            job.settleSignaturesWith(2, 0);

            ImportSummary summary = run(job, lines);

            SignatureSettler settler = job.recorder().settling();
            assertThat(settler.queued()).as("queued in memory").isEqualTo(2);
            assertThat(settler.waiting()).isEqualTo(7);
            assertThat(summary.signaturesPending).isEqualTo(7);
            assertThat(store.signatures().pendingCount()).as("every one kept in the store").isEqualTo(7);

            settleAsServeDoes(store);

            assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::verification).containsOnly("verified").hasSize(7);
            assertThat(store.signatures().pendingCount()).isZero();
        }
    }

    @Test
    void anImportWithMoreSignaturesThanItChecksAtItsEndLeavesThemAllToServe() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            lines.add(signedLine("203.0.113." + (20 + i), "/page/" + i, "/page/" + i, now.minusSeconds(300 - i)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            LogImport job = newImport(store);
            job.settleSignaturesWith(SignatureSettler.CAPACITY, 1);
            job.settleSignaturesAtEnd(5);

            ImportSummary summary = run(job, lines);

            assertThat(summary.signaturesChecked).as("none checked: more than the import checks at its end").isZero();
            assertThat(summary.signaturesPending).isEqualTo(6);
            assertThat(job.recorder().settling()).as("none kept apart, so none queued in memory either").isNull();
            assertThat(store.signatures().pendingCount()).as("all kept in the store").isEqualTo(6);
            assertThat(printed(summary)).contains("Signatures pending: 6, more than the 5 an import checks at its end; their hits"
                    + " unverified until serve checks them in the background.\n").contains("Verdicts: unverified 6\n");

            settleAsServeDoes(store);

            assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::verification).containsOnly("verified").hasSize(6);
            assertThat(store.signatures().pendingCount()).isZero();
        }
    }

    @Test
    void anImportWithAsManySignaturesAsItChecksAtItsEndChecksThemAll() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lines.add(signedLine("203.0.113." + (30 + i), "/page/" + i, "/page/" + i, now.minusSeconds(300 - i)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            LogImport job = newImport(store);
            job.settleSignaturesWith(SignatureSettler.CAPACITY, 1);
            job.settleSignaturesAtEnd(5);

            ImportSummary summary = run(job, lines);

            assertThat(summary.signaturesChecked).isEqualTo(5);
            assertThat(summary.signaturesPending).isZero();
            assertThat(printed(summary)).contains("Signatures checked: 5.\n").contains("Verdicts: verified 5\n");
            assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::verification).containsOnly("verified").hasSize(5);
            assertThat(store.signatures().pendingCount()).as("let go once their verdicts were committed").isZero();
        }
    }

    @Test
    void anImportThatWaitsSettlesItsSignaturesBeforeItsSummary() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            ImportSummary summary = importLog(store, List.of(
                    signedLine("203.0.113.7", "/antwerp/meir", "/antwerp/meir", now.minusSeconds(60)),
                    signedLine("203.0.113.7", "/admin", "/antwerp/meir", now.minusSeconds(59))), 2, 1);

            assertThat(summary.signaturesChecked).isEqualTo(2);
            assertThat(summary.signaturesPending).isZero();
            assertThat(printed(summary)).contains("Verdicts: verified 1 spoofed 1\n");
            assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::url, StoredHit::verification)
                    .containsExactly(tuple("/admin", "spoofed"), tuple("/antwerp/meir", "verified"));
            assertThat(store.signatures().pendingCount()).as("let go once their verdicts were committed").isZero();
        }
    }

    @Test
    void signaturesWaitingInTheirHitsRowsWaitForTheirDirectoryAndOutliveACrashOnDuckDb() throws Exception {
        Instant at = now.minusSeconds(600);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lines.add(signedLine("203.0.113." + (30 + i), "/page/" + i, i == 3 ? "/elsewhere" : "/page/" + i, at.plusSeconds(i)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            LogImport job = newImport(store);
            job.settleSignaturesAtEnd(0);
            ImportSummary summary = run(job, lines);
            assertThat(summary.signaturesPending).isEqualTo(4);
            assertThat(store.signatures().pending(10)).extracting(StoredSignature::id).allMatch(id -> id.startsWith("#"));

            agent.directory.down();
            settleAsServeDoes(store);
            assertThat(store.signatures().pendingCount()).as("their directory down: they wait on").isEqualTo(4);
            assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::verification).containsOnly("unverified");

            agent.directory.up();
            CrawlerVerifier verifier = verifier();
            SignatureKeeping.attach(store.signatures(), verifier.signatures());
            assertThatThrownBy(() -> SignatureKeeping.recheck(store.signatures(), crashingOnCommit(store.verdicts()), verifier.signatures()))
                    .hasMessageContaining("the process died");
            assertThat(store.signatures().pendingCount()).as("a re-check dying before its commit lets none go").isEqualTo(4);

            settleAsServeDoes(store);

            assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::url, StoredHit::verification).containsExactly(
                    tuple("/page/3", "spoofed"), tuple("/page/2", "verified"), tuple("/page/1", "verified"), tuple("/page/0", "verified"));
            assertThat(store.signatures().pendingCount()).isZero();
            assertThat(store.signatures().pending(10)).isEmpty();
        }
    }

    @Test
    void aCrashBeforeServesVerdictsCommitLeavesTheirSignaturesWaitingOnDuckDb() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            crashBeforeTheVerdictsCommit(store);
        }
    }

    @Test
    void aCrashBeforeServesVerdictsCommitLeavesTheirSignaturesWaitingOnClickHouse() throws Exception {
        ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("signed_crash")),
                ClickHouseSettings.IMPORT)) {
            crashBeforeTheVerdictsCommit(store);
        }
    }

    /** serve's re-check and its settler beside a followed log: neither lets a row go before the verdict it found is committed. */
    private void crashBeforeTheVerdictsCommit(HitStore store) throws Exception {
        Instant at = now.minusSeconds(600);
        importLog(store, List.of(
                signedLine("203.0.113.7", "/antwerp/meir", "/antwerp/meir", at),
                signedLine("198.51.100.4", "/ghent/kouter", "/ghent/kouter", at.plusSeconds(1))), SignatureSettler.CAPACITY, 0);
        assertThat(store.signatures().pendingCount()).isEqualTo(2);
        VerdictStore crashing = crashingOnCommit(store.verdicts());
        CrawlerVerifier verifier = verifier();
        SignatureKeeping.attach(store.signatures(), verifier.signatures());

        assertThatThrownBy(() -> SignatureKeeping.recheck(store.signatures(), crashing, verifier.signatures()))
                .hasMessageContaining("the process died");
        assertThat(store.signatures().pendingCount()).as("serve's re-check, dying before its commit").isEqualTo(2);

        SignatureSettler settler = new SignatureSettler(store.signatures(), crashing, verifier.signatures(), 10, 1, true);
        try {
            for (StoredSignature waiting : store.signatures().pending(10)) {
                settler.offer(new SignatureSettler.Waiting(waiting.ip(), waiting.claimCrawler(), new PendingSignature(waiting.origin(),
                        waiting.keyid(), waiting.alg(), waiting.base().getBytes(StandardCharsets.UTF_8),
                        Base64.getDecoder().decode(waiting.signature()), waiting.requestMillis())));
            }
            assertThat(settler.awaitIdle(30_000)).isTrue();
            assertThat(settler.settledCount()).isEqualTo(2);
        } finally {
            settler.stop();
        }
        assertThat(store.signatures().pendingCount()).as("the settler beside a followed log, dying before its commit").isEqualTo(2);

        settleAsServeDoes(store);

        assertThat(store.reader().page(ALL, 0, 10)).extracting(StoredHit::verification).containsOnly("verified").hasSize(2);
        assertThat(store.signatures().pendingCount()).isZero();
    }

    @Test
    void settledVerdictsAreHandedToTheStoreWhileItsWriterIsBusy() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            Object writer = store.writer();
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch letGo = new CountDownLatch(1);
            Thread busy = Thread.ofPlatform().start(() -> {
                synchronized (writer) { // as an append holds it while the batch before is written
                    held.countDown();
                    try {
                        letGo.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            try {
                assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
                Verdict verified = new Verdict(Verification.verified, "signed");
                CompletableFuture<Void> handed = CompletableFuture.runAsync(() -> store.verdicts().updateAll(List.of(
                        new StoredVerdict("203.0.113.7", "Test agent", verified), new StoredVerdict("198.51.100.4", "Test agent", verified))));
                handed.get(20, TimeUnit.SECONDS);
            } finally {
                letGo.countDown();
                busy.join(30_000);
            }
            store.verdicts().commit();
            assertThat(store.verdicts().of(Verification.verified)).extracting(StoredVerdict::ip).containsExactly("198.51.100.4", "203.0.113.7");
        }
    }

    @Test
    void aFollowedLogsSignatureChecksEndWhenItIsClosed() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            HitRecorder recorder = new HitRecorder(store.writer(), store.signatures(), store.verdicts(), new CrawlerIdentifier(agent.catalog),
                    verifier());
            byte[] line = signedLine("203.0.113.7", "/antwerp/meir", "/antwerp/meir", now.minusSeconds(60)).getBytes(StandardCharsets.UTF_8);
            recorder.record(List.of(NginxFormat.compile(SignedLines.NGINX_FORMAT).parse(line, 0, line.length, AgentFilter.ALL)));
            assertThat(recorder.settling()).isNotNull();
            assertThat(checkingThreads()).isNotEmpty();

            recorder.close();

            assertThat(checkingThreads()).as("the settler's threads, stopped").isEmpty();
            assertThat(store.signatures().pendingCount()).as("settled before it closed, or waiting").isLessThanOrEqualTo(1);
        }
    }

    private static List<Thread> checkingThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("signature-check-") && t.isAlive()).toList();
    }

    /** The store's verdicts, as a process that dies as it commits them sees them. */
    private static VerdictStore crashingOnCommit(VerdictStore verdicts) {
        return new VerdictStore() {
            @Override
            public void update(String ip, String crawler, Verdict verdict) {
                verdicts.update(ip, crawler, verdict);
            }

            @Override
            public void updateAll(List<StoredVerdict> all) {
                verdicts.updateAll(all);
            }

            @Override
            public void settleWaitingHits(List<dev.crawlerrors.store.SettledHit> settled) {
                verdicts.settleWaitingHits(settled);
            }

            @Override
            public void commit() {
                throw new StoreException("the process died", null);
            }

            @Override
            public List<StoredVerdict> of(Verification verification) {
                return verdicts.of(verification);
            }
        };
    }

    /** What serve does a few seconds after it starts: checks the waiting signatures again, in a process of its own. */
    private void settleAsServeDoes(HitStore store) throws Exception {
        try (VerdictRechecks rechecks = new VerdictRechecks(store.verdicts(), store.signatures(), agent.catalog, verifier())) {
            rechecks.run();
        }
        store.writer().flush();
    }

    private String signedLine(String ip, String path, String signedPath, Instant at) {
        return SignedLines.nginx(ip, at, "GET", path, 404, SignedLines.CHROME, HOST,
                agent.signer.sign("GET", HOST, signedPath, at.getEpochSecond() - 1, at.getEpochSecond() + 600));
    }

    private ImportSummary importLog(HitStore store, List<String> lines, int capacity, int threads) throws Exception {
        LogImport job = newImport(store);
        job.settleSignaturesWith(capacity, threads);
        return run(job, lines);
    }

    private LogImport newImport(HitStore store) throws Exception {
        return new LogImport(store, new CrawlerIdentifier(agent.catalog), verifier(), FormatChooser.of(NginxFormat.compile(SignedLines.NGINX_FORMAT)));
    }

    private ImportSummary run(LogImport job, List<String> lines) throws Exception {
        Path log = Files.createTempFile(dir, "access", ".log");
        Files.writeString(log, String.join("\n", lines) + "\n");
        return job.run(List.of(log.toString()), ImportListener.Factory.NONE);
    }

    /** A verifier as a process starts with: no IP list read, the directory fetched from loopback. */
    private CrawlerVerifier verifier() throws Exception {
        Path ranges = Files.createDirectories(dir.resolve("ranges"));
        CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(agent.catalog, IpRangeSource.parse(ranges.toString())), null);
        DirectoryFetcher fetcher = new DirectoryFetcher(agent.directory.allowed(), LoopbackDirectory.clientTls(), Duration.ofSeconds(10),
                Clock.systemUTC());
        verifier.signatures(new SignedHits(new WebBotAuthVerifier(new KeyDirectories(fetcher, Clock.systemUTC(), Duration.ofMinutes(5))),
                new Signers(agent.catalog)));
        return verifier;
    }

    private static String printed(ImportSummary summary) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        summary.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String when(long millis) {
        return java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm'Z'").withZone(java.time.ZoneOffset.UTC)
                .format(Instant.ofEpochMilli(millis));
    }
}
