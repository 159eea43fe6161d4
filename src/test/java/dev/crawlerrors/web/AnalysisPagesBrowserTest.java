package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.BrowserTest;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Every page of the report (the report, filtered and not; the URL patterns; the overview; one hit;
 * an error) as a person sees it in a real browser, at a desktop's width (1400 px) and a phone's
 * (375 px), with screenshots under {@code target/screenshots/}; and used by keyboard alone: the
 * filter form, a pattern's link, a bar of the timeline. The bundled demo in a real DuckDB store, the
 * real server on a loopback port, Debian's headless chromium through chromedriver.
 */
@BrowserTest
class AnalysisPagesBrowserTest {

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
        server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0).withEvidence(() -> List.of("common-crawlers.json: 2 prefixes, created 2025-05-14T00:00:00 (demo data)")));
        base = "http://127.0.0.1:" + server.port();
        driver = Chromium.start(dir, 1400, 900, "--hide-scrollbars");
    }

    @AfterAll
    static void stop() throws Exception {
        Chromium.stop(driver, server, store);
    }

    /** One page to look at: where it is, and what must be on it. */
    record Page(String name, String path, Runnable check) {
    }

    private static final List<Page> PAGES = List.of(
            new Page("report", "/crawl-errors", () -> {
                assertThat(text("summary")).isEqualTo("226 error hits · page 1 of 3");
                assertThat(text("by-status")).isEqualTo("142 × 308 · 60 × 304 · 24 × 404");
                assertThat(driver.findElements(By.cssSelector("#hits tbody tr"))).hasSize(100);
            }),
            new Page("report-filtered", "/crawl-errors?pattern=%2F%7Bcity%7D%2Fstraten%2F%7Bletter%7D&bot=crawler_search", () -> {
                assertThat(text("summary")).isEqualTo("24 error hits · page 1 of 1");
                assertThat(driver.findElements(By.cssSelector("#chips a"))).extracting(WebElement::getText)
                        .containsExactly("pattern: /{city}/straten/{letter} ×", "bot: crawler_search ×");
            }),
            new Page("patterns", "/crawl-errors/patterns", () -> {
                assertThat(text("summary")).isEqualTo("226 error hits in 6 patterns");
                assertThat(driver.findElements(By.cssSelector("#patterns a.pattern"))).hasSize(6);
            }),
            new Page("overview", "/crawl-errors/overview", () -> {
                assertThat(text("summary")).isEqualTo("226 error hits");
                assertThat(driver.findElements(By.cssSelector("#timeline a"))).hasSize(24);
                assertThat(driver.findElements(By.cssSelector("#rate circle"))).hasSize(24);
                // the chart fills the width it is given (24 bars drew 1,028 px on a 1,400 px page), or scrolls on a phone
                double chart = ((Number) driver.executeScript("return document.getElementById('timeline').getBoundingClientRect().width;"))
                        .doubleValue();
                double box = ((Number) driver.executeScript("return document.getElementById('timeline').parentElement.clientWidth;"))
                        .doubleValue();
                assertThat(chart).as("the timeline's width in its box of %s px", box).isGreaterThanOrEqualTo(box - 1);
                // on a phone it is not shrunk to a third, its labels 4 px high: it keeps its own size and scrolls
                Number screen = (Number) driver.executeScript("return window.innerWidth;");
                if (screen.intValue() < 900) {
                    assertThat(chart).as("the timeline's width on a phone").isEqualTo(1200);
                }
            }),
            new Page("hit", "/crawl-errors/hits/1", () -> assertThat(text("reason")).startsWith("in common-crawlers.json")),
            new Page("error", "/crawl-errors?stauts=404", () -> assertThat(text("error")).startsWith("unknown parameter 'stauts'")));

    @Test
    void everyPageIsReadableOnADesktopAndOnAPhone() throws Exception {
        for (int width : new int[] {1400, 375}) {
            Chromium.viewport(driver, width);
            for (Page page : PAGES) {
                driver.get(base + page.path());
                page.check().run();
                // nothing wider than the screen: a wide chart scrolls in its own box, a table becomes cards
                Number scrollWidth = (Number) driver.executeScript("return document.documentElement.scrollWidth;");
                assertThat(scrollWidth.intValue()).as("%s at %d px: the page's width", page.name(), width).isLessThanOrEqualTo(width);
                Chromium.screenshot(driver, SCREENSHOTS.resolve(page.name() + "-" + width + ".png"));
            }
        }
        Chromium.viewport(driver, 1400);
    }

    @Test
    void filtersByKeyboardAloneAndTakesAFilterOffAgain() throws Exception {
        driver.get(base + "/crawl-errors");
        WebElement status = driver.findElement(By.cssSelector("#filters input[name=status]"));
        status.sendKeys("404" + Keys.ENTER);
        Chromium.await(driver, () -> driver.getCurrentUrl().equals(base + "/crawl-errors?status=404"), "the form's address");

        assertThat(text("summary")).isEqualTo("24 error hits · page 1 of 1");
        WebElement chip = driver.findElement(By.cssSelector("#chips a"));
        assertThat(chip.getText()).isEqualTo("status: 404 ×");

        focus(chip).sendKeys(Keys.ENTER);
        // the chip's link keeps the page's snapshot, as every link of the page does
        Chromium.await(driver, () -> driver.getCurrentUrl().matches(java.util.regex.Pattern.quote(base + "/crawl-errors?at=") + "[0-9]+\\.[0-9]+"),
                "the address without the chip's filter");
        assertThat(text("summary")).isEqualTo("226 error hits · page 1 of 3");
    }

    @Test
    void reachesAPatternByTabbingAndOpensItsHits() throws Exception {
        driver.get(base + "/crawl-errors/patterns");
        WebElement active = null;
        for (int tabs = 0; tabs < 60; tabs++) {
            driver.switchTo().activeElement().sendKeys(Keys.TAB);
            active = driver.switchTo().activeElement();
            if ("pattern".equals(active.getAttribute("class"))) {
                break;
            }
        }
        assertThat(active.getText()).isEqualTo("/{city}/{street}");

        active.sendKeys(Keys.ENTER);
        Chromium.await(driver, () -> driver.getCurrentUrl().contains("pattern="), "the report of the pattern");
        assertThat(text("summary")).isEqualTo("110 error hits · page 1 of 2");
    }

    @Test
    void aBarOfTheTimelineOpensTheHitsOfItsHour() throws Exception {
        driver.get(base + "/crawl-errors/overview");
        WebElement bar = driver.findElements(By.cssSelector("#timeline a")).get(0);
        String label = bar.getAttribute("aria-label");
        assertThat(label).startsWith("2025-05-13T22:00: 10 error hits");

        focus(bar).sendKeys(Keys.ENTER);
        Chromium.await(driver, () -> driver.getCurrentUrl().contains("from=2025-05-13T22"), "the report of the hour");
        assertThat(text("summary")).isEqualTo("10 error hits · page 1 of 1");
    }

    private static String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    private static WebElement focus(WebElement element) {
        driver.executeScript("arguments[0].focus();", element);
        return driver.switchTo().activeElement();
    }
}
