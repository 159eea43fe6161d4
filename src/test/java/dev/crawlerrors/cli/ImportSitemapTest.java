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
}
