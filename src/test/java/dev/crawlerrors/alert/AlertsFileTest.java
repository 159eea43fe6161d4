package dev.crawlerrors.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.alert.AlertsFile.BadAlertsFileException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An alerts file read into rules and webhooks: every kind with its keys, defaults for what a line
 * leaves out, comments and quotes, and each line it cannot take refused by number with what is wrong.
 */
class AlertsFileTest {

    private static final Set<String> FAMILIES = Set.of("Google", "Bing");

    @TempDir
    Path dir;

    private static AlertRules parse(String text) throws BadAlertsFileException {
        return AlertsFile.parse(text, FAMILIES, AlertFormat.alertmanager);
    }

    @Test
    void readsEveryKindWithItsKeys() throws BadAlertsFileException {
        AlertRules rules = parse("""
                new-pattern        min-hits=5 window=10m new-for=2d
                error-rate-jump    window=30m factor=2.5 min-rate=5% min-hits=50 min-baseline-hits=200 family=Bing
                server-error-burst min-hits=10 window=5m family=Google severity=critical name=GoogleBurst
                robots-txt         ok=200,304,301 severity=info
                """);

        assertThat(rules.rules()).containsExactly(
                new NewPatternRule("CrawlErrorNewPattern", "warning", 5, Duration.ofMinutes(10), Duration.ofDays(2)),
                new ErrorRateRule("CrawlErrorRateJump", "Bing", "warning", Duration.ofMinutes(30), 2.5, 0.05, 50, 200),
                new ServerErrorBurstRule("GoogleBurst", "Google", "critical", 10, Duration.ofMinutes(5)),
                new RobotsTxtRule("RobotsTxtNotOk", null, "info", Set.of(200, 301, 304)));
        assertThat(rules.webhooks()).isEmpty();
        assertThat(rules.longestWindow()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void takesTheDefaultsForWhatALineLeavesOut() throws BadAlertsFileException {
        AlertRules rules = parse("error-rate-jump min-rate=0.1\n");

        assertThat(rules.rules()).containsExactly(new ErrorRateRule("CrawlErrorRateJump", null, "warning", Duration.ofMinutes(30), 3, 0.1, 50, 200));
    }

    @Test
    void keepsTheDefaultRulesWhenTheFileNamesOnlyWebhooks() throws BadAlertsFileException {
        AlertRules rules = parse("# only where to send\n\nwebhook https://hooks.example.com/T0/B0/X format=slack\r\nwebhook http://127.0.0.1:9093/api/v2/alerts\n");

        assertThat(rules.rules()).isEqualTo(AlertRules.DEFAULT.rules());
        assertThat(rules.webhooks()).containsExactly(new Receiver(URI.create("https://hooks.example.com/T0/B0/X"), AlertFormat.slack),
                new Receiver(URI.create("http://127.0.0.1:9093/api/v2/alerts"), AlertFormat.alertmanager));
        assertThat(rules.webhooks().get(1).alertmanagerApi()).isTrue();
    }

    @Test
    void readsQuotedValuesWholeAndCommentsToTheEndOfTheLine() {
        assertThat(AlertsFile.tokens("robots-txt name=\"Robots Ok\" # ok=500")).containsExactly("robots-txt", "name=Robots Ok");
        assertThat(AlertsFile.tokens("  \t# a comment")).isEmpty();
        assertThat(AlertsFile.tokens("a\"b c\"d")).containsExactly("ab cd");
    }

    @Test
    void allowsOneRuleOfAKindTwiceUnderAnotherNameOrFamily() throws BadAlertsFileException {
        AlertRules rules = parse("server-error-burst family=Google\nserver-error-burst family=Bing\nserver-error-burst name=AllBursts\n");

        assertThat(rules.rules()).extracting(AlertRule::name).containsExactly("CrawlerServerErrors", "CrawlerServerErrors", "AllBursts");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "# rules\\nnew-pattern min-hits=3\\nserver-error-burst min-hit=20|line 3: unknown key 'min-hit' for server-error-burst; it takes name, family, severity, min-hits, window",
            "server-error-burst min-hits=-4|line 1: min-hits must be a whole number of 1 or more; got '-4'",
            "new-pattern window=10 minutes|line 1: 'minutes' is not key=value",
            "new-pattern window=10x|line 1: window must be a duration such as 30s, 10m, 4h or 1d; got '10x'",
            "new-pattern window=2d|line 1: window must be from 10s to 1d; got '2d'",
            "new-pattern window=5s|line 1: window must be from 10s to 1d; got '5s'",
            "\\n\\nrobot-txt ok=200|line 3: 'robot-txt' is no kind of alert; the kinds are new-pattern, error-rate-jump, server-error-burst, robots-txt, and webhook URL lines",
            "server-error-burst family=Gogle|line 1: family 'Gogle' is no crawler family; the families are Bing, Google",
            "new-pattern family=Google|line 1: new-pattern watches URL shapes whatever the crawler, and takes no family",
            "robots-txt severity=page|line 1: severity must be warning, critical or info; got 'page'",
            "robots-txt ok=200,600|line 1: ok must be HTTP statuses separated by commas, such as 200,304; got '200,600'",
            "error-rate-jump factor=1|line 1: factor must be a number above 1, such as 3 or 2.5; got '1'",
            "error-rate-jump min-rate=150%|line 1: min-rate must be a share such as 5% or 0.05; got '150%'",
            "robots-txt name=not-a-name|line 1: name must be letters, digits and _ (an Alertmanager alertname); got 'not-a-name'",
            "robots-txt ok=200 ok=304|line 1: ok is given twice",
            "robots-txt name=\"open|line 1: a double quote is not closed",
            "robots-txt\\nrobots-txt severity=info|line 2: it is the same rule as line 1 (robots-txt, named RobotsTxtNotOk); give one another name=",
            "robots-txt\\nwebhook|line 2: webhook needs a URL: webhook https://host/path [format=slack]",
            "webhook http://127.0.0.1:9/x format=teams|line 1: format must be alertmanager or slack; got 'teams'",
            "robots-txt\\nwebhook ftp://example.com/hook|line 2: 'ftp://example.com/hook' is not an http:// or https:// URL with a host"})
    void refusesALineItCannotTakeByNumber(String text, String message) {
        assertThatThrownBy(() -> parse(text.replace("\\n", "\n"))).isInstanceOf(BadAlertsFileException.class).hasMessage(message);
    }

    @Test
    void refusesAWebhookWithAUserAndPasswordInIt() {
        // the message never carries the password, wherever it is logged
        assertThatThrownBy(() -> parse("webhook https://user:secret@hooks.example.com/x"))
                .hasMessageNotContaining("secret").hasMessageContaining("'https://***@hooks.example.com/x'")
                .hasMessageEndingWith("is not an http:// or https:// URL with a host (a user and password in it would be written in the log)");
    }

    @Test
    void readsAFileAndSaysWhenItCannot() throws Exception {
        Path file = Files.writeString(dir.resolve("alerts.conf"), "server-error-burst min-hits=3 window=1h\n");

        AlertRules rules = AlertsFile.read(file, FAMILIES, AlertFormat.slack);

        assertThat(rules.rules()).containsExactly(new ServerErrorBurstRule("CrawlerServerErrors", null, "critical", 3, Duration.ofHours(1)));
        assertThatThrownBy(() -> AlertsFile.read(dir.resolve("missing.conf"), FAMILIES, AlertFormat.slack))
                .isInstanceOf(BadAlertsFileException.class).hasMessageStartingWith("cannot be read (");
    }

    @Test
    void givesWebhooksTheFormatTheCommandLineChoseUnlessTheLineSaysOne() throws BadAlertsFileException {
        AlertRules rules = AlertsFile.parse("webhook https://a.example/x\nwebhook https://b.example/y format=alertmanager\n", FAMILIES,
                AlertFormat.slack);

        assertThat(rules.webhooks()).extracting(Receiver::format).containsExactly(AlertFormat.slack, AlertFormat.alertmanager);
        assertThat(List.copyOf(rules.webhooks())).extracting(Receiver::shown).containsExactly("https://a.example:443", "https://b.example:443");
    }
}
