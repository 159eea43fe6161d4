package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.crawlerrors.ingest.SampleLogs;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that cannot start makes nothing: every option is checked before the store's file is
 * made. A bad --timezone or a busy port left an empty store behind, which the next serve then
 * served as an empty report; and a --bind not on this machine advised another --port.
 */
class StartFailureTest {

    /** A serve that did start would serve until stopped: a run past this is one that did not refuse. */
    static final Duration REFUSED_WITHIN = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private Path db;

    private CommandRun serve(String... options) throws Exception {
        db = dir.resolve("new.duckdb");
        List<String> args = new ArrayList<>(List.of("serve", "--db", db.toString(), "--dns-server", "none",
                "--ip-ranges", SampleLogs.ipRanges(dir).toString()));
        args.addAll(List.of(options));
        return assertTimeoutPreemptively(REFUSED_WITHIN, () -> CommandRun.of(args.toArray(String[]::new)));
    }

    @Test
    void serveWithATimeZoneThatIsNoneLeavesNoStore() throws Exception {
        CommandRun run = serve("--port", "0", "--timezone", "Mars/Olympus");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("--timezone: 'Mars/Olympus' is not a time zone; use a region such as Europe/Brussels");
        assertThat(db).doesNotExist();
        assertThat(Path.of(db + ".wal")).doesNotExist();
    }

    @Test
    void serveOnABusyPortSaysAnotherProgramListensThereAndLeavesNoStore() throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = busy.getLocalPort();

            CommandRun run = serve("--port", Integer.toString(port));

            assertThat(run.exit()).isEqualTo(1);
            assertThat(run.err()).isEqualTo("crawl-errors: cannot listen on 127.0.0.1:" + port + ": another program listens there "
                    + "(another crawl-errors serve?); pass another --port, or --port 0 for a free one" + System.lineSeparator());
            assertThat(db).doesNotExist();
        }
    }

    @Test
    void serveOnAnAddressNotOfThisMachineSaysSoNotAnotherPort() throws Exception {
        CommandRun run = serve("--port", "0", "--bind", "192.0.2.1"); // TEST-NET-1: documentation only, no machine's

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("--bind: 192.0.2.1 is not an address of this machine; pass one of its own, such as 127.0.0.1, "
                + "or 0.0.0.0 for every interface").doesNotContain("--port");
        assertThat(db).doesNotExist();
    }

    @Test
    void serveOnAHostNameThatDoesNotResolveSaysSo() throws Exception {
        CommandRun run = serve("--port", "0", "--bind", "no-such-host.invalid");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("--bind: 'no-such-host.invalid' is no address of this machine (no host has that name)");
        assertThat(db).doesNotExist();
    }

    @Test
    void importWithATimeZoneOrResolverThatIsNoneLeavesNoStore() throws Exception {
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.line(1));
        Path store = dir.resolve("import.duckdb");

        CommandRun zone = CommandRun.importing(dir, store, "--timezone", "Mars/Olympus", log.toString());
        CommandRun resolver = CommandRun.of("import", "--db", store.toString(), "--ip-ranges", SampleLogs.ipRanges(dir).toString(),
                "--dns-server", "[::1", log.toString());

        assertThat(zone.exit()).isEqualTo(2);
        assertThat(zone.err()).startsWith("--timezone: 'Mars/Olympus' is not a time zone");
        assertThat(resolver.exit()).isEqualTo(2);
        assertThat(resolver.err()).startsWith("--dns-server: DNS server '[::1' is not [IPv6-address] or [IPv6-address]:port");
        assertThat(store).doesNotExist();
    }

    @Test
    void demoWithATimeZoneThatIsNoneWritesNothing() throws Exception {
        Path demo = dir.resolve("demo");

        CommandRun run = assertTimeoutPreemptively(REFUSED_WITHIN,
                () -> CommandRun.of("demo", "--dir", demo.toString(), "--port", "0", "--timezone", "Mars/Olympus"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("--timezone: 'Mars/Olympus' is not a time zone");
        assertThat(demo).doesNotExist();
    }
}
