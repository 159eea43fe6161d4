package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.BrowserTest;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.demo.DemoLog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.pipeline.SitemapReads;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.sitemap.SitemapLimits;
import dev.crawlerrors.sitemap.SitemapReader;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The URLs page, a URL's own page, robots.txt's fetches and the overview's crawl budget in
 * Debian's headless chromium, on a desktop (1400 px) and a phone (375 px): the demo in a real
 * DuckDB store, the real server on a loopback port; screenshots under {@code target/screenshots/}.
 */
@BrowserTest
class UrlPagesBrowserTest {

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TempDir
    static Path dir;

    static DuckDbHitStore store;
    static ReportServer server;
    static ChromeDriver driver;
    static String base;

    @BeforeAll
    static void start() throws Exception {
        store = DemoFixture.demoStore(Files.createDirectories(dir.resolve("demo")));
        CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withUrlNames(List.of(DemoLog.URL_NAMES)).withSummaryWait(Duration.ofSeconds(30)));
        server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0));
        base = "http://127.0.0.1:" + server.port();
        driver = Chromium.start(dir, 1400, 900, "--hide-scrollbars");
    }

    @AfterAll
    static void stop() throws Exception {
        Chromium.stop(driver, server, store);
    }

    @Test
    void theUrlPagesAreReadableOnADesktopAndOnAPhone() throws Exception {
        for (int width : new int[] {1400, 375}) {
            Chromium.viewport(driver, width);
            driver.get(base + "/crawl-errors/urls");
            List<WebElement> rows = driver.findElements(By.cssSelector("#urls tbody tr"));
            assertThat(rows).as("the URLs broken now").isNotEmpty();
            fits("urls", width);
            String first = driver.findElement(By.cssSelector("#urls tbody tr td.url a")).getText();

            driver.findElement(By.cssSelector("#urls tbody tr td.url a")).click();
            Chromium.await(driver, () -> driver.getCurrentUrl().contains("/crawl-errors/url?"), "the URL's page opened");
            assertThat(driver.findElement(By.id("url")).getText()).contains(first);
            assertThat(driver.findElements(By.cssSelector("#hits tbody tr"))).isNotEmpty();
            assertThat(driver.findElements(By.cssSelector("#crawlers tbody tr"))).isNotEmpty();
            fits("url", width);

            driver.get(base + "/crawl-errors/urls?state=broken,redirected,ok&sort=last_crawled");
            assertThat(driver.findElements(By.cssSelector("#urls tbody tr"))).hasSizeGreaterThan(rows.size() - 1);
            fits("urls-every-state", width);

            driver.get(base + "/crawl-errors/robots");
            fits("robots", width);

            driver.get(base + "/crawl-errors/overview");
            assertThat(driver.findElements(By.cssSelector("#budget tbody tr"))).isNotEmpty();
            assertThat(driver.findElements(By.cssSelector("#budget .budget-bar span")).stream()
                    .anyMatch(bar -> bar.getSize().getWidth() > 0)).as("the bars are drawn").isTrue();
            fits("overview-budget", width);

            driver.get(base + "/crawl-errors/patterns");
            assertThat(driver.findElements(By.cssSelector("#patterns .now"))).isNotEmpty();
            fits("patterns-now", width);
        }
        Chromium.viewport(driver, 1400);
    }

    @Test
    void theUrlsPageMarksTheUrlsASitemapListsAsItsJsonDoes() throws Exception {
        Path sitemap = dir.resolve("sitemap.xml");
        try (java.io.Writer out = Files.newBufferedWriter(sitemap)) {
            DemoLog.writeSitemap(out);
        }
        assertThat(new SitemapReads(List.of(sitemap.toString()), new SitemapReader(SitemapLimits.DEFAULT), store.sitemaps(), notice -> { })
                .readAll()).isTrue();
        String query = "?state=broken,redirected,ok&sort=last_crawled";
        JsonNode rows = new ObjectMapper().readTree(java.net.URI.create(base + "/api/crawl-errors/urls" + query).toURL()).get("rows");
        Set<String> listed = new TreeSet<>();
        rows.forEach(row -> {
            if (row.path("inSitemap").asBoolean()) {
                listed.add(row.get("url").asText());
            }
        });
        assertThat(listed).as("URLs the demo's sitemap lists").isNotEmpty().hasSizeLessThan(rows.size());

        driver.get(base + "/crawl-errors/urls" + query);
        Set<String> badged = new TreeSet<>();
        for (WebElement badge : driver.findElements(By.cssSelector("#urls tbody td.url .listed"))) {
            assertThat(badge.getText()).isEqualTo("in sitemap");
            badged.add(badge.findElement(By.xpath("..")).findElement(By.tagName("a")).getText());
        }
        assertThat(badged).isEqualTo(listed);
        fits("urls-in-sitemap", 1400);
    }

    /** Nothing wider than the screen, and a screenshot of the whole page. */
    private static void fits(String name, int width) throws Exception {
        Number scrollWidth = (Number) driver.executeScript("return document.documentElement.scrollWidth;");
        assertThat(scrollWidth.intValue()).as("%s at %d px: the page's width", name, width).isLessThanOrEqualTo(width);
        Chromium.screenshot(driver, SCREENSHOTS.resolve(name + "-" + width + ".png"));
    }
}
