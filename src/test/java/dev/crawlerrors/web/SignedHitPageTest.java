package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.signature.DirectoryFiles;
import dev.crawlerrors.crawler.signature.KeyDirectories;
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
import dev.crawlerrors.pipeline.ImportListener;
import dev.crawlerrors.pipeline.LogImport;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a signed request shows once imported: ChatGPT agent signs with a Chrome user agent, its key
 * is read from {@code --signature-directories}; the report's JSON and HTML name the signer as the
 * crawler with the evidence (directory, key thumbprint, when it was first read), the tampered
 * request is its spoofed hit, and the key directory is listed among what the verdicts rest on.
 */
class SignedHitPageTest {

    private static final String HOST = "shop.example";

    @TempDir
    Path dir;

    private DuckDbHitStore store;
    private ReportServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private String get(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void aSignedHitNamesItsSignerAndItsKeyInJsonAndHtml() throws Exception {
        TestSigner chatGpt = TestSigner.ed25519("https://chatgpt.com");
        Path keys = Files.createDirectories(dir.resolve("keys"));
        Files.writeString(keys.resolve("chatgpt.com.json"), TestSigner.directory(chatGpt));
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(catalog,
                IpRangeSource.parse(Files.createDirectories(dir.resolve("ranges")).toString())), null);
        verifier.signatures(new SignedHits(new WebBotAuthVerifier(new KeyDirectories(new DirectoryFiles(keys))), new Signers(catalog)));
        Instant at = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);
        Path log = dir.resolve("access.log");
        Files.writeString(log, String.join("\n",
                SignedLines.nginx("20.171.207.2", at, "GET", "/antwerp/meir", 404, SignedLines.CHROME, HOST,
                        chatGpt.sign("GET", HOST, "/antwerp/meir", at.getEpochSecond() - 1, at.getEpochSecond() + 300)),
                SignedLines.nginx("20.171.207.2", at.plusSeconds(1), "GET", "/admin", 404, SignedLines.CHROME, HOST,
                        chatGpt.sign("GET", HOST, "/antwerp/meir", at.getEpochSecond() - 1, at.getEpochSecond() + 300))) + "\n");
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        new LogImport(store, new CrawlerIdentifier(catalog), verifier, FormatChooser.of(NginxFormat.compile(SignedLines.NGINX_FORMAT)))
                .run(List.of(log.toString()), ImportListener.Factory.NONE);
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC)), store.health(), ServerConfig.on("127.0.0.1", 0).withEvidence(() -> verifier.describeEvidence(Instant.now())));

        ObjectMapper mapper = new ObjectMapper();
        JsonNode row = mapper.readTree(get("/api/crawl-errors")).get("rows").get(0);
        assertThat(row.get("url").asText()).isEqualTo("/antwerp/meir");
        assertThat(row.get("crawler").asText()).isEqualTo("ChatGPT agent");
        assertThat(row.get("botType").asText()).isEqualTo("fetcher_ai");
        assertThat(row.get("verification").asText()).isEqualTo("verified");
        assertThat(row.get("userAgent").asText()).isEqualTo(SignedLines.CHROME);
        String evidence = "signed by https://chatgpt.com with key " + chatGpt.thumbprint() + " (Ed25519, in its directory since ";
        assertThat(row.get("verificationReason").asText()).startsWith(evidence);
        JsonNode spoofed = mapper.readTree(get("/api/crawl-errors?verification=spoofed")).get("rows").get(0);
        assertThat(spoofed.get("url").asText()).isEqualTo("/admin");
        assertThat(spoofed.get("crawler").asText()).isEqualTo("ChatGPT agent");
        assertThat(spoofed.get("verificationReason").asText()).isEqualTo("the signature does not verify with key "
                + chatGpt.thumbprint() + " of https://chatgpt.com: the logged request is not the one signed, or the signature was forged");

        var page = Jsoup.parse(get("/crawl-errors"));
        assertThat(page.select("#hits tbody td.verified").attr("title")).startsWith(evidence);
        assertThat(page.select("#sources li").eachText()).anySatisfy(line -> assertThat(line).startsWith(
                "key directory https://chatgpt.com/.well-known/http-message-signatures-directory: 1 key, read ")
                .endsWith(" from the files of --signature-directories " + keys));
        var hit = Jsoup.parse(get("/crawl-errors/hits/" + row.get("id").asText()));
        assertThat(hit.text()).contains("Crawler ChatGPT agent", "Verification verified", "Evidence " + evidence);
    }
}
