package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A site behind a CDN: nginx logs the CDN edge's address and, in {@code $http_x_forwarded_for}, what
 * the edge says about the client. With {@code --trusted-proxies} naming the edge's ranges, the report
 * shows and verifies the client; the log is {@code cdn-access.log} beside this class.
 */
class TrustedProxiesImportTest {

    private static final String FORMAT = "nginx:$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
            + "\"$http_referer\" \"$http_user_agent\" \"$http_x_forwarded_for\"";
    private static final HitFilter EVERY_VERDICT = new HitFilter(List.of(), Set.of(), Set.of(Verification.values()), null, null, null, null);

    @TempDir
    Path dir;

    private Path log() throws Exception {
        Path log = dir.resolve("access.log");
        try (InputStream in = TrustedProxiesImportTest.class.getResourceAsStream("cdn-access.log")) {
            Files.write(log, in.readAllBytes());
        }
        return log;
    }

    private List<String> stored(Path db) {
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            return store.reader().page(EVERY_VERDICT, 0, 100).stream().sorted(Comparator.comparing(StoredHit::url))
                    .map(hit -> hit.url() + " " + hit.ip() + " " + hit.verification() + ": " + hit.reason()).toList();
        }
    }

    @Test
    void theClientBehindATrustedProxyIsShownAndVerified() throws Exception {
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.importing(dir, db, "--format", FORMAT, "--trusted-proxies", "173.245.48.0/20,2400:cb00::/32", log().toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Crawler hits stored: 5;").contains("Verdicts: verified 1 spoofed 2 unverified 2");
        assertThat(stored(db)).containsExactly(
                "/antwerpen/meir 66.249.66.1 verified: in common-crawlers.json 66.249.64.0/19 (created 2026-11-20)",
                "/brugge/markt 173.245.48.7 unverified: claims Googlebot Desktop; 173.245.48.7 is a trusted proxy (--trusted-proxies)"
                        + " and the line records no client address behind it",
                // the client wrote 66.249.66.1 into X-Forwarded-For itself; the edge appended the address it came from
                "/gent/veldstraat 203.0.113.9 spoofed: claims Googlebot Desktop; 203.0.113.9 is in no Google list"
                        + " (common-crawlers.json (created 2026-11-20))",
                // an address that is no proxy is the client, whatever X-Forwarded-For it sent
                "/hasselt/grote-markt 198.51.100.7 spoofed: claims Googlebot Desktop; 198.51.100.7 is in no Google list"
                        + " (common-crawlers.json (created 2026-11-20))",
                "/leuven/ladeuzeplein 10.0.0.5 unverified: claims Googlebot Desktop; 10.0.0.5 is a private address: the request came"
                        + " through a proxy that recorded no client (log X-Forwarded-For and name the proxy with --trusted-proxies)");
    }

    @Test
    void withoutTrustedProxiesEveryCrawlerBehindTheCdnLooksSpoofed() throws Exception {
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.importing(dir, db, "--format", FORMAT, log().toString());

        assertThat(run.out()).contains("Verdicts: spoofed 4 unverified 1");
        assertThat(stored(db)).first().asString().startsWith("/antwerpen/meir 173.245.48.5 spoofed: ");
    }

    @Test
    void aPrivateSenderIsNoProxyUntilNamedSoItsHeaderBuysNoVerdict() throws Exception {
        // Docker's userland proxy: every client looks like 172.17.0.1 and nothing is appended, so
        // X-Forwarded-For is what the sender wrote itself
        Path log = dir.resolve("docker.log");
        Files.writeString(log, "172.17.0.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerpen/meir HTTP/1.1\" 404 153 \"-\" "
                + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" \"66.249.66.1\"\n"
                + "fc.example.net - - [14/May/2025:09:31:03 +0200] \"GET /gent/veldstraat HTTP/1.1\" 404 153 \"-\" "
                + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" \"66.249.66.1\"\n");
        Path untrusted = dir.resolve("untrusted.duckdb");
        Path trusted = dir.resolve("trusted.duckdb");

        CommandRun plain = CommandRun.importing(dir, untrusted, "--format", FORMAT, log.toString());
        CommandRun named = CommandRun.importing(dir, trusted, "--format", FORMAT, "--trusted-proxies", "172.17.0.0/16", log.toString());

        assertThat(plain.exit()).isZero();
        assertThat(plain.out()).contains("Verdicts: unverified 1\n");
        assertThat(stored(untrusted)).first().asString().startsWith("/antwerpen/meir 172.17.0.1 unverified: ");
        // a host name starting 'fc' is no private address, nor an address at all: a bad line of the format
        assertThat(stored(untrusted)).hasSize(1);
        assertThat(plain.out()).contains(log + " line 2: 'fc.example.net' is not a $remote_addr; expected an IPv4 or IPv6 address");
        assertThat(stored(trusted)).first().asString()
                .isEqualTo("/antwerpen/meir 66.249.66.1 verified: in common-crawlers.json 66.249.64.0/19 (created 2026-11-20)");
    }

    @Test
    void aTrustedProxyThatIsNoAddressIsABadOptionNamingIt() throws Exception {
        CommandRun run = CommandRun.importing(dir, dir.resolve("hits.duckdb"), "--trusted-proxies", "cloudflare", log().toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--trusted-proxies: 'cloudflare' is not an IP address or CIDR prefix such as 173.245.48.0/20 or 2400:cb00::/32");
    }
}
