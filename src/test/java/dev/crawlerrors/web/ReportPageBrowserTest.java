package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.BrowserTest;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.Waits;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The HTML report as a person sees it: the bundled demo in a real DuckDB store, the real server on
 * a free loopback port, and Debian's headless chromium driven through chromedriver. Nothing is
 * downloaded: the browser and driver are the system ones, and a missing one fails the test.
 */
@BrowserTest
class ReportPageBrowserTest {

    private static final Path SCREENSHOT = Path.of("target", "report-page-1.png");
    private static final List<String> COLUMNS =
            List.of("Timestamp", "IP", "Method", "URL", "Status", "Duration ms", "Bot type", "Verification");
    private static final Duration WAIT = Chromium.WAIT;

    @TempDir
    Path dir;

    private DuckDbHitStore store;
    private ReportServer server;
    private ChromeDriver driver;
    private String base;

    @BeforeEach
    void startServerAndBrowser() throws Exception {
        store = DemoFixture.demoStore(Files.createDirectories(dir.resolve("demo")));
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC"))), store.health(), ServerConfig.on("127.0.0.1", 0));
        base = "http://127.0.0.1:" + server.port();

        driver = Chromium.start(dir, 1280, 900);
    }

    @AfterEach
    void stopEverything() throws Exception {
        Chromium.stop(driver, server, store);
    }

    @Test
    void showsTheReportAndFollowsNextLinksToTheLastPage() throws Exception {
        driver.get(base + "/crawl-errors");

        assertThat(driver.getTitle()).isEqualTo("Crawler Crawl Errors");
        assertThat(text("summary")).isEqualTo("226 error hits · page 1 of 3");
        assertThat(driver.findElements(By.cssSelector("#hits thead th")))
                .extracting(WebElement::getText)
                .containsExactlyElementsOf(COLUMNS);
        assertThat(rows()).hasSize(100);
        assertThat(rows().getFirst().findElement(By.cssSelector("td:nth-child(1)")).getText())
                .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}");
        assertVerifiedWithEvidence();
        Chromium.screenshot(driver, SCREENSHOT);

        driver.findElement(By.id("next")).click();
        awaitPage(2);
        // page links carry the snapshot the first page was read at
        assertThat(driver.getCurrentUrl()).isEqualTo(base + "/crawl-errors?page=2&at=" + store.reader().snapshot().token());
        assertThat(text("summary")).isEqualTo("226 error hits · page 2 of 3");
        assertThat(rows()).hasSize(100);
        assertVerifiedWithEvidence();

        driver.findElement(By.id("next")).click();
        awaitPage(3);
        assertThat(driver.getCurrentUrl()).isEqualTo(base + "/crawl-errors?page=3&at=" + store.reader().snapshot().token());
        assertThat(text("summary")).isEqualTo("226 error hits · page 3 of 3");
        assertThat(rows()).hasSize(26);
        assertThat(driver.findElements(By.id("next"))).isEmpty();
        assertThat(driver.findElements(By.id("last"))).isEmpty();
        assertThat(driver.findElements(By.id("previous"))).hasSize(1);
        assertVerifiedWithEvidence();
    }

    private String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    private List<WebElement> rows() {
        return driver.findElements(By.cssSelector("#hits tbody tr"));
    }

    /**
     * Every Verification cell reads "verified" and carries its evidence as the hover title. Read in
     * one script call: two WebDriver round trips per cell cost seconds a page.
     */
    private void assertVerifiedWithEvidence() {
        @SuppressWarnings("unchecked")
        List<List<String>> cells = (List<List<String>>) driver.executeScript(
                "return Array.from(document.querySelectorAll('#hits tbody tr'),"
                        + " tr => [tr.cells[7].innerText, tr.cells[7].getAttribute('title')]);");
        assertThat(cells).hasSameSizeAs(rows());
        assertThat(cells).allSatisfy(cell -> {
            assertThat(cell.get(0)).isEqualTo("verified");
            assertThat(cell.get(1)).isNotBlank();
        });
    }

    /** Waits for the page a clicked link leads to: its number shown in the header line. */
    private void awaitPage(int page) {
        // between pages, the element may be missing or stale
        Waits.await("page " + page).atMost(WAIT).ignoreExceptionsInstanceOf(NoSuchElementException.class)
                .ignoreExceptionsInstanceOf(StaleElementReferenceException.class)
                .untilAsserted(() -> assertThat(text("page")).as("page shown after following the link").isEqualTo(Integer.toString(page)));
    }
}
