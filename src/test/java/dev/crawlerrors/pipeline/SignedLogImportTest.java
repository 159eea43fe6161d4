package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.signature.DirectoryFetcher;
import dev.crawlerrors.crawler.signature.KeyDirectories;
import dev.crawlerrors.crawler.signature.LoopbackDirectory;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.signature.SignedLines;
import dev.crawlerrors.crawler.signature.Signers;
import dev.crawlerrors.crawler.signature.TestSigner;
import dev.crawlerrors.crawler.signature.WebBotAuthVerifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.NginxFormat;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signed requests from a log to the report, for real: a signer on the JDK's Ed25519 writes them
 * into nginx and JSON logs, its key directory is served over HTTPS on loopback, and the import
 * stores them in DuckDB or ClickHouse. A good signature is verified and named for its signer
 * whatever its user agent; a tampered path and an expired signature are spoofed; while the
 * directory is down they wait, unverified, and are settled once it is back; a key rotated since
 * still proves its old lines from the key history the store kept.
 */
@ClickHouseTest
class SignedLogImportTest {

    private static final String HOST = "www.example.com";

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
    void anNginxLogOfSignedRequestsReachesTheReportOnDuckDb() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            signedRequestsReachTheReport(store);
        }
    }

    @Test
    void anNginxLogOfSignedRequestsReachesTheReportOnClickHouse() throws Exception {
        ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("signed_import")),
                ClickHouseSettings.IMPORT)) {
            signedRequestsReachTheReport(store);
        }
    }

    /** The directory down at the import, then back: each line's verdict, and the summary's. */
    private void signedRequestsReachTheReport(HitStore store) throws Exception {
        List<String> lines = new ArrayList<>();
        Instant at = now.minusSeconds(600);
        lines.add(SignedLines.nginx("203.0.113.7", at, "GET", "/antwerp/meir", 404, SignedLines.CHROME, HOST,
                agent.signer.sign("GET", HOST, "/antwerp/meir", at.getEpochSecond() - 5, at.getEpochSecond() + 3600)));
        lines.add(SignedLines.nginx("203.0.113.7", at.plusSeconds(1), "GET", "/admin", 404, SignedLines.CHROME, HOST,
                agent.signer.sign("GET", HOST, "/antwerp/meir", at.getEpochSecond() - 5, at.getEpochSecond() + 3600)));
        lines.add(SignedLines.nginx("198.51.100.4", at.plusSeconds(2), "GET", "/ghent/kouter", 410, SignedLines.CHROME, HOST,
                agent.signer.sign("GET", HOST, "/ghent/kouter", at.getEpochSecond() - 7200, at.getEpochSecond() - 3600)));
        lines.add(SignedLines.nginx("192.0.2.50", at.plusSeconds(3), "GET", "/people", 404, SignedLines.CHROME, HOST, null));
        agent.directory.down();

        ImportSummary summary = importLog(store, verifier(Duration.ZERO), lines);

        HitFilter all = new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, Set.of(Verification.values()), null, null, null, null);
        assertThat(store.reader().page(all, 0, 10)).extracting(StoredHit::url, StoredHit::crawler, StoredHit::botType, StoredHit::verification)
                .containsExactly(
                        tuple("/ghent/kouter", "Test agent", "fetcher_ai", "spoofed"),
                        tuple("/admin", "Test agent", "fetcher_ai", "unverified"),
                        tuple("/antwerp/meir", "Test agent", "fetcher_ai", "unverified"));
        assertThat(store.reader().page(all, 0, 10).get(2).reason()).startsWith("signed for " + agent.directory.origin() + " with key "
                + agent.signer.thumbprint() + "; check pending: its directory cannot be read: ").endsWith("; will check again");
        assertThat(summary.crawlerHits).isEqualTo(3);
        assertThat(store.signatures().pendingCount()).isEqualTo(2);

        agent.directory.up();
        CrawlerVerifier serving = verifier(Duration.ZERO);
        try (VerdictRechecks rechecks = new VerdictRechecks(store.verdicts(), store.signatures(), agent.catalog, serving)) {
            rechecks.run();
        }
        store.writer().flush();

        assertThat(store.reader().page(all, 0, 10)).extracting(StoredHit::url, StoredHit::verification, StoredHit::reason).containsExactly(
                tuple("/ghent/kouter", "spoofed", "the signature had expired when the request was made: a replay outside its"
                        + " created/expires window (" + agent.directory.origin() + ")"),
                tuple("/admin", "spoofed", "the signature does not verify with key " + agent.signer.thumbprint() + " of " + agent.directory.origin()
                        + ": the logged request is not the one signed, or the signature was forged"),
                tuple("/antwerp/meir", "verified", "signed by " + agent.directory.origin() + " with key " + agent.signer.thumbprint()
                        + " (Ed25519, in its directory since " + when(store.signatures().directories().get(0).fetchedMillis()) + ")"));
        assertThat(store.signatures().pendingCount()).isZero();
        assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/antwerp/meir");
    }

    /** Opens the same store again, as a new process would. */
    private interface Reopen {
        HitStore open() throws Exception;
    }

    @Test
    void aKeyRotatedMidLogStillProvesTheLinesSignedWithItOnDuckDb() throws Exception {
        Path db = dir.resolve("hits.duckdb");
        aKeyRotatedMidLogStillProvesTheLinesSignedWithIt(() -> DuckDbHitStore.open(db));
    }

    @Test
    void aKeyRotatedMidLogStillProvesTheLinesSignedWithItOnClickHouse() throws Exception {
        ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
        String db = ClickHouseTestCluster.database("signed_rotation");
        aKeyRotatedMidLogStillProvesTheLinesSignedWithIt(() -> ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.IMPORT));
    }

    /** Three imports into {@code stores}: the key history one keeps decides the next one's verdicts. */
    private void aKeyRotatedMidLogStillProvesTheLinesSignedWithIt(Reopen stores) throws Exception {
        TestSigner rotated = TestSigner.ed25519(agent.directory.origin());
        // four hours ago, an import read the directory with the old key alone
        Instant reading = now.minus(Duration.ofHours(4));
        try (HitStore store = stores.open()) {
            importLog(store, verifier(Duration.ofMinutes(5), Clock.fixed(reading, java.time.ZoneOffset.UTC)), List.of(
                    signedLine(agent.signer, "/before-the-rotation", reading.minusSeconds(60))));
        }
        // since, the agent.signer published a new key and took the old one out: its log holds both
        agent.directory.serve(TestSigner.directory(rotated));
        try (HitStore store = stores.open()) {
            importLog(store, verifier(Duration.ofMinutes(5), Clock.systemUTC()), List.of(
                    signedLine(agent.signer, "/old-key", now.minus(Duration.ofHours(2))),
                    signedLine(rotated, "/new-key", now.minus(Duration.ofHours(1)))));
        }
        // and a request made with the old key once the directory was read without it proves nothing
        try (HitStore store = stores.open()) {
            importLog(store, verifier(Duration.ofMinutes(5), Clock.systemUTC()), List.of(
                    signedLine(agent.signer, "/old-key-after-its-removal", now.plus(Duration.ofMinutes(10)))));

            HitFilter all = new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, Set.of(Verification.values()), null, null, null, null);
            assertThat(store.reader().page(all, 0, 10)).extracting(StoredHit::url, StoredHit::verification).containsExactly(
                    tuple("/old-key-after-its-removal", "unverified"),
                    tuple("/new-key", "verified"),
                    tuple("/old-key", "verified"),
                    tuple("/before-the-rotation", "verified"));
            assertThat(store.reader().page(all, 0, 10).get(0).reason()).startsWith("key " + agent.signer.thumbprint() + " was removed from "
                    + agent.directory.origin() + "'s directory");
            assertThat(store.signatures().directories()).extracting(d -> d.fetchedMillis() == reading.toEpochMilli())
                    .containsExactly(true, false);
        }
        assertThat(agent.directory.requests()).as("read once by each of the first two imports").isEqualTo(2);
    }

    @Test
    void aJsonLogOfSignedRequestsIsReadAsTheNginxOneIs() throws Exception {
        Instant at = now.minusSeconds(60);
        List<String> lines = List.of(
                SignedLines.json("203.0.113.7", at, "GET", "/antwerp/meir?page=2", 404, SignedLines.CHROME, HOST,
                        agent.signer.sign("GET", HOST, "/antwerp/meir?page=2", at.getEpochSecond(), at.getEpochSecond() + 300)),
                SignedLines.json("192.0.2.50", at, "GET", "/people", 404, SignedLines.CHROME, HOST, null));
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            LogImport job = new LogImport(store, new CrawlerIdentifier(agent.catalog), verifier(Duration.ofMinutes(5)),
                    FormatChooser.of(NginxFormat.compile(SignedLines.NGINX_JSON_FORMAT)));
            Path log = dir.resolve("access.json");
            Files.writeString(log, String.join("\n", lines) + "\n");

            ImportSummary summary = job.run(List.of(log.toString()), ImportListener.Factory.NONE);

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url, StoredHit::crawler, StoredHit::verification)
                    .containsExactly(tuple("/antwerp/meir?page=2", "Test agent", "verified"));
            assertThat(summary.directories).containsExactly("key directory " + agent.directory.origin() + "/.well-known/http-message-signatures-directory:"
                    + " 1 key, read " + when(store.signatures().directories().get(0).fetchedMillis()) + " from the network, from "
                    + agent.directory.authority());
        }
    }

    private String signedLine(TestSigner by, String path, Instant at) {
        return SignedLines.nginx("203.0.113.7", at, "GET", path, 404, SignedLines.CHROME, HOST,
                by.sign("GET", HOST, path, at.getEpochSecond() - 1, at.getEpochSecond() + 600));
    }

    private ImportSummary importLog(HitStore store, CrawlerVerifier verifier, List<String> lines) throws Exception {
        Path log = Files.createTempFile(dir, "access", ".log");
        Files.writeString(log, String.join("\n", lines) + "\n");
        LogImport job = new LogImport(store, new CrawlerIdentifier(agent.catalog), verifier,
                FormatChooser.of(NginxFormat.compile(SignedLines.NGINX_FORMAT)));
        return job.run(List.of(log.toString()), ImportListener.Factory.NONE);
    }

    /** A verifier as a process starts with: no IP list read, the directory fetched from loopback, failures retried after {@code retry}. */
    private CrawlerVerifier verifier(Duration retry) throws Exception {
        return verifier(retry, Clock.systemUTC());
    }

    /** {@link #verifier(Duration)} whose readings are said to be made at {@code clock}'s time. */
    private CrawlerVerifier verifier(Duration retry, Clock clock) throws Exception {
        Path ranges = Files.createDirectories(dir.resolve("ranges"));
        CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(agent.catalog, IpRangeSource.parse(ranges.toString())), null);
        DirectoryFetcher fetcher = new DirectoryFetcher(agent.directory.allowed(), LoopbackDirectory.clientTls(), Duration.ofSeconds(10), clock);
        verifier.signatures(new SignedHits(new WebBotAuthVerifier(new KeyDirectories(fetcher, clock, retry)),
                new Signers(agent.catalog)));
        return verifier;
    }

    private static String when(long millis) {
        return java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm'Z'").withZone(java.time.ZoneOffset.UTC)
                .format(Instant.ofEpochMilli(millis));
    }
}
