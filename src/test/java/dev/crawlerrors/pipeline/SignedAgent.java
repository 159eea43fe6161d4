package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.signature.LoopbackDirectory;
import dev.crawlerrors.crawler.signature.TestSigner;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A signing agent for the pipeline's tests: an Ed25519 signer, its key directory served on
 * loopback, and the built-in catalog extended with an agent that names that directory.
 */
final class SignedAgent implements AutoCloseable {

    final LoopbackDirectory directory;
    final TestSigner signer;
    final CrawlerCatalog catalog;

    private SignedAgent(LoopbackDirectory directory, TestSigner signer, CrawlerCatalog catalog) {
        this.directory = directory;
        this.signer = signer;
        this.catalog = catalog;
    }

    /** Serves the agent's directory and writes its catalog entry into {@code dir}. */
    static SignedAgent start(Path dir) throws Exception {
        LoopbackDirectory directory = LoopbackDirectory.serving("{\"keys\":[]}");
        TestSigner signer = TestSigner.ed25519(directory.origin());
        directory.serve(TestSigner.directory(signer));
        Path own = dir.resolve("crawlers.json");
        Files.writeString(own, "{\"crawlers\":[{\"name\":\"Test agent\",\"operator\":\"Tests\",\"botType\":\"fetcher_ai\","
                + "\"signatureAgents\":[\"" + directory.origin() + "\"]}]}");
        return new SignedAgent(directory, signer, CrawlerCatalog.builtIn().extendedWith(own));
    }

    @Override
    public void close() {
        directory.close();
    }
}
