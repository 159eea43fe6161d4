package dev.crawlerrors.sitemap;

import static dev.crawlerrors.sitemap.SitemapServer.gzip;
import static dev.crawlerrors.sitemap.SitemapServer.index;
import static dev.crawlerrors.sitemap.SitemapServer.urlset;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads sitemaps from a real HTTP server on loopback, as sites serve them and as hostile ones might. */
class SitemapReaderTest {

    /** Small bounds, so that each is passed quickly. */
    private static final SitemapLimits SMALL = new SitemapLimits(1 << 20, 4 << 20, 100_000, 50, 2,
            Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(20));

    private SitemapServer server;
    private String base;

    @BeforeEach
    void start() throws IOException {
        server = new SitemapServer();
        base = server.base();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** A read and the URLs it listed, each once, in the order first read. */
    private record Found(String given, List<SitemapUrl> urls, int files, List<String> warnings) {
    }

    private Found read(String given) throws SitemapRefusedException {
        return read(new SitemapReader(SMALL), given);
    }

    static Found read(SitemapReader reader, String given) throws SitemapRefusedException {
        Set<SitemapUrl> urls = new LinkedHashSet<>();
        SitemapRead read = reader.read(given, urls::add);
        assertThat(read.urls()).isEqualTo(urls.size());
        return new Found(read.given(), List.copyOf(urls), read.files(), read.warnings());
    }

    @Test
    void readsAnIndexOfGzippedMembersAndAPlainTextSitemap() throws Exception {
        server.serve("/sitemap_index.xml", index(base + "/streets.xml.gz", base + "/letters.txt"))
                .serve("/streets.xml.gz", gzip(urlset("https://www.example.be/antwerp/meir", "https://WWW.example.be:443/antwerp/de-keyserlei",
                        "https://www.example.be/gent/veldstraat?tab=parkeren&amp;p=2")))
                .serve("/letters.txt", "\uFEFFhttps://www.example.be/antwerp/straten/a\r\n\r\n  https://www.example.be/antwerp/straten/b  \n"
                        + "not a url\nhttps://www.example.be/antwerp/meir\n");

        Found read = read(base + "/sitemap_index.xml");

        assertThat(read.urls()).containsExactly(
                new SitemapUrl("www.example.be", "/antwerp/meir"),
                new SitemapUrl("www.example.be", "/antwerp/de-keyserlei"),
                new SitemapUrl("www.example.be", "/gent/veldstraat?tab=parkeren&p=2"),
                new SitemapUrl("www.example.be", "/antwerp/straten/a"),
                new SitemapUrl("www.example.be", "/antwerp/straten/b"));
        assertThat(read.files()).isEqualTo(3);
        assertThat(read.given()).isEqualTo(base + "/sitemap_index.xml");
        assertThat(read.warnings()).containsExactly("sitemap " + base + "/sitemap_index.xml lists 1 entry that is not an HTTP(S) URL"
                + " (the first: not a url): left out");
    }

    @Test
    void followsTheSitemapLinesOfARobotsTxt() throws Exception {
        server.serve("/robots.txt", "User-agent: *\nDisallow: /private\nsitemap: " + base + "/a.xml # the pages\nSitemap:   " + base + "/b.xml\n")
                .serve("/a.xml", urlset("http://example.org/"))
                .serve("/b.xml", urlset("http://example.org:8080/b"));

        Found read = read(base + "/robots.txt");

        assertThat(read.urls()).containsExactly(new SitemapUrl("example.org", "/"), new SitemapUrl("example.org:8080", "/b"));
        assertThat(read.files()).isEqualTo(3);
    }

    @Test
    void refusesARobotsTxtThatNamesNoSitemap() {
        server.serve("/robots.txt", "User-agent: *\nDisallow:\n");

        assertThatThrownBy(() -> read(base + "/robots.txt")).isInstanceOf(SitemapRefusedException.class)
                .hasMessage("robots.txt " + base + "/robots.txt names no sitemap (it has no Sitemap: line)");
    }

    @Test
    void readsALocalFileGzippedWhateverItsName(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sitemap.xml");
        Files.write(file, gzip(urlset("https://example.org/a", "https://example.org/b")));

        Found read = read(file.toString());

        assertThat(read.urls()).extracting(SitemapUrl::target).containsExactly("/a", "/b");
    }

    @Test
    void refusesAMissingFile(@TempDir Path dir) {
        String missing = dir.resolve("none.xml").toString();
        assertThatThrownBy(() -> read(missing)).hasMessage("sitemap " + missing + " cannot be read: there is no such file");
    }

    @Test
    void refusesABillionLaughsWithoutExpandingIt() {
        StringBuilder laughs = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n <!ENTITY lol \"lol\">\n");
        for (int i = 1; i <= 9; i++) {
            laughs.append(" <!ENTITY lol").append(i).append(" \"").append(("&lol" + (i == 1 ? "" : i - 1) + ";").repeat(10)).append("\">\n");
        }
        laughs.append("]>\n<urlset><url><loc>https://example.org/&lol9;</loc></url></urlset>\n");
        server.serve("/laughs.xml", laughs.toString());

        assertThatThrownBy(() -> read(base + "/laughs.xml")).isInstanceOf(SitemapRefusedException.class).hasMessage("sitemap " + base
                + "/laughs.xml was refused: it declares a DTD, which a sitemap has no need of (DTDs and entities are not read)");
    }

    @Test
    void refusesAnExternalEntityWithoutFetchingIt() {
        AtomicLong asked = new AtomicLong();
        server.handle("/secret", exchange -> {
            asked.incrementAndGet();
            SitemapServer.answer(exchange, 200, "leaked".getBytes());
        });
        server.serve("/xxe.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM \"" + base + "/secret\">]>\n"
                + "<urlset><url><loc>https://example.org/&xxe;</loc></url></urlset>\n");
        server.serve("/bare-entity.xml", "<urlset><url><loc>https://example.org/&xxe;</loc></url></urlset>\n");

        assertThatThrownBy(() -> read(base + "/xxe.xml")).hasMessageContaining("was refused: it declares a DTD");
        assertThatThrownBy(() -> read(base + "/bare-entity.xml")).isInstanceOf(SitemapRefusedException.class)
                .hasMessage("sitemap " + base + "/bare-entity.xml was refused: it uses the entity &xxe; which no sitemap defines");
        assertThat(asked.get()).isZero();
    }

    @Test
    void cutsOffABodyPastTheLimitAndHangsUp() {
        AtomicLong sent = new AtomicLong();
        // a gigabyte, with no length said up front
        server.handle("/huge.xml", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            byte[] chunk = ("<url><loc>https://example.org/x</loc></url>".repeat(1000)).getBytes();
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("<urlset>".getBytes());
                while (sent.addAndGet(chunk.length) < (1L << 30)) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the reader hung up
            }
        });

        assertThatThrownBy(() -> read(base + "/huge.xml")).isInstanceOf(SitemapRefusedException.class).hasMessage("sitemap " + base
                + "/huge.xml was refused: its body is larger than 1.0 MiB (the limit of one sitemap file)");
        assertThat(sent.get()).isLessThan(64L << 20);
    }

    @Test
    void refusesABodyAnnouncedPastTheLimitWithoutReadingIt() {
        server.serve("/big.xml", new byte[(1 << 20) + 1]);

        assertThatThrownBy(() -> read(base + "/big.xml")).hasMessage("sitemap " + base
                + "/big.xml was refused: its body is larger than 1.0 MiB (the limit of one sitemap file)");
    }

    @Test
    void cutsOffAGzipBombAtWhatItMayUnzipTo() throws IOException {
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bomb)) {
            out.write("<urlset>".getBytes());
            byte[] spaces = new byte[1 << 20];
            java.util.Arrays.fill(spaces, (byte) ' ');
            for (int i = 0; i < 64; i++) {
                out.write(spaces); // 64 MiB of white space, 64 KiB zipped
            }
        }
        server.serve("/bomb.xml.gz", bomb.toByteArray());

        assertThatThrownBy(() -> read(new SitemapReader(new SitemapLimits(1 << 20, 256 << 10, 100, 5, 2, Duration.ofSeconds(2),
                Duration.ofSeconds(2), Duration.ofSeconds(5))), base + "/bomb.xml.gz"))
                .hasMessage("sitemap " + base + "/bomb.xml.gz was cut off: it unzips to more than 256.0 KiB (the limit of a gzipped sitemap)");
    }

    @Test
    void readsMoreUrlsThanTheProtocolAllowsWithAWarning() throws Exception {
        String text = IntStream.rangeClosed(1, 50_001).mapToObj(i -> "https://example.org/p" + i).collect(Collectors.joining("\n"));
        server.serve("/many.txt.gz", gzip(text));

        Found read = read(base + "/many.txt.gz");

        assertThat(read.urls()).hasSize(50_001);
        assertThat(read.warnings()).containsExactly(base + "/many.txt.gz lists 50,001 URLs, more than the protocol's 50,000 a file: read anyway");
    }

    @Test
    void readsAnIndexThatListsItselfOnce() throws Exception {
        server.serve("/loop.xml", index(base + "/loop.xml", base + "/pages.xml", base + "/LOOP/../loop.xml"))
                .serve("/pages.xml", index(base + "/loop.xml", base + "/leaf.xml"))
                .serve("/leaf.xml", urlset("https://example.org/leaf"));

        Found read = read(base + "/loop.xml");

        assertThat(read.urls()).containsExactly(new SitemapUrl("example.org", "/leaf"));
        assertThat(read.files()).isEqualTo(3);
        assertThat(read.warnings()).contains(base + "/loop.xml lists " + base + "/loop.xml, read already (an index that leads back to itself): read once");
    }

    @Test
    void readsTheFirstSitemapsOfAnIndexOfTenThousand() throws Exception {
        String[] many = IntStream.range(0, 10_000).mapToObj(i -> base + "/part/" + i + ".xml").toArray(String[]::new);
        AtomicLong fetched = new AtomicLong();
        server.serve("/huge-index.xml", index(many)).handle("/part/", exchange -> {
            fetched.incrementAndGet();
            SitemapServer.answer(exchange, 200, urlset("https://example.org" + exchange.getRequestURI().getPath()).getBytes());
        });

        Found read = read(base + "/huge-index.xml");

        assertThat(read.files()).isEqualTo(50);
        assertThat(fetched.get()).isEqualTo(49);
        assertThat(read.urls()).hasSize(49);
        assertThat(read.warnings()).containsExactly(base + "/huge-index.xml lists more sitemaps than the 50 files one sitemap may read:"
                + " the first were read, the rest left out");
    }

    @Test
    void refusesWhatIsNotHttp() throws Exception {
        assertThatThrownBy(() -> read("ftp://example.org/sitemap.xml")).isInstanceOf(SitemapRefusedException.class)
                .hasMessage("sitemap ftp://example.org/sitemap.xml was refused: only HTTP(S) URLs and local files are read");
        assertThatThrownBy(() -> read("file:///etc/passwd")).hasMessage("sitemap file:///etc/passwd was refused: only HTTP(S) URLs and local files are read");

        server.serve("/index.xml", index("file:///etc/passwd", base + "/ok.xml")).serve("/ok.xml", urlset("https://example.org/ok"));
        Found read = read(base + "/index.xml");
        assertThat(read.urls()).containsExactly(new SitemapUrl("example.org", "/ok"));
        assertThat(read.warnings()).containsExactly(base + "/index.xml lists file:///etc/passwd, which is not an HTTP(S) URL: left out");
    }

    @Test
    void refusesAnErrorStatusAndWhatIsNoSitemap() {
        server.serve("/page.html", "<!doctype html><html><body>Not here</body></html>");
        server.handle("/gone.xml", exchange -> SitemapServer.answer(exchange, 404, new byte[0]));

        assertThatThrownBy(() -> read(base + "/gone.xml")).hasMessage("sitemap " + base + "/gone.xml was not read: the server answered 404 Not Found, not 200");
        assertThatThrownBy(() -> read(base + "/page.html")).hasMessage("sitemap " + base + "/page.html is not well-formed XML (line 1):"
                + " The markup in the document preceding the root element must be well-formed.");
        server.serve("/html.xml", "<html><body>Not here</body></html>");
        assertThatThrownBy(() -> read(base + "/html.xml")).hasMessage("sitemap " + base
                + "/html.xml is not a sitemap: its root element is <html>, not <urlset> or <sitemapindex>");
    }

    @Test
    void givesUpOnAServerThatSaysNothing() {
        server.handle("/silent.xml", exchange -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        SitemapLimits quick = new SitemapLimits(1 << 20, 1 << 20, 100, 5, 2, Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofSeconds(20));
        assertThatThrownBy(() -> read(new SitemapReader(quick), base + "/silent.xml")).hasMessage("sitemap " + base
                + "/silent.xml was not read: the server sent nothing for 500 ms (the time allowed to connect or between bytes)");
    }

    @Test
    void cutsOffATricklingServerAtTheDeadline() {
        server.handle("/trickle.xml", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write("<urlset>".getBytes());
                for (int i = 0; i < 10_000; i++) {
                    out.write(' ');
                    out.flush();
                    Thread.sleep(50);
                }
            } catch (IOException | InterruptedException e) {
                // the reader hung up
            }
        });
        long start = System.nanoTime();

        SitemapLimits shortDeadline = new SitemapLimits(1 << 20, 1 << 20, 100, 5, 2, Duration.ofSeconds(2), Duration.ofSeconds(2),
                Duration.ofSeconds(2));
        assertThatThrownBy(() -> read(new SitemapReader(shortDeadline), base + "/trickle.xml")).hasMessage("sitemap " + base
                + "/trickle.xml was cut off: its read took longer than 2 s (the time allowed to read a sitemap and the files it names)");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }
}
