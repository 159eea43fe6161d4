package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import inet.ipaddr.IPAddressString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An import of logs of several formats in one directory, as Debian's Apache writes them: the
 * default site's {@code access.log} ({@code combined}) beside {@code other_vhosts_access.log}
 * ({@code vhost_combined}), into the real store. Each log's format is its own, whichever comes first.
 */
class LogImportTest {

    @TempDir
    Path dir;

    /** Lines as Debian's Apache writes them ({@code %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"}), documentation addresses. */
    private static final String COMBINED = """
            198.51.100.7 - - [05/Aug/2024:00:34:44 +0000] "GET / HTTP/1.1" 200 3948 "-" "-"
            66.249.66.1 - - [05/Aug/2024:00:36:54 +0000] "GET /old-page HTTP/1.1" 404 437 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
            2001:db8::7 - - [05/Aug/2024:00:40:01 +0000] "GET /robots.txt HTTP/1.1" 404 437 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
            """;
    /** {@code %v:%p %h %l %u %t ...}: the virtual host and port first. */
    private static final String VHOST_COMBINED = """
            bank.example:443 203.0.113.118 - - [05/Aug/2024:00:01:36 +0000] "GET / HTTP/1.1" 200 6383 "-" "Mozilla/5.0 (compatible; PRTG Network Monitor (www.paessler.com); Windows)"
            bank.example:443 66.249.66.2 - - [05/Aug/2024:00:02:36 +0000] "GET /gone HTTP/1.1" 410 262 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
            www.bank.example:80 66.249.66.3 - - [05/Aug/2024:00:03:36 +0000] "GET /moved HTTP/1.1" 301 262 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
            192.0.2.10:443 157.55.39.9 - - [05/Aug/2024:00:04:36 +0000] "GET /x HTTP/1.1" 404 262 "-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
            """;

    private List<StoredHit> importing(List<String> names) throws Exception {
        Path logs = Files.createDirectories(dir.resolve(String.join("-", names)));
        Files.writeString(logs.resolve("access.log.1"), COMBINED);
        Files.writeString(logs.resolve("other_vhosts_access.log.1"), VHOST_COMBINED);
        List<String> sources = names.stream().map(name -> logs.resolve(name).toString()).toList();
        List<StoredHit> rows = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(logs.resolve("hits.duckdb"));
             CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(CrawlerCatalog.builtIn(),
                     IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())), null)) {
            ImportSummary summary = new LogImport(store, new CrawlerIdentifier(CrawlerCatalog.builtIn()), verifier,
                    NamedFormats.chooser("auto", notice -> { })).run(sources, ImportListener.Factory.NONE, true);
            assertThat(summary.lines().linesBad()).isZero();
            assertThat(summary.sourceLines()).hasSize(2);
            store.reader().forEach(new HitFilter(List.of(StatusRange.ANY), HitFilter.ALL_BOT_TYPES, EnumSet.allOf(Verification.class), null, null,
                    null, null), rows::add);
        }
        return rows;
    }

    private static Map<String, String> hostByAddress(List<StoredHit> rows) {
        Map<String, String> hosts = new TreeMap<>();
        rows.forEach(row -> hosts.put(row.ip(), String.valueOf(row.host())));
        return hosts;
    }

    @Test
    void readsAVhostCombinedLogAfterACombinedOneAsWhatItIs() throws Exception {
        List<StoredHit> rows = importing(List.of("access.log.1", "other_vhosts_access.log.1"));

        assertThat(rows).allSatisfy(row -> assertThat(new IPAddressString(row.ip()).isIPAddress()).as(row.ip()).isTrue());
        assertThat(hostByAddress(rows)).isEqualTo(Map.of("66.249.66.1", "null", "2001:db8::7", "null", "203.0.113.118", "bank.example",
                "66.249.66.2", "bank.example", "66.249.66.3", "www.bank.example", "157.55.39.9", "192.0.2.10"));
    }

    @Test
    void readsACombinedLogAfterAVhostCombinedOneAsWhatItIs() throws Exception {
        List<StoredHit> rows = importing(List.of("other_vhosts_access.log.1", "access.log.1"));

        assertThat(rows).allSatisfy(row -> assertThat(new IPAddressString(row.ip()).isIPAddress()).as(row.ip()).isTrue());
        assertThat(hostByAddress(rows)).isEqualTo(Map.of("66.249.66.1", "null", "2001:db8::7", "null", "203.0.113.118", "bank.example",
                "66.249.66.2", "bank.example", "66.249.66.3", "www.bank.example", "157.55.39.9", "192.0.2.10"));
    }
}
