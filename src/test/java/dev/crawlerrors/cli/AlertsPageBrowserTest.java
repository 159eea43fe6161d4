package dev.crawlerrors.cli;

import static dev.crawlerrors.cli.AlertsServeTest.GOOGLEBOT_IP;
import static dev.crawlerrors.cli.AlertsServeTest.append;
import static dev.crawlerrors.cli.AlertsServeTest.line;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.BrowserTest;
import dev.crawlerrors.alert.AlertReceiver;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.web.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The Alerts page in Debian's headless chromium, reached from the report's navigation as a reader
 * reaches it: a real {@code serve --follow} with built-in alerts, one alert still firing and one
 * resolved, on a desktop (1400 px) and a phone (375 px); each row's link opens the report's hits
 * behind it. Screenshots under {@code target/screenshots/}.
 */
@BrowserTest
class AlertsPageBrowserTest {

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TempDir
    Path dir;

    private AlertReceiver receiver;
    private ServeProcess serve;
    private ChromeDriver driver;

    @AfterEach
    void stop() throws Exception {
        Chromium.stop(driver, serve, receiver);
    }

    @Test
    void theAlertsPageIsInTheNavigationAndListsWhatFiresAndWhatResolved() throws Exception {
        receiver = new AlertReceiver();
        Path rules = Files.writeString(dir.resolve("alerts.conf"), """
                server-error-burst min-hits=3 window=10s
                robots-txt
                webhook %s
                """.formatted(receiver.url()));
        Path log = dir.resolve("access.log");
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/", 200));
        serve = ServeProcess.start(dir.resolve("serve.out"), "--follow", log.toString(), "--db", dir.resolve("hits.duckdb").toString(),
                "--port", "0", "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--timezone", "UTC",
                "--alerts", rules.toString());
        // a burst of 5xx that fires and, quiet for its 10 s window, resolves; then robots.txt answers 500 and stays so
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            burst.append(line(GOOGLEBOT_IP, Instant.now(), "/api/" + i, 503));
        }
        append(log, burst.toString());
        receiver.await("CrawlerServerErrors", "firing", 30);
        receiver.await("CrawlerServerErrors", "resolved", 40);
        append(log, line(GOOGLEBOT_IP, Instant.now(), "/robots.txt", 500));
        receiver.await("RobotsTxtNotOk", "firing", 30);

        driver = Chromium.start(dir, 1400, 900, "--hide-scrollbars");
        for (int width : new int[] {1400, 375}) {
            Chromium.viewport(driver, width);
            driver.get(serve.base() + "/crawl-errors");
            driver.findElement(By.id("nav-alerts")).click();
            Chromium.await(driver, () -> driver.getCurrentUrl().endsWith("/crawl-errors/alerts"), "the Alerts page opened from the navigation");
            assertThat(driver.findElement(By.cssSelector("nav.views [aria-current=page]")).getText()).isEqualTo("Alerts");
            assertThat(driver.findElement(By.id("firing")).getText()).contains("RobotsTxtNotOk").contains("got 500 for /robots.txt")
                    .doesNotContain("CrawlerServerErrors");
            assertThat(driver.findElement(By.id("resolved")).getText()).contains("CrawlerServerErrors").contains("family=Google");
            Number scrollWidth = (Number) driver.executeScript("return document.documentElement.scrollWidth;");
            assertThat(scrollWidth.intValue()).as("the Alerts page at %d px: its width", width).isLessThanOrEqualTo(width);
            Chromium.screenshot(driver, SCREENSHOTS.resolve("alerts-" + width + ".png"));

            // the firing alert's link: the report's hits that set it off
            WebElement report = driver.findElement(By.cssSelector("#firing tbody tr a"));
            assertThat(report.getText()).isEqualTo("report");
            report.click();
            Chromium.await(driver, () -> driver.getCurrentUrl().contains("/crawl-errors?"), "the report opened from the alert");
            assertThat(driver.getCurrentUrl()).contains("url=%2Frobots.txt").contains("at=");
            assertThat(driver.findElement(By.id("total")).getText()).isEqualTo("1");
            assertThat(driver.findElement(By.id("hits")).getText()).contains("/robots.txt").contains("500");
            // and back to the alerts from the report's navigation
            driver.findElement(By.id("nav-alerts")).click();
            Chromium.await(driver, () -> driver.getCurrentUrl().endsWith("/crawl-errors/alerts"), "the Alerts page again");
            driver.findElement(By.cssSelector("nav.views a[href='/crawl-errors']")).click();
            Chromium.await(driver, () -> driver.getCurrentUrl().endsWith("/crawl-errors"), "the report from the Alerts page's navigation");
        }
    }
}
