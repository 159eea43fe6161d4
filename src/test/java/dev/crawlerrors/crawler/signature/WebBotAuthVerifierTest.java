package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.MutableClock;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.SignatureFields;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Signed requests as a log records them, checked against a signer's directory served over HTTPS on
 * loopback: a good signature is verified and names its evidence; a tampered path, an expired
 * signature, one replayed before it was made, a key the directory does not hold and the untrusted
 * inputs of issue 35 item 4 each get their verdict and reason; a directory that is down leaves the
 * signature pending, and it is verified once the directory is back.
 */
class WebBotAuthVerifierTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final String HOST = "www.example.com";

    private final MutableClock clock = new MutableClock(NOW);
    private LoopbackDirectory directory;
    private TestSigner signer;
    private WebBotAuthVerifier verifier;

    @BeforeEach
    void start() throws Exception {
        directory = LoopbackDirectory.serving("{\"keys\":[]}");
        signer = TestSigner.ed25519(directory.origin());
        directory.serve(TestSigner.directory(signer));
        verifier = verifier(directory);
    }

    @AfterEach
    void stop() {
        directory.close();
    }

    @Test
    void verifiesASignedRequestAndNamesItsEvidence() {
        SignatureOutcome outcome = check(signer.sign("GET", HOST, "/streets/meir", seconds(-30), seconds(3600)), "/streets/meir");

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.verified);
        assertThat(outcome.verdict().reason()).isEqualTo("signed by " + directory.origin() + " with key " + signer.thumbprint()
                + " (Ed25519, in its directory since 2026-03-01T12:00Z)");
        assertThat(outcome.group()).isEqualTo("verified " + signer.thumbprint());
        assertThat(outcome.signer().toString()).isEqualTo(directory.origin());
        assertThat(outcome.pending()).isNull();
    }

    @Test
    void aTamperedPathIsSpoofed() {
        SignatureOutcome outcome = check(signer.sign("GET", HOST, "/streets/meir", seconds(-30), seconds(3600)), "/admin");

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.spoofed);
        assertThat(outcome.verdict().reason()).isEqualTo("the signature does not verify with key " + signer.thumbprint() + " of "
                + directory.origin() + ": the logged request is not the one signed, or the signature was forged");
    }

    @Test
    void anExpiredSignatureIsAReplayAndSpoofed() {
        SignatureOutcome outcome = check(signer.sign("GET", HOST, "/", seconds(-7200), seconds(-3600)), "/");

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.spoofed);
        assertThat(outcome.verdict().reason()).isEqualTo("the signature had expired when the request was made: a replay outside its"
                + " created/expires window (" + directory.origin() + ")");
        assertThat(directory.requests()).as("no key is needed to say so").isZero();
    }

    @Test
    void aSignatureMadeAfterTheRequestIsSpoofed() {
        SignatureOutcome outcome = check(signer.sign("GET", HOST, "/", seconds(600), seconds(3600)), "/");

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.spoofed);
        assertThat(outcome.group()).isEqualTo("not-yet");
    }

    @Test
    void aSignatureWithinTheSkewOfTheLoggedTimeIsNotAReplay() {
        assertThat(check(signer.sign("GET", HOST, "/", seconds(30), seconds(3600)), "/").verdict().verification())
                .isEqualTo(Verification.verified);
        assertThat(check(signer.sign("GET", HOST, "/", seconds(-3600), seconds(-30)), "/").verdict().verification())
                .isEqualTo(Verification.verified);
    }

    @Test
    void aLongRequestIsCheckedAgainstItsStart() {
        SignatureFields fields = signer.sign("GET", HOST, "/export", seconds(-7200), seconds(-300));

        SignatureOutcome outcome = verifier.check(fields, SignedRequest.of("GET", HOST, "/export", fields.signatureAgent()),
                NOW.toEpochMilli(), 600_000, step -> { });

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.verified);
    }

    @Test
    void aKeyTheDirectoryDoesNotHoldIsUnverifiedOnceTheDirectoryWasReadAfterTheRequest() {
        TestSigner stranger = TestSigner.ed25519(directory.origin());

        SignatureFields fields = stranger.sign("GET", HOST, "/", seconds(-60), seconds(3600));
        SignatureOutcome outcome = verifier.check(fields, SignedRequest.of("GET", HOST, "/", fields.signatureAgent()),
                NOW.minusSeconds(30).toEpochMilli(), Double.NaN, step -> { });

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.unverified);
        assertThat(outcome.verdict().reason()).isEqualTo("the key the signature names is not in " + directory.origin()
                + "'s directory, read after the request");
        assertThat(outcome.pending()).isNull();
    }

    @Test
    void aDirectoryThatIsDownLeavesTheSignaturePendingUntilItIsBack() throws Exception {
        directory.down();
        SignatureFields fields = signer.sign("GET", HOST, "/", seconds(-60), seconds(3600));

        SignatureOutcome first = check(fields, "/");

        assertThat(first.verdict().verification()).isEqualTo(Verification.unverified);
        assertThat(first.verdict().reason()).startsWith("signed for " + directory.origin() + " with key " + signer.thumbprint()
                + "; check pending: its directory cannot be read: " + directory.origin()
                + "/.well-known/http-message-signatures-directory could not be fetched: ").endsWith("; will check again");
        assertThat(first.pending()).isNotNull();
        assertThat(first.group()).isEqualTo("pending " + first.pending().id());

        directory.up();
        assertThat(verifier.recheck(first.pending(), step -> { }).pending()).as("not tried again within five minutes").isNotNull();
        clock.advance(Duration.ofMinutes(6));

        SignatureOutcome again = verifier.recheck(first.pending(), step -> { });

        assertThat(again.verdict().verification()).isEqualTo(Verification.verified);
        assertThat(directory.requests()).isEqualTo(1);
    }

    @Test
    void aDirectoryReadEarlierStillProvesItsKeysWhileItIsDown() {
        check(signer.sign("GET", HOST, "/", seconds(-60), seconds(3600)), "/");
        directory.down();
        clock.advance(Duration.ofHours(2));

        SignatureFields fields = signer.sign("GET", HOST, "/b", seconds(-60), seconds(7200));
        SignatureOutcome outcome = verifier.check(fields, SignedRequest.of("GET", HOST, "/b", fields.signatureAgent()),
                NOW.toEpochMilli() + 60_000, Double.NaN, step -> { });

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.verified);
    }

    @Test
    void aSignerNotAllowedIsNotFetched() throws Exception {
        TestSigner elsewhere = signer.forOrigin("https://agent.attacker.example");

        SignatureOutcome outcome = check(elsewhere.sign("GET", HOST, "/", seconds(-60), seconds(3600)), "/");

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.unverified);
        assertThat(outcome.verdict().reason()).isEqualTo("https://agent.attacker.example is not among the signers whose directories this"
                + " tool may read (--signature-hosts, --signature-directories)");
        assertThat(outcome.signer().host()).isEqualTo("agent.attacker.example");
        assertThat(directory.requests()).isZero();
    }

    @Test
    void aSignerThatIsNotHttpsNamesNoDirectory() {
        TestSigner plain = signer.forOrigin("http://" + directory.authority());

        SignatureOutcome outcome = check(plain.sign("GET", HOST, "/", seconds(-60), seconds(3600)), "/");

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.unverified);
        assertThat(outcome.group()).isEqualTo("no-signer");
        assertThat(directory.requests()).isZero();
    }

    @Test
    void aMalformedFieldAndAHugeOneAreUnverifiedInWords() {
        SignatureFields good = signer.sign("GET", HOST, "/", seconds(-60), seconds(3600));
        List<String> steps = new ArrayList<>();

        SignatureOutcome broken = verifier.check(new SignatureFields(good.signature(), "sig1=(\"@method\"", good.signatureAgent()),
                SignedRequest.of("GET", HOST, "/", null), NOW.toEpochMilli(), Double.NaN, steps::add);
        SignatureOutcome huge = verifier.check(new SignatureFields("sig1=:" + "A".repeat(1 << 20) + ":", good.signatureInput(),
                good.signatureAgent()), SignedRequest.of("GET", HOST, "/", null), NOW.toEpochMilli(), Double.NaN, step -> { });

        assertThat(broken.verdict().verification()).isEqualTo(Verification.unverified);
        assertThat(broken.verdict().reason()).isEqualTo("a signature field is not a valid structured field as logged");
        assertThat(broken.signer().toString()).as("named for the signer it claims").isEqualTo(directory.origin());
        assertThat(steps).containsExactly("fields: Signature-Input is not a valid structured field: an inner list is not closed with ')'"
                + " (at character 16)");
        assertThat(huge.verdict().reason()).isEqualTo("a signature field is not a valid structured field as logged");
        assertThat(directory.requests()).isZero();
    }

    @Test
    void aComponentTheLogDoesNotHoldLeavesItUnverified() {
        SignatureOutcome outcome = verifier.check(signer.sign("GET", HOST, "/", seconds(-60), seconds(3600)),
                SignedRequest.of("GET", null, "/", null), NOW.toEpochMilli(), Double.NaN, step -> { });

        assertThat(outcome.verdict().verification()).isEqualTo(Verification.unverified);
        assertThat(outcome.group()).isEqualTo("not-logged");
    }

    @Test
    void aSignatureAgentMemberThatIsNotTheLoggedOneCannotMatch() {
        SignatureFields good = signer.sign("GET", HOST, "/", seconds(-60), seconds(3600));
        SignatureFields swapped = new SignatureFields(good.signature(), good.signatureInput(),
                "sig1=\"" + directory.origin() + "\", other=\"https://x.example\"");

        SignatureOutcome outcome = check(swapped, "/");

        assertThat(outcome.verdict().verification()).as("the member is the same: still verified").isEqualTo(Verification.verified);
        SignatureOutcome relabelled = check(new SignatureFields(good.signature(), good.signatureInput(),
                "sig2=\"" + directory.origin() + "\""), "/");
        assertThat(relabelled.verdict().verification()).isEqualTo(Verification.unverified);
        assertThat(relabelled.group()).isEqualTo("no-signer");
    }

    @Test
    void theSameSignedRequestIsCheckedOnce() {
        SignatureFields fields = signer.sign("GET", HOST, "/", seconds(-60), seconds(3600));
        check(fields, "/");
        List<String> steps = new ArrayList<>();

        verifier.check(fields, SignedRequest.of("GET", HOST, "/", fields.signatureAgent()), NOW.toEpochMilli(), Double.NaN, steps::add);

        assertThat(steps).last().isEqualTo("signature: ed25519 verifies");
        assertThat(directory.requests()).isEqualTo(1);
    }

    private SignatureOutcome check(SignatureFields fields, String loggedPath) {
        return verifier.check(fields, SignedRequest.of("GET", HOST, loggedPath, fields.signatureAgent()), NOW.toEpochMilli(), Double.NaN,
                step -> { });
    }

    private WebBotAuthVerifier verifier(LoopbackDirectory served) {
        DirectoryFetcher fetcher = new DirectoryFetcher(served.allowed(), LoopbackDirectory.clientTls(), DirectoryFetcher.DEADLINE, clock);
        return new WebBotAuthVerifier(new KeyDirectories(fetcher, clock, KeyDirectories.RETRY_AFTER));
    }

    private static long seconds(long fromNow) {
        return NOW.getEpochSecond() + fromNow;
    }
}
