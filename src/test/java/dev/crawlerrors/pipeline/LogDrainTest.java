package dev.crawlerrors.pipeline;

import static dev.crawlerrors.ingest.SampleLogs.line;
import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ingest.Compressed;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.LogFormat;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.ingest.push.LogDrainServer;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --ingest-port}: the real log drain on a loopback port, the real store behind it, and
 * the report's JSON API read right after each answer.
 */
class LogDrainTest {

    private static final String TOKEN = "s3cret-token-for-tests";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Small, so the test of the limit sends little; the real one is LogDrainServer.MAX_BATCH_BYTES. */
    private static final long LIMIT = 256 * 1024;

    @TempDir
    Path dir;

    private PushedStore stored;
    private DuckDbHitStore store;
    private LogDrainServer drain;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void setUp() throws Exception {
        stored = new PushedStore(dir);
        store = stored.store;
        drain = LogDrainServer.start("127.0.0.1", 0, TOKEN, NamedFormats.liveChooser("auto", notice -> { }), stored.pushed, LIMIT);
    }

    @AfterEach
    void tearDown() {
        drain.close();
        stored.close();
    }

    private HttpRequest.Builder post(String query, byte[] body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + drain.port() + "/ingest" + query))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> ingest(String query, String contentType, byte[] body) throws Exception {
        return send(post(query, body).header("Authorization", "Bearer " + TOKEN).header("Content-Type", contentType));
    }

    private HttpResponse<String> ingest(String query, String contentType, String body) throws Exception {
        return ingest(query, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    private JsonNode api() throws Exception {
        return stored.api("");
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    @Test
    void storesABatchOfCombinedLinesBeforeItAnswersWithWhatItCameTo() throws Exception {
        HttpResponse<String> response = ingest("?format=combined", "text/plain", lines(1, 3));

        // no waiting: the hits must be in the report by the time the answer arrives
        JsonNode page = api();
        assertThat(page.get("total").asInt()).isEqualTo(3);
        assertThat(page.get("rows").findValuesAsText("url")).containsExactlyInAnyOrder("/page/1", "/page/2", "/page/3");
        assertThat(page.get("rows").findValuesAsText("verification")).containsOnly("verified");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        assertThat(response.body()).isEqualTo("{\"lines\":3,\"parsed\":3,\"bad\":{},\"crawlerHits\":3,\"firstBad\":[],"
                + "\"format\":\"combined\"}");
    }

    @Test
    void detectsTheFormatOfATextBatchThatNamesNone() throws Exception {
        HttpResponse<String> response = ingest("", "text/plain; charset=utf-8", lines(1, 2));

        assertThat(json(response).get("format").asText()).isEqualTo("combined with request time in seconds (nginx $request_time)");
        assertThat(json(response).get("crawlerHits").asInt()).isEqualTo(2);
        assertThat(api().get("total").asInt()).isEqualTo(2);
    }

    @Test
    void readsNdjsonFromCaddyAndTraefik() throws Exception {
        String body = SampleLogs.CADDY + "\n" + SampleLogs.TRAEFIK + "\n" + SampleLogs.NGINX_JSON + "\n";

        HttpResponse<String> response = ingest("", "application/x-ndjson", body);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("parsed").asInt()).isEqualTo(3);
        assertThat(json(response).get("crawlerHits").asInt()).isEqualTo(3);
        JsonNode page = api();
        assertThat(page.get("total").asInt()).isEqualTo(3);
        assertThat(page.get("rows").findValuesAsText("url")).containsOnly("/gent/veldstraat?x=1");
    }

    @Test
    void readsApplicationJsonAsJsonLines() throws Exception {
        HttpResponse<String> response = ingest("", "application/json", SampleLogs.TRAEFIK);

        assertThat(json(response).get("format").asText()).isEqualTo("JSON lines"); // named by the content type, not detected
        assertThat(api().get("total").asInt()).isEqualTo(1);
    }

    @Test
    void readsAJsonArrayOfRecordsPrettyPrintedOrNotAsOneLineARecord() throws Exception {
        // as Fluent Bit's http output batches (Format json); the third element is no record
        String body = " [\n  " + JSON.readTree(SampleLogs.CADDY).toPrettyString().replace("\n", "\n  ") + ",\n  "
                + SampleLogs.TRAEFIK + ",\n  42\n]\n";

        HttpResponse<String> response = ingest("", "application/json", body);

        JsonNode summary = json(response);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(summary.get("lines").asInt()).isEqualTo(3);
        assertThat(summary.get("crawlerHits").asInt()).isEqualTo(2);
        assertThat(summary.get("firstBad").findValuesAsText("line")).containsExactly("3");
        assertThat(api().get("rows").findValuesAsText("url")).containsOnly("/gent/veldstraat?x=1").hasSize(2);
    }

    @Test
    void refusesAJsonArrayThatIsCutShortAndStoresNothingOfIt() throws Exception {
        String body = "[" + SampleLogs.TRAEFIK + ",\n" + SampleLogs.CADDY.substring(0, 40);

        HttpResponse<String> response = ingest("?format=json", "text/plain", body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").asText()).contains("line 2").contains("nothing of it was stored");
        assertThat(api().get("total").asInt()).isZero();
    }

    @Test
    void readsAGzipBody() throws Exception {
        HttpResponse<String> response = send(post("?format=combined", Compressed.gzip(lines(1, 4)))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "text/plain").header("Content-Encoding", "gzip"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("crawlerHits").asInt()).isEqualTo(4);
        assertThat(api().get("total").asInt()).isEqualTo(4);
    }

    @Test
    void refusesADamagedGzipBodyAndStoresNothingOfIt() throws Exception {
        byte[] gzip = Compressed.gzip(lines(1, 200));

        HttpResponse<String> response = send(post("", Arrays.copyOf(gzip, gzip.length / 2))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Encoding", "gzip"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").asText()).startsWith("the gzip body is damaged or cut short (")
                .endsWith("); nothing of it was stored, send it again");
        assertThat(store.health().size()).isZero();
    }

    @Test
    void countsBadLinesByReasonAndKeepsTheGoodOnesAroundThem() throws Exception {
        String body = line(1) + "garbage\r\n" + line(2).replace("\n", "\r\n") + "x".repeat(70_000) + "\n" + line(3);

        HttpResponse<String> response = ingest("?format=combined", "text/plain", body);

        JsonNode summary = json(response);
        assertThat(summary.get("lines").asInt()).isEqualTo(5);
        assertThat(summary.get("parsed").asInt()).isEqualTo(3);
        assertThat(summary.get("crawlerHits").asInt()).isEqualTo(3);
        assertThat(summary.get("bad").get("too long").asInt()).isEqualTo(1);
        assertThat(summary.get("firstBad").findValuesAsText("line")).containsExactly("2", "4");
        assertThat(summary.get("firstBad").get(1).get("reason").asText()).isEqualTo("too long");
        assertThat(api().get("rows").findValuesAsText("url")).containsExactlyInAnyOrder("/page/1", "/page/2", "/page/3");
    }

    @Test
    void refusesAFormatThatIsNoneNamingTheParameter() throws Exception {
        HttpResponse<String> response = ingest("?format=apache-ish", "text/plain", lines(1, 1));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("parameter").asText()).isEqualTo("format");
        assertThat(json(response).get("error").asText()).isEqualTo("format: 'apache-ish' is not a log format; use auto, combined, "
                + "common, combined-vhost, common-vhost, json, w3c, nginx:'<log_format>' or apache:'<LogFormat>'");
        assertThat(store.health().size()).isZero();
    }

    @Test
    void readsANginxFormatStringGivenAsTheParameter() throws Exception {
        String format = "nginx:$remote_addr [$time_local] \"$request\" $status \"$http_user_agent\"";
        String body = "66.249.66.1 [14/May/2025:09:31:02 +0200] \"GET /nginx/format HTTP/1.1\" 410 \"" + SampleLogs.GOOGLEBOT + "\"\n";

        HttpResponse<String> response = ingest("?format=" + java.net.URLEncoder.encode(format, StandardCharsets.UTF_8), "text/plain", body);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(api().get("rows").findValuesAsText("url")).containsExactly("/nginx/format");
    }

    @Test
    void refusesAMissingTokenWithAChallenge() throws Exception {
        HttpResponse<String> response = send(post("", lines(1, 1).getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"crawl-errors\"");
        assertThat(json(response).get("error").asText()).isEqualTo(
                "a bearer token is required: send Authorization: Bearer <the token in --ingest-token-file>");
        assertThat(store.health().size()).isZero();
    }

    @Test
    void refusesAWrongTokenAndStoresNothing() throws Exception {
        for (String wrong : new String[] {TOKEN + "x", TOKEN.substring(1), "", "Basic " + TOKEN}) {
            HttpResponse<String> response = send(post("", lines(1, 1).getBytes(StandardCharsets.UTF_8))
                    .header("Authorization", wrong.startsWith("Basic") ? wrong : "Bearer " + wrong));

            assertThat(response.statusCode()).as(wrong).isEqualTo(401);
            assertThat(response.headers().firstValue("WWW-Authenticate")).as(wrong).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        }
        assertThat(store.health().size()).isZero();
        assertThat(api().get("total").asInt()).isZero();
    }

    @Test
    void refusesABodyOverTheLimitWhetherSentOrDecompressed() throws Exception {
        String big = lines(1, 2_000); // about 380 KB, over the test's 256 KiB

        HttpResponse<String> plain = ingest("", "text/plain", big);
        HttpResponse<String> gzip = send(post("", Compressed.gzip(big)).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Encoding", "gzip"));
        HttpResponse<String> chunked = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + drain.port() + "/ingest"))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                .header("Authorization", "Bearer " + TOKEN));

        assertThat(plain.statusCode()).isEqualTo(413);
        assertThat(json(plain).get("error").asText()).isEqualTo("the body is " + big.length() + " bytes, more than 256 KiB; "
                + "send batches of at most 256 KiB (of log lines, decompressed)");
        assertThat(gzip.statusCode()).isEqualTo(413);
        assertThat(json(gzip).get("error").asText()).startsWith("the decompressed body is larger than 256 KiB;");
        assertThat(chunked.statusCode()).as("sent without a length").isEqualTo(413);
        assertThat(json(chunked).get("error").asText()).startsWith("the body is larger than 256 KiB;");
        assertThat(store.health().size()).isZero();
    }

    @Test
    void everySenderOfABatchOverTheLimitReadsWhyItWasRefused() throws Exception {
        // refused by its Content-Length before a byte is read: answered and closed while the sender still sent, the
        // sender's next write met a reset and it never read the 413 (2 in 100 on loopback before the rest was read)
        String big = lines(1, 2_000);
        for (int i = 0; i < 100; i++) {
            HttpResponse<String> refused = ingest("", "text/plain", big);
            assertThat(refused.statusCode()).as("batch %d", i).isEqualTo(413);
        }
        assertThat(store.health().size()).isZero();
    }

    @Test
    void aSenderWaitingForTheGoAheadIsRefusedAtOnceWithoutBeingAskedForItsBody() throws Exception {
        // curl asks first above 1 MiB (Expect: 100-continue): the refusal reads nothing of the body, so no go-ahead is sent
        try (Socket socket = new Socket("127.0.0.1", drain.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 10000000\r\nExpect: 100-continue\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 413");
        }
        assertThat(store.health().size()).isZero();
    }

    @Test
    void storesWhatTheReadmesCurlCommandSendsForALogOverAMebibyte() throws Exception {
        // the bytes curl 7.88 sends for the documented command (docs/sources.md) (captured from it): its form content type, and, for a body
        // over 1 MiB, Expect: 100-continue; also over Jetty's 200,000-byte limit for forms it would parse
        String log = lines(1, 6_500);
        byte[] body = log.getBytes(StandardCharsets.UTF_8);
        assertThat(body.length).isGreaterThan(1 << 20);
        try (LogDrainServer realLimit = LogDrainServer.start("127.0.0.1", 0, TOKEN, NamedFormats.liveChooser("auto", notice -> { }),
                stored.pushed);
                Socket socket = new Socket("127.0.0.1", realLimit.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("POST /ingest?format=combined HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:" + realLimit.port() + "\r\n"
                    + "User-Agent: curl/7.88.1\r\n"
                    + "Accept: */*\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\n"
                    + "Content-Length: " + body.length + "\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\n"
                    + "Expect: 100-continue\r\n"
                    + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(responseHead(in)).startsWith("HTTP/1.1 100 Continue\r\n");
            out.write(body);
            out.flush();

            String head = responseHead(in);
            assertThat(head).startsWith("HTTP/1.1 200 OK\r\n");
            assertThat(new String(in.readNBytes(contentLength(head)), StandardCharsets.UTF_8)).isEqualTo(
                    "{\"lines\":6500,\"parsed\":6500,\"bad\":{},\"crawlerHits\":6500,\"firstBad\":[],\"format\":\"combined\"}");
        }
        assertThat(store.health().size()).isEqualTo(6_500);
        assertThat(api().get("total").asInt()).isEqualTo(6_500);
        assertThat(stored.api("?url=/page/6500").get("rows").findValuesAsText("url")).containsExactly("/page/6500");
        assertThat(stored.api("?url=/page/1").get("total").asInt()).isEqualTo(1_111); // /page/1, /page/10-19, ... /page/1000-1999
    }

    @Test
    void hintsThatCurlDashDDroppedTheNewlinesWhenAFormBodyHoldsNoneAndDoesNotParse() throws Exception {
        // what curl -d @access.log sends for a log of three combined lines, without request times
        String glued = lines(1, 3).replace(" 0.001\n", "");

        HttpResponse<String> response = ingest("?format=combined", "application/x-www-form-urlencoded", glued);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"lines\":1,\"parsed\":0,\"bad\":{\"not combined\":1},\"crawlerHits\":0,"
                + "\"firstBad\":[{\"line\":1,\"reason\":\"not combined\",\"message\":\"unexpected text after the user agent: "
                + "'66.249.66.2 - - [14/May/2025:09:31:02 +0200] \\\"GET /page/2 HT...'\"}],\"format\":\"combined\","
                + "\"hint\":\"the body holds no newline, so its records ran together into one line: curl -d drops the newlines "
                + "of a file; send it with --data-binary @access.log, which keeps them\"}");
        assertThat(store.health().size()).isZero();
    }

    @Test
    void givesNoHintForAFormBodyWithNewlinesThatDoesNotParse() throws Exception {
        // the records ran together by another cause than curl -d, which leaves no newline at all
        HttpResponse<String> response = ingest("?format=combined", "application/x-www-form-urlencoded",
                lines(1, 3).replace(" 0.001\n", "") + "\n");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).has("hint")).isFalse();
        assertThat(json(response).get("bad").toString()).isEqualTo("{\"not combined\":1}");
    }

    @Test
    void storesAOneLineBatchSentWithCurlDashDThatParses() throws Exception {
        HttpResponse<String> response = ingest("?format=combined", "application/x-www-form-urlencoded", line(7).strip());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"lines\":1,\"parsed\":1,\"bad\":{},\"crawlerHits\":1,\"firstBad\":[],"
                + "\"format\":\"combined\"}");
        assertThat(api().get("rows").findValuesAsText("url")).containsExactly("/page/7");
    }

    @Test
    void refusesAMultipartBodyNamingCurlsDataBinary() throws Exception {
        HttpResponse<String> response = ingest("", "multipart/form-data; boundary=x", "--x\r\n\r\n" + lines(1, 2) + "--x--\r\n");

        assertThat(response.statusCode()).isEqualTo(415);
        assertThat(json(response).get("error").asText()).isEqualTo("the body is sent as multipart/form-data, which is not log lines: "
                + "send the lines as they are, as text/plain or application/x-ndjson (with curl: --data-binary @access.log, not -F)");
        assertThat(store.health().size()).isZero();
    }

    /** The status line and headers of the next response, through the blank line. */
    private static String responseHead(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            assertThat(b).as("the response so far: " + head).isNotNegative();
            head.append((char) b);
        }
        return head.toString();
    }

    private static int contentLength(String head) {
        for (String header : head.split("\r\n")) {
            if (header.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                return Integer.parseInt(header.substring(15).strip());
            }
        }
        throw new AssertionError("no Content-Length in " + head);
    }

    @Test
    void answersOtherMethodsWith405AndWhatIsAllowed() throws Exception {
        for (String method : new String[] {"GET", "PUT", "DELETE", "PATCH"}) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + drain.port() + "/ingest"))
                    .method(method, HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + TOKEN));

            assertThat(response.statusCode()).as(method).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).as(method).contains("POST");
        }
    }

    @Test
    void theReportPortTakesNoBatches() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stored.reportPort() + "/ingest"))
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString(lines(1, 3))).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(store.health().size()).isZero();
        assertThat(api().get("total").asInt()).isZero();
    }
}
