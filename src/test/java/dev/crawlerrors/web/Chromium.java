package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless chromium through its chromedriver, as the page tests drive it: the system's
 * browser and driver (a missing one fails the test, not skips it: CI installs both through
 * ./run-tests), a profile of the test's own, and a page load bounded in time.
 */
final class Chromium {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Duration WAIT = Duration.ofSeconds(10);

    private Chromium() {
    }

    /** A browser of a window {@code width} by {@code height} px, its profile under {@code dir}. */
    static ChromeDriver start(Path dir, int width, int height, String... moreArguments) throws IOException {
        assertThat(CHROMIUM).as("Debian chromium (apt-get install chromium)").isExecutable();
        assertThat(CHROMEDRIVER).as("Debian chromedriver (apt-get install chromium-driver)").isExecutable();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=" + width + "," + height,
                "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
        options.addArguments(moreArguments);
        ChromeDriver driver = new ChromeDriver(
                new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build(), options);
        driver.manage().timeouts().pageLoadTimeout(WAIT);
        return driver;
    }

    /** Quits the browser, then closes the server, then the store, each whatever the one before did; null ones are skipped. */
    static void stop(ChromeDriver driver, AutoCloseable server, AutoCloseable store) throws Exception {
        try {
            if (driver != null) {
                driver.quit(); // stops chromedriver too
            }
        } finally {
            try {
                if (server != null) {
                    server.close();
                }
            } finally {
                if (store != null) {
                    store.close();
                }
            }
        }
    }
}
