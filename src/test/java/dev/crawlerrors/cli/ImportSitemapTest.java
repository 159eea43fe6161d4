package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.ipRanges;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.sitemap.SitemapServer;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code import --sitemap}: sitemaps from a real HTTP server on loopback kept in the store beside the logs. */
class ImportSitemapTest {

    @TempDir
    Path dir;

    @Test
    void keepsTheSitemapsReadAndSaysWhichWasRefusedWithoutLosingTheLogs() throws Exception {
        Path db = dir.resolve("hits.duckdb");
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.lines(1, 4));
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit;
        String good;
        String gone;
        try (SitemapServer server = new SitemapServer()) {
            server.serve("/sitemap.xml.gz", SitemapServer.gzip(SitemapServer.urlset("https://www.example.be/page/1", "https://www.example.be/page/2")));
            server.handle("/gone.xml", exchange -> SitemapServer.answer(exchange, 404, new byte[0]));
            good = server.base() + "/sitemap.xml.gz";
            gone = server.base() + "/gone.xml";
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cli = Main.commandLine();
            cli.setErr(new java.io.PrintWriter(new ByteArrayOutputStream(), true));
            exit = cli.execute("import", "--db", db.toString(), "--ip-ranges", ipRanges(dir).toString(), "--dns-server", "none",
                    "--sitemap", good, "--sitemap", gone, log.toString());
        } finally {
            System.setOut(original);
        }

        assertThat(exit).isEqualTo(Main.RUNTIME_FAILURE);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("sitemap " + good + ": 2 URLs read from 1 file\n",
                "sitemap " + gone + " was not read: the server answered 404 Not Found, not 200; no copy of it is held yet\n");
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(4);
            assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isEqualTo(2);
            assertThat(store.sitemaps().sitemaps()).singleElement().satisfies(held -> {
                assertThat(held.sitemap()).isEqualTo(good);
                assertThat(held.urls()).isEqualTo(2);
            });
        }
    }

    @Test
    void hitsOfALogWithoutHostsAreStoredOnTheHostGivenAndMatchTheSitemapByIt() throws Exception {
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.lines(1, 4));
        Path sitemap = Files.writeString(dir.resolve("sitemap.txt"), "https://www.example.be/page/1\nhttps://WWW.example.be:443/page/2\n"
                + "https://shop.example.be/page/3\n");

        assertThat(importWith(dir.resolve("site.duckdb"), log, sitemap, "--host", "WWW.Example.BE")).isZero();
        assertThat(importWith(dir.resolve("any.duckdb"), log, sitemap)).isZero();

        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("site.duckdb"))) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(dev.crawlerrors.store.StoredHit::host)
                    .containsOnly("www.example.be");
            assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isEqualTo(2);
            assertThat(store.reader().count(new HitFilter(java.util.List.of(), java.util.Set.of(), java.util.Set.of(), null, null, null, "www.example.be"))).isEqualTo(4);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("any.duckdb"))) {
            assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isEqualTo(3); // by target alone, of any host
        }
    }

    @Test
    void aHostThatIsNoneIsAUsageErrorNamingTheOption() throws Exception {
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.lines(1, 1));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cli = Main.commandLine();
        cli.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        int exit = cli.execute("import", "--db", dir.resolve("bad.duckdb").toString(), "--host", "https://www.example.be/", log.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--host must be a host name such as www.example.be");
        assertThat(dir.resolve("bad.duckdb")).doesNotExist();
    }

    private int importWith(Path db, Path log, Path sitemap, String... more) throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("import", "--db", db.toString(), "--ip-ranges",
                ipRanges(dir).toString(), "--dns-server", "none", "--sitemap", sitemap.toString()));
        args.addAll(java.util.List.of(more));
        args.add(log.toString());
        PrintStream original = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            CommandLine cli = Main.commandLine();
            cli.setErr(new java.io.PrintWriter(new ByteArrayOutputStream(), true));
            return cli.execute(args.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
    }
}
