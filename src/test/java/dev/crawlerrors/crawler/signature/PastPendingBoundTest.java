package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch of signed requests that crosses the bound of signatures kept waiting ({@link
 * SignedHits#MAX_PENDING}): those before it wait, as logged; those past it are checked at once, on
 * every core, and come back in the batch's order, each with its own verdict.
 */
class PastPendingBoundTest {

    private static final String HOST = "www.example.org";

    @TempDir
    Path dir;

    @Test
    void signaturesPastTheBoundAreCheckedEachByItsOwnInTheBatchsOrder() throws Exception {
        TestSigner chatGpt = TestSigner.ed25519("https://chatgpt.com");
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("chatgpt.com.json"), TestSigner.directory(chatGpt));
        SignedHits signed = new SignedHits(new WebBotAuthVerifier(new KeyDirectories(new DirectoryFiles(keys))),
                new Signers(CrawlerCatalog.builtIn()));
        signed.pendingKeptAlready(SignedHits.MAX_PENDING - 3);

        Instant at = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String path = "/street/" + i;
            long created = at.getEpochSecond() + i - 1;
            // every seventh request is not the one signed (its path was changed after signing)
            String signedPath = i % 7 == 5 ? "/street/signed-" + i : path;
            hits.add(new Hit(at.plusSeconds(i).toEpochMilli(), 0, "20.171.207." + (2 + i % 3), "GET", path, 404, 0, null,
                    SignedLines.CHROME, 1.0, HOST, null, chatGpt.sign("GET", HOST, signedPath, created, created + 300)));
        }

        List<SignedHits.Signed> checked = signed.verifyAll(hits, true);

        assertThat(checked).hasSize(hits.size());
        for (int i = 0; i < hits.size(); i++) {
            SignedHits.Signed one = checked.get(i);
            assertThat(one.hit().hit().url()).as("line %d", i).isEqualTo(hits.get(i).url());
            assertThat(one.hit().hit().ip()).as("line %d", i).isEqualTo(hits.get(i).ip());
            assertThat(one.hit().crawler().name()).as("line %d", i).isEqualTo("ChatGPT agent");
            if (i < 3) {
                assertThat(one.logged()).as("line %d waits", i).isNotNull();
                assertThat(one.hit().verdict().verification()).as("line %d", i).isEqualTo(Verification.unverified);
            } else {
                assertThat(one.logged()).as("line %d is checked now", i).isNull();
                assertThat(one.pending()).as("line %d", i).isNull();
                assertThat(one.hit().verdict().verification()).as("line %d: %s", i, one.hit().verdict().reason())
                        .isEqualTo(i % 7 == 5 ? Verification.spoofed : Verification.verified);
            }
        }
        // the claims say what each signature proved: a forged one is not its address's verified claim
        assertThat(checked.get(5).hit().claim()).isNotEqualTo(checked.get(8).hit().claim());
        assertThat(checked.get(8).hit().claim()).isEqualTo(checked.get(11).hit().claim());
    }
}
