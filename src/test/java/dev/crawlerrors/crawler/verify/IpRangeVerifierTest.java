package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IpRangeVerifierTest {

    static final String COMMON = """
            {"creationTime": "2026-11-20T23:00:47.000000",
             "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.66.0/27"},
                          {"ipv6Prefix": "2001:4860:4801:10::/64"}]}
            """;

    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();
    private final Crawler googlebot = catalog.crawler("Googlebot Desktop").orElseThrow();
    private final Crawler inspectionTool = catalog.crawler("Google-InspectionTool").orElseThrow();
    private final Crawler adsBot = catalog.crawler("AdsBot-Google").orElseThrow();

    @TempDir
    Path dir;

    private HttpServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    private IpRangeVerifier fromDirectory() throws Exception {
        Files.writeString(dir.resolve("common-crawlers.json"), COMMON);
        return new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString()));
    }

    @Test
    void aClientAddressTheLibraryReadsAsARangeIsNoAddressNotAFailure() throws Exception {
        // found by the drain's fuzzer: the batch failed with 500, an import would have ended
        Verdict verdict = fromDirectory().verify("-6.249.66.3", googlebot);

        assertThat(verdict).isEqualTo(new Verdict(Verification.unverified,
                "claims Googlebot Desktop; not checked: '-6.249.66.3' is not an IP address"));
    }

    @Test
    void verifiesAnAddressInThePublishedListAndNamesThePrefix() throws Exception {
        Verdict verdict = fromDirectory().verify("66.249.66.12", inspectionTool);

        assertThat(verdict).isEqualTo(new Verdict(Verification.verified,
                "in common-crawlers.json 66.249.66.0/27 (created 2026-11-20)"));
    }

    @Test
    void verifiesIpv6Googlebot() throws Exception {
        assertThat(fromDirectory().verify("2001:4860:4801:10::1a", googlebot).verification()).isEqualTo(Verification.verified);
    }

    @Test
    void callsAGooglebotFromACloudAddressSpoofed() throws Exception {
        Verdict verdict = fromDirectory().verify("203.0.113.9", googlebot);

        assertThat(verdict).isEqualTo(new Verdict(Verification.spoofed,
                "claims Googlebot Desktop; 203.0.113.9 is in no Google list (common-crawlers.json (created 2026-11-20))"));
    }

    @Test
    void leavesAHitUnverifiedWhenItsListCannotBeRead() throws Exception {
        Verdict verdict = fromDirectory().verify("66.249.66.12", adsBot);

        assertThat(verdict.verification()).isEqualTo(Verification.unverified);
        assertThat(verdict.reason()).isEqualTo("claims AdsBot-Google; not checked: there is no special-crawlers.json in " + dir);
    }

    @Test
    void readsEveryListAtOnceAndDescribesWhatItReadAndWhatItCouldNot() throws Exception {
        IpRangeVerifier verifier = fromDirectory();

        verifier.loadAll();

        List<String> lines = verifier.describeLists();
        assertThat(lines.get(0)).startsWith("common-crawlers.json: 3 prefixes, created 2026-11-20T23:00:47, modified ");
        long named = catalog.crawlers().stream().flatMap(c -> c.ipLists().stream()).distinct().count();
        assertThat(lines).hasSize((int) named);
        assertThat(lines.subList(1, lines.size())).allMatch(line -> line.startsWith("not read: there is no "));
    }

    @Test
    void readsTheOlderFileNameOfGooglesList() throws Exception {
        Files.writeString(dir.resolve("googlebot.json"), COMMON);
        IpRangeVerifier verifier = new IpRangeVerifier(catalog, IpRangeSource.parse(dir.toString()));

        assertThat(verifier.verify("66.249.64.3", googlebot).verification()).isEqualTo(Verification.verified);
    }

    @Test
    void readsListsFromABaseUrlOverHttp() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        String base = serve(requests, 200, COMMON);
        IpRangeVerifier verifier = new IpRangeVerifier(catalog, IpRangeSource.parse(base));

        assertThat(verifier.verify("66.249.64.3", googlebot).verification()).isEqualTo(Verification.verified);
        assertThat(verifier.verify("66.249.64.4", googlebot).verification()).isEqualTo(Verification.verified);
        assertThat(verifier.verify("8.8.8.8", googlebot).verification()).isEqualTo(Verification.spoofed);
        assertThat(requests).as("the list is fetched once").hasValue(1);
        assertThat(verifier.loadedLists()).singleElement().extracting(IpRangeList::origin).isEqualTo(base + "common-crawlers.json");
    }

    @Test
    void saysWhichUrlFailedWhenTheServerAnswersAnError() throws Exception {
        String base = serve(new AtomicInteger(), 503, "down");
        Verdict verdict = new IpRangeVerifier(catalog, IpRangeSource.parse(base)).verify("66.249.64.3", googlebot);

        assertThat(verdict).isEqualTo(new Verdict(Verification.unverified,
                "claims Googlebot Desktop; not checked: " + base + "common-crawlers.json answered HTTP 503"));
    }

    @Test
    void saysWhenAListIsNotJson() throws Exception {
        String base = serve(new AtomicInteger(), 200, "<html>not json</html>");
        Verdict verdict = new IpRangeVerifier(catalog, IpRangeSource.parse(base)).verify("66.249.64.3", googlebot);

        assertThat(verdict.verification()).isEqualTo(Verification.unverified);
        assertThat(verdict.reason()).contains("common-crawlers.json from " + base + "common-crawlers.json is not JSON");
    }

    @Test
    void saysThatACrawlerWithoutAListCannotBeVerifiedHere() {
        Crawler unknown = new Crawler("ExampleBot", "Example", BotType.crawler_other,
                java.util.List.of("ExampleBot"), null, null, null);
        Verdict verdict = new IpRangeVerifier(catalog, IpRangeSource.official()).verify("192.0.2.1", unknown);

        assertThat(verdict).isEqualTo(new Verdict(Verification.unverified, "no way to verify ExampleBot is known (no published IP list or DNS domain)"));
    }

    private String serve(AtomicInteger requests, int status, String body) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/lists/", exchange -> {
            requests.incrementAndGet();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/lists/";
    }
}
