package dev.crawlerrors.ingest.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.NamedFormats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The drain's HTTP server on a real loopback port, with a sink that keeps each batch as it reads it:
 * what reaches the sink (decompressed, JSON arrays as lines, the format the batch names), the
 * sender's answer only once the sink returns, and each refusal with its status, header and JSON
 * body, the sink never called. What a store makes of a batch is {@code pipeline.LogDrainTest}'s.
 */
class LogDrainServerTest {

    private static final String TOKEN = "s3cret-token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> batches = Collections.synchronizedList(new ArrayList<>());
    private final List<FormatChooser> choosers = Collections.synchronizedList(new ArrayList<>());
    private final FormatChooser serveFormats = NamedFormats.liveChooser("auto", notice -> { });
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private LogDrainServer drain;

    /** Keeps the batch's text and counts each of its lines parsed. */
    private final LineBatchSink keeping = (in, source, formats) -> {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        batches.add(text);
        choosers.add(formats);
        ParseCounts counts = new ParseCounts();
        text.lines().forEach(line -> counts.countParsed(true));
        return new PushedBatch(counts, "combined", 1);
    };

    @AfterEach
    void stop() {
        if (drain != null) {
            drain.close();
        }
    }

    private void start(LineBatchSink sink, long maxBatchBytes) {
        drain = LogDrainServer.start("127.0.0.1", 0, TOKEN, serveFormats, sink, maxBatchBytes);
    }

    private HttpRequest.Builder post(String query, byte[] body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + drain.port() + LogDrainServer.PATH + query))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "text/plain");
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }

    @Test
    void handsTheBatchToTheSinkAndAnswersWithWhatItCameTo() throws Exception {
        start(keeping, LogDrainServer.MAX_BATCH_BYTES);

        HttpResponse<String> response = send(post("", bytes("one\ntwo\n")));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(batches).containsExactly("one\ntwo\n");
        assertThat(choosers).containsExactly(serveFormats);
        JsonNode summary = json(response);
        assertThat(summary.get("lines").asLong()).isEqualTo(2);
        assertThat(summary.get("parsed").asLong()).isEqualTo(2);
        assertThat(summary.get("crawlerHits").asLong()).isEqualTo(1);
        assertThat(summary.get("format").asText()).isEqualTo("combined");
    }

    @Test
    void readsAGzipBodyAndAJsonArrayAsOneLineARecord() throws Exception {
        start(keeping, LogDrainServer.MAX_BATCH_BYTES);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(bytes("zipped line\n"));
        }

        assertThat(send(post("", gz.toByteArray()).header("Content-Encoding", "gzip")).statusCode()).isEqualTo(200);
        assertThat(send(post("", bytes("[{\"a\":1},\n {\"b\":\"x\"}]")).setHeader("Content-Type", "application/json")).statusCode())
                .isEqualTo(200);

        assertThat(batches.get(0)).isEqualTo("zipped line\n");
        assertThat(batches.get(1).lines().toList()).containsExactly("{\"a\":1}", "{\"b\":\"x\"}");
        assertThat(choosers.get(1)).as("JSON lines, not serve's format").isNotSameAs(serveFormats);
    }

    @Test
    void refusesASenderWithoutTheTokenWithAChallengeAndCallsNoSink() throws Exception {
        start(keeping, LogDrainServer.MAX_BATCH_BYTES);

        HttpResponse<String> none = send(post("", bytes("x\n")).setHeader("Authorization", "Basic dXNlcjpwdw=="));
        HttpResponse<String> wrong = send(post("", bytes("x\n")).setHeader("Authorization", "Bearer guess"));

        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"crawl-errors\"");
        assertThat(json(none).get("error").asText()).startsWith("a bearer token is required");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"crawl-errors\", error=\"invalid_token\"");
        assertThat(wrong.body()).doesNotContain(TOKEN);
        assertThat(batches).isEmpty();
    }

    @Test
    void refusesWhatItCannotReadWithItsStatusAndCallsNoSink() throws Exception {
        start(keeping, 1024);

        HttpResponse<String> format = send(post("?format=morse", bytes("x\n")));
        HttpResponse<String> encoding = send(post("", bytes("x\n")).header("Content-Encoding", "br"));
        HttpResponse<String> multipart = send(post("", bytes("x\n")).setHeader("Content-Type", "multipart/form-data; boundary=b"));
        HttpResponse<String> large = send(post("", new byte[2048]));
        HttpResponse<String> notGzip = send(post("", bytes("plain\n")).header("Content-Encoding", "gzip"));

        assertThat(format.statusCode()).isEqualTo(400);
        assertThat(json(format).get("parameter").asText()).isEqualTo("format");
        assertThat(json(format).get("error").asText()).startsWith("format: ");
        assertThat(encoding.statusCode()).isEqualTo(415);
        assertThat(encoding.headers().firstValue("Accept-Encoding")).contains("gzip");
        assertThat(multipart.statusCode()).isEqualTo(415);
        assertThat(json(multipart).get("error").asText()).contains("--data-binary @access.log, not -F");
        assertThat(large.statusCode()).isEqualTo(413);
        assertThat(json(large).get("error").asText()).contains("send batches of at most");
        assertThat(notGzip.statusCode()).isEqualTo(400);
        assertThat(batches).isEmpty();
    }

    @Test
    void refusesABodyThatGrowsPastTheLimitOnceDecompressed() throws Exception {
        start(keeping, 1024);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(new byte[64 * 1024]);
        }

        HttpResponse<String> response = send(post("", gz.toByteArray()).header("Content-Encoding", "gzip"));

        assertThat(gz.size()).isLessThan(1024);
        assertThat(response.statusCode()).isEqualTo(413);
    }

    @Test
    void answersOtherMethodsWith405NamingPost() throws Exception {
        start(keeping, LogDrainServer.MAX_BATCH_BYTES);

        HttpResponse<String> get = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + drain.port() + LogDrainServer.PATH)).GET());

        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).contains("POST");
        assertThat(json(get).get("status").asInt()).isEqualTo(405);
    }

    @Test
    void saysASinkThatFailedWithA500AndShowsItsMessageSafely() throws Exception {
        start((in, source, formats) -> {
            in.readAllBytes();
            throw new IllegalStateException("the store is gone \u001B[2J");
        }, LogDrainServer.MAX_BATCH_BYTES);

        HttpResponse<String> response = send(post("", bytes("x\n")));

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response).get("error").asText()).startsWith("the batch could not be stored (the store is gone").doesNotContain("\u001B");
    }

    @Test
    void needsAToken() {
        assertThatThrownBy(() -> LogDrainServer.start("127.0.0.1", 0, "", serveFormats, keeping))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the log drain needs a token");
    }
}
