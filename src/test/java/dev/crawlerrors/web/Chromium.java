package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.function.Supplier;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless chromium through its chromedriver, as the page tests drive it: the system's
 * browser and driver (a missing one fails the test, not skips it: CI installs both through
 * ./run-tests), a profile of the test's own, and a page load bounded in time; and what the page
 * tests do with it: wait for a page, lay it out as on a phone or a desktop, screenshot it whole.
 */
public final class Chromium {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final Duration WAIT = Duration.ofSeconds(10);

    private Chromium() {
    }

    /** A browser of a window {@code width} by {@code height} px, its profile under {@code dir}. */
    public static ChromeDriver start(Path dir, int width, int height, String... moreArguments) throws IOException {
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
    public static void stop(ChromeDriver driver, AutoCloseable server, AutoCloseable store) throws Exception {
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

    /** The page laid out as on a screen {@code width} CSS pixels wide (a phone's when narrow). */
    public static void viewport(ChromeDriver driver, int width) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", 900, "deviceScaleFactor", 1, "mobile", width < 500));
    }

    /** The whole document, not only the viewport, through the DevTools protocol, into {@code file}. */
    public static void screenshot(ChromeDriver driver, Path file) throws IOException {
        Map<String, Object> metrics = driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> size = (Map<String, Object>) metrics.get("cssContentSize");
        Map<String, Object> clip = Map.of("x", 0, "y", 0, "width", ((Number) size.get("width")).doubleValue(),
                "height", ((Number) size.get("height")).doubleValue(), "scale", 1);
        Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot",
                Map.of("format", "png", "captureBeyondViewport", true, "clip", clip));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode((String) shot.get("data")));
        assertThat(file).isNotEmptyFile();
    }

    /** Waits until {@code condition} holds, at most {@link #WAIT}; fails saying {@code what} and where the browser is. */
    public static void await(ChromeDriver driver, Supplier<Boolean> condition, String what) throws InterruptedException {
        Waits.await(what).atMost(WAIT).untilAsserted(() -> assertThat(condition.get()).as(what + ", at " + driver.getCurrentUrl()).isTrue());
    }
}
