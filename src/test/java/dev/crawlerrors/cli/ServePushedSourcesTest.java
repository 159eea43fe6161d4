package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.line;
import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code serve} with its network sources as a user runs it: options checked before anything
 * starts, and a serve process of its own taking lines over UDP, TCP and the drain at once, then
 * stopped with SIGTERM.
 */
@ProcessTest
class ServePushedSourcesTest {

    private static final Pattern UDP = Pattern.compile("Listening for syslog on (udp://\\S+)");
    private static final Pattern TCP = Pattern.compile("Listening for syslog on (tcp://\\S+)");
    private static final Pattern DRAIN = Pattern.compile("Taking log batches at (http://\\S+/ingest)");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    /** Runs {@code serve ARGS...} in this JVM, for options refused before it serves; returns the exit code and stderr. */
    private Result serveInProcess(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        List<String> all = new ArrayList<>(List.of("serve", "--db", dir.resolve("hits.duckdb").toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", dir.toString()));
        all.addAll(List.of(args));
        int code = cli.execute(all.toArray(String[]::new));
        return new Result(code, err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int code, String err) {
    }

    private static String octetCounted(String frame) {
        return frame.getBytes(StandardCharsets.UTF_8).length + " " + frame;
    }

    /** The URLs in the served report, once it holds {@code expected} rows or ten seconds have passed. */
    private List<String> servedUrls(ServeProcess serve, int expected) throws Exception {
        JsonNode page = null;
        long deadline = System.currentTimeMillis() + 10_000;
        while (page == null || (page.get("total").asInt() < expected && System.currentTimeMillis() < deadline)) {
            if (page != null) {
                Thread.sleep(20);
            }
            page = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(serve.base() + "/api/crawl-errors")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
        }
        return page.get("rows").findValuesAsText("url");
    }

    @Test
    void refusesTheDrainWithoutATokenFile() {
        Result result = serveInProcess("--ingest-port", "0");

        assertThat(result.code).isEqualTo(2);
        assertThat(result.err).startsWith("--ingest-port needs --ingest-token-file: the log drain accepts only senders that "
                + "present its token; write one to a file (e.g. openssl rand -hex 32 > ingest.token)");
    }

    @Test
    void refusesAPortThatIsNoTcpPortNamingIt() throws Exception {
        Path token = Files.writeString(dir.resolve("ingest.token"), "t0ken\n");

        Result ingest = serveInProcess("--ingest-port", "70000", "--ingest-token-file", token.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        Result report = new Result(cli.execute("serve", "--db", dir.resolve("hits.duckdb").toString(), "--port", "-5", "--dns-server", "none"),
                err.toString(StandardCharsets.UTF_8));

        assertThat(ingest.code).isEqualTo(2);
        assertThat(ingest.err).startsWith("--ingest-port must be a TCP port, 0 to 65535 (0 picks a free one); got 70000");
        assertThat(report.code).isEqualTo(2);
        assertThat(report.err).startsWith("--port must be a TCP port, 0 to 65535 (0 picks a free one); got -5");
        assertThat(Files.exists(dir.resolve("hits.duckdb"))).as("refused before the store is opened").isFalse();
    }

    @Test
    void refusesAnEmptyOrMissingTokenFile() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.token"), " \n");

        Result emptyFile = serveInProcess("--ingest-port", "0", "--ingest-token-file", empty.toString());
        Result missing = serveInProcess("--ingest-port", "0", "--ingest-token-file", dir.resolve("missing.token").toString());

        assertThat(emptyFile.code).isEqualTo(2);
        assertThat(emptyFile.err).startsWith("--ingest-token-file: " + empty + " is empty; write the token senders must present to it");
        assertThat(missing.code).isEqualTo(2);
        assertThat(missing.err).startsWith("--ingest-token-file: " + dir.resolve("missing.token") + " cannot be read");
        assertThat(Files.exists(dir.resolve("hits.duckdb"))).as("refused before the store is opened").isFalse();
    }

    @Test
    void refusesATokenFileWithoutAPort() throws Exception {
        Path token = Files.writeString(dir.resolve("ingest.token"), "t0ken\n");

        Result result = serveInProcess("--ingest-token-file", token.toString());

        assertThat(result.code).isEqualTo(2);
        assertThat(result.err).startsWith("--ingest-token-file needs --ingest-port");
    }

    @Test
    void refusesASyslogAddressThatIsNone() {
        Result result = serveInProcess("--syslog", "127.0.0.1:5140");

        assertThat(result.code).isEqualTo(2);
        assertThat(result.err).startsWith("--syslog: '127.0.0.1:5140' is not a syslog address: it names no protocol "
                + "(udp:// or tcp://); use udp://HOST:PORT or tcp://HOST:PORT, e.g. udp://127.0.0.1:5140");
        Result port = serveInProcess("--syslog", "udp://127.0.0.1:99999");
        assertThat(port.code).isEqualTo(2);
        assertThat(port.err).startsWith("--syslog: 'udp://127.0.0.1:99999' is not a syslog address: its port is no TCP or UDP port (0 to 65535)");
    }

    @Test
    void refusesAFormatThatIsNone() {
        Result result = serveInProcess("--format", "apache-ish", "--syslog", "udp://127.0.0.1:0");

        assertThat(result.code).isEqualTo(2);
        assertThat(result.err).startsWith("--format: 'apache-ish' is not a log format");
    }

    @Test
    void takesLinesOverUdpTcpAndTheDrainAtOnceAndStoresAllOfThemWhenStopped() throws Exception {
        Path db = dir.resolve("hits.duckdb");
        Path token = Files.writeString(dir.resolve("ingest.token"), "t0ken-from-a-file\n");
        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", db.toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--timezone", "UTC",
                "--syslog", "udp://127.0.0.1:0", "--syslog", "tcp://127.0.0.1:0",
                "--ingest-port", "0", "--ingest-token-file", token.toString())) {
            URI udp = URI.create(serve.printed(UDP));
            URI tcp = URI.create(serve.printed(TCP));

            HttpResponse<String> drained = http.send(HttpRequest.newBuilder(URI.create(serve.printed(DRAIN)))
                    .header("Authorization", "Bearer t0ken-from-a-file").header("Content-Type", "application/x-ndjson")
                    .POST(HttpRequest.BodyPublishers.ofString(SampleLogs.CADDY + "\n")).build(), HttpResponse.BodyHandlers.ofString());
            try (DatagramSocket socket = new DatagramSocket()) {
                byte[] frame = ("<190>Nov 22 01:02:03 web1 nginx: " + line(1).strip()).getBytes(StandardCharsets.UTF_8);
                socket.send(new DatagramPacket(frame, frame.length, new InetSocketAddress(udp.getHost(), udp.getPort())));
            }
            try (Socket socket = new Socket(tcp.getHost(), tcp.getPort())) {
                socket.getOutputStream().write(("<190>Nov 22 01:02:03 web1 nginx: " + line(2)).getBytes(StandardCharsets.UTF_8));
            }
            assertThat(drained.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(drained.body()).get("crawlerHits").asInt()).isEqualTo(1);
            try (Socket socket = new Socket(tcp.getHost(), tcp.getPort())) {
                socket.getOutputStream().write(lines(3, 5).lines().map(l -> octetCounted("<190>Nov 22 01:02:03 web1 nginx: " + l))
                        .reduce("", String::concat).getBytes(StandardCharsets.UTF_8));
            }
            assertThat(servedUrls(serve, 6)).containsExactlyInAnyOrder("/gent/veldstraat?x=1", "/page/1", "/page/2", "/page/3",
                    "/page/4", "/page/5");

            serve.process().destroy(); // SIGTERM: sources close, then the store
            assertThat(serve.process().waitFor(20, TimeUnit.SECONDS)).isTrue();

            try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
                List<String> stored = new ArrayList<>();
                store.reader().forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
                assertThat(stored).containsExactlyInAnyOrder("/gent/veldstraat?x=1", "/page/1", "/page/2", "/page/3", "/page/4", "/page/5");
            }
            assertThat(serve.printed()).contains("syslog: " + tcp + ": closed after 4 frames (0 malformed): 4 lines, 4 parsed, 0 bad, "
                    + "4 crawler hits stored; 0 connections refused, 0 closed idle");
        }
    }

    @Test
    void readsSyslogLinesAndDrainBatchesThatNameNoFormatInServesFormatAndADrainBatchInTheOneItNames() throws Exception {
        // a format auto-detection cannot find, so only --format reading them explains their being stored
        String format = "nginx:$remote_addr [$time_local] \"$request\" $status \"$http_user_agent\"";
        IntFunction<String> custom = i -> "66.249.66." + i + " [14/May/2025:09:31:02 +0200] \"GET /custom/" + i + " HTTP/1.1\" 410 \""
                + SampleLogs.GOOGLEBOT + "\"";
        Path token = Files.writeString(dir.resolve("ingest.token"), "t0ken\n");
        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", dir.resolve("hits.duckdb").toString(),
                "--port", "0", "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString(),
                "--format", format, "--syslog", "udp://127.0.0.1:0", "--ingest-port", "0", "--ingest-token-file", token.toString())) {
            URI udp = URI.create(serve.printed(UDP));
            URI drain = URI.create(serve.printed(DRAIN));

            try (DatagramSocket socket = new DatagramSocket()) {
                byte[] frame = ("<190>Nov 22 01:02:03 web1 nginx: " + custom.apply(1)).getBytes(StandardCharsets.UTF_8);
                socket.send(new DatagramPacket(frame, frame.length, new InetSocketAddress(udp.getHost(), udp.getPort())));
            }
            HttpResponse<String> inServesFormat = http.send(HttpRequest.newBuilder(drain).header("Authorization", "Bearer t0ken")
                    .POST(HttpRequest.BodyPublishers.ofString(custom.apply(2) + "\n")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> inItsOwn = http.send(HttpRequest.newBuilder(URI.create(drain + "?format=combined"))
                    .header("Authorization", "Bearer t0ken").POST(HttpRequest.BodyPublishers.ofString(line(3))).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(JSON.readTree(inServesFormat.body()).get("crawlerHits").asInt()).isEqualTo(1);
            assertThat(JSON.readTree(inItsOwn.body()).get("format").asText()).isEqualTo("combined");
            assertThat(servedUrls(serve, 3)).containsExactlyInAnyOrder("/custom/1", "/custom/2", "/page/3");
        }
    }
}
