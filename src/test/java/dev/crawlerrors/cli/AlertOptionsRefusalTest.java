package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What serve refuses of its alert options before it starts, with one sentence naming the option or
 * the alerts file's line, and no store made: an unknown key, a bad threshold or duration, a webhook
 * that is not HTTP(S). What an alerts file's lines may say is {@code alert.AlertsFileTest}'s.
 */
class AlertOptionsRefusalTest {

    @TempDir
    Path dir;

    private CommandRun serve(String... alertArgs) {
        List<String> args = new ArrayList<>(List.of("serve", "--db", dir.resolve("hits.duckdb").toString(), "--port", "0", "--dns-server",
                "none"));
        args.addAll(List.of(alertArgs));
        return CommandRun.of(args.toArray(String[]::new));
    }

    private CommandRun withFile(String text) throws Exception {
        Path file = Files.writeString(dir.resolve("alerts.conf"), text);
        return serve("--alerts", file.toString());
    }

    @Test
    void anAlertsFileLineItCannotTakeIsRefusedByNumber() throws Exception {
        // what each line may say is AlertsFileTest's; here, that serve stops on it before making a store
        CommandRun unknownKey = withFile("# rules\nnew-pattern min-hits=3\nserver-error-burst min-hit=20\nwebhook http://127.0.0.1:9/x\n");

        assertThat(unknownKey.exit()).isEqualTo(2);
        assertThat(unknownKey.err()).contains("line 3: unknown key 'min-hit' for server-error-burst; it takes name, family, severity, "
                + "min-hits, window");
        assertThat(dir.resolve("hits.duckdb")).doesNotExist();
    }

    @Test
    void aWebhookThatIsNotHttpAndABadOptionAreRefused() {
        CommandRun mail = serve("--alert-webhook", "mailto:ops@example.com");
        assertThat(mail.exit()).isEqualTo(2);
        assertThat(mail.err()).contains("--alert-webhook: 'mailto:ops@example.com' is not an http:// or https:// URL");
        CommandRun secret = serve("--alert-webhook", "https://user:pw@hooks.example.com/x");
        assertThat(secret.err()).contains("a user and password in it would be written in the log").doesNotContain("pw@");
        CommandRun repeat = serve("--alert-webhook", "http://127.0.0.1:9/x", "--alert-repeat", "often");
        assertThat(repeat.err()).contains("--alert-repeat must be a duration such as 30s, 10m, 4h or 1d; got 'often'");
        CommandRun format = serve("--alert-webhook", "http://127.0.0.1:9/x", "--alert-format", "teams");
        assertThat(format.err()).contains("--alert-format must be alertmanager or slack; got 'teams'");
        CommandRun verification = serve("--alert-webhook", "http://127.0.0.1:9/x", "--alert-verification", "verified,maybe");
        assertThat(verification.err()).contains("--alert-verification takes verified, unverified and spoofed");
        CommandRun noWebhook = serve("--alerts", "/dev/null");
        assertThat(noWebhook.err()).contains("names no webhook");
        for (CommandRun run : new CommandRun[] {mail, secret, repeat, format, verification, noWebhook}) {
            assertThat(run.exit()).isEqualTo(2);
        }
        assertThat(dir.resolve("hits.duckdb")).doesNotExist();
    }
}
