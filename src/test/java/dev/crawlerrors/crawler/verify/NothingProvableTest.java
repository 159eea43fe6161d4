package dev.crawlerrors.crawler.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.dns.DnsVerifier;
import dev.crawlerrors.crawler.dns.LocalDnsServer;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the report says that no verdict can be proven: no list read, and no DNS to believe; never while one of them can prove. */
class NothingProvableTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private CrawlerVerifier verifier(Path lists, DnsVerifier dns) {
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        return new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(lists.toString())), dns);
    }

    @Test
    void saysSoWhenNoListCanBeReadAndDnsIsOff() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        try (CrawlerVerifier verifier = verifier(empty, null)) {
            assertThat(NothingProvable.of(verifier, WAIT)).hasValueSatisfying(sentence -> assertThat(sentence)
                    .startsWith("No crawler can be verified: none of the ")
                    .endsWith(" published IP lists could be read from " + empty + " and DNS checks are off, so every hit is unverified;"
                            + " put the published lists in " + empty + " (or point --ip-ranges at where they are) or give --dns-server"
                            + " a resolver, and serve checks the hits again by itself."));
        }
    }

    @Test
    void saysNothingWhileAListCanBeRead() throws Exception {
        try (CrawlerVerifier verifier = verifier(SampleLogs.ipRanges(dir), null)) {
            assertThat(NothingProvable.of(verifier, WAIT)).isEmpty();
        }
    }

    @Test
    void saysNothingWhileTheResolverPassesItsCheck() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        try (LocalDnsServer dns = new LocalDnsServer().answersTheCanary();
             CrawlerVerifier verifier = verifier(empty, new DnsVerifier(dns.address(), Duration.ofSeconds(2), 16, 100, 100))) {
            assertThat(NothingProvable.of(verifier, WAIT)).isEmpty();
        }
    }

    @Test
    void saysSoWhenTheResolverFailsItsCheckAndNamesIt() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        try (LocalDnsServer dns = new LocalDnsServer().nxdomainForEveryOtherName();
             CrawlerVerifier verifier = verifier(empty, new DnsVerifier(dns.address(), Duration.ofSeconds(2), 16, 100, 100))) {
            assertThat(NothingProvable.of(verifier, WAIT)).hasValueSatisfying(sentence -> assertThat(sentence)
                    .contains(" and the DNS resolver " + dns.address() + " failed its check, so every hit is unverified;")
                    .contains("or give --dns-server a resolver that answers"));
        }
    }
}
