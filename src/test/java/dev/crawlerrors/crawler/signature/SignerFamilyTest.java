package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import org.junit.jupiter.api.Test;

/**
 * The family a signed agent's hits are counted under at {@code /metrics} and in alerts: a signer
 * the catalog names is its operator's, as that operator's address-verified crawlers are (ChatGPT
 * agent beside GPTBot under OpenAI); a signer it does not name, whose name anyone's request
 * chooses, is counted as other, so the family stays a bounded label.
 */
class SignerFamilyTest {

    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();
    private final Signers signers = new Signers(catalog);

    @Test
    void aSignerTheCatalogNamesIsItsOperatorsFamily() throws Exception {
        Crawler chatGptAgent = signers.of(SignerOrigin.parse("https://chatgpt.com"));

        assertThat(chatGptAgent.name()).isEqualTo("ChatGPT agent");
        assertThat(chatGptAgent.family()).isEqualTo("OpenAI").isEqualTo(catalog.crawler("GPTBot").orElseThrow().family());
        assertThat(signers.of(SignerOrigin.parse("https://agent.bot.goog")).family()).isEqualTo("Google");
    }

    @Test
    void aSignerTheCatalogDoesNotNameIsOther() throws Exception {
        Crawler stranger = signers.of(SignerOrigin.parse("https://agent.stranger.example"));

        assertThat(stranger.name()).isEqualTo("agent.stranger.example");
        assertThat(stranger.operator()).isNull();
        assertThat(stranger.family()).isEqualTo(Crawler.OTHER_FAMILY);
        assertThat(signers.unknown().family()).isEqualTo(Crawler.OTHER_FAMILY);
    }
}
