package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.signature.TestSigner;
import dev.crawlerrors.ingest.SignatureFields;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawl-errors verify IP AGENT --signature ... --signature-input ... --signature-agent ...}:
 * a signed request checked by its signature, with its signer's directory read from
 * {@code --signature-directories}, each step printed, and the exit status its verdict.
 */
class VerifySignedRequestTest {

    private static final Instant MADE = Instant.parse("2026-03-01T12:00:00Z");
    private static final String CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

    @TempDir
    Path dir;

    private final TestSigner chatGpt = TestSigner.ed25519("https://chatgpt.com");
    private SignatureFields signed;

    @BeforeEach
    void publishTheKey() throws Exception {
        Files.writeString(dir.resolve("chatgpt.com.json"), TestSigner.directory(chatGpt));
        signed = chatGpt.sign("GET", "shop.example", "/cart?id=7", MADE.getEpochSecond(), MADE.getEpochSecond() + 300);
    }

    private CommandRun verify(SignatureFields fields, String url, Instant at, String... more) {
        List<String> args = new ArrayList<>(List.of("verify", "20.171.207.2", CHROME, "--signature-directories", dir.toString(),
                "--signature", fields.signature(), "--signature-input", fields.signatureInput(), "--signature-agent", fields.signatureAgent(),
                "--host", "shop.example", "--url", url, "--at", at.toString()));
        args.addAll(List.of(more));
        return CommandRun.of(args.toArray(String[]::new));
    }

    @Test
    void aGoodSignatureIsItsSignersVerifiedHitWhateverItsAgentExplainedStepByStep() {
        CommandRun run = verify(signed, "/cart?id=7", MADE.plusSeconds(2));

        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isZero();
        String key = chatGpt.thumbprint();
        assertThat(run.out()).contains("request:  GET https://shop.example/cart?id=7 at 2026-03-01T12:00:02Z\n",
                "keys:     from the files of --signature-directories " + dir + "\n",
                "signer:   ChatGPT agent (OpenAI, fetcher_ai), https://chatgpt.com\n",
                "step:     signer: https://chatgpt.com, directory https://chatgpt.com/.well-known/http-message-signatures-directory\n",
                "step:     times: created 2026-03-01T12:00Z, expires 2026-03-01T12:05Z, request logged at 2026-03-01T12:00Z\n",
                "step:     base:\n          \"@method\": GET\n          \"@authority\": shop.example\n          \"@path\": /cart\n",
                "step:     key: " + key + " (Ed25519), in https://chatgpt.com's directory since ",
                "step:     signature: ed25519 verifies\n",
                "verdict:  verified\n",
                "evidence: signed by https://chatgpt.com with key " + key + " (Ed25519, in its directory since ");
    }

    @Test
    void aTamperedPathIsSpoofed() {
        CommandRun run = verify(signed, "/admin", MADE.plusSeconds(2));

        assertThat(run.exit()).isEqualTo(VerifyCommand.SPOOFED);
        assertThat(run.out()).contains("step:     signature: ed25519 does not verify\n", "verdict:  spoofed\n",
                "evidence: the signature does not verify with key " + chatGpt.thumbprint() + " of https://chatgpt.com");
    }

    @Test
    void aReplayAfterTheSignatureExpiredIsSpoofed() {
        CommandRun run = verify(signed, "/cart?id=7", MADE.plusSeconds(3600));

        assertThat(run.exit()).isEqualTo(VerifyCommand.SPOOFED);
        assertThat(run.out()).contains("verdict:  spoofed\n", "evidence: the signature had expired when the request was made");
    }

    @Test
    void aSignerWhoseDirectoryMayNotBeReadIsUnverifiedAndNothingIsFetched() {
        TestSigner stranger = TestSigner.ed25519("https://agent.stranger.example");
        SignatureFields fields = stranger.sign("GET", "shop.example", "/", MADE.getEpochSecond(), MADE.getEpochSecond() + 300);

        CommandRun run = verify(fields, "/", MADE);

        assertThat(run.exit()).isEqualTo(VerifyCommand.UNVERIFIED);
        assertThat(run.out()).contains("signer:   agent.stranger.example (unknown, fetcher_user), https://agent.stranger.example\n",
                "step:     directory: agent.stranger.example is not one this tool may read (the files of --signature-directories " + dir + ")\n",
                "verdict:  unverified\n");
    }

    @Test
    void headersFromALogArePrintedEscaped() {
        SignatureFields hostile = new SignatureFields(signed.signature(), signed.signatureInput().replace("web-bot-auth", "web-bot-auth\u001b[2J"),
                "sig1=\"https://chatgpt.com\u001b]0;owned\u0007\"");

        CommandRun run = verify(hostile, "/cart?id=7\u001b[31m", MADE);

        assertThat(run.out()).doesNotContain("\u001b").doesNotContain("\u0007");
        assertThat(run.exit()).isEqualTo(VerifyCommand.UNVERIFIED);
    }

    @Test
    void aTimeThatIsNotOneIsABadUsageNamingTheOption() {
        CommandRun run = CommandRun.of("verify", "20.171.207.2", "--signature-directories", dir.toString(), "--signature", signed.signature(),
                "--signature-input", signed.signatureInput(), "--signature-agent", signed.signatureAgent(), "--at", "yesterday");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--at: 'yesterday' is not a time");
    }
}
