package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.FuzzLines;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.ingest.push.LogDrainServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The log drain's bodies, fuzzed against the real drain and the real store: whatever a sender
 * posts (lines of every format, mutated and cut, garbage, JSON arrays broken anywhere, gzip whole,
 * cut or claimed and absent, any content type and ?format=), the answer is never a 500, and a batch
 * is stored whole or not at all: a 200 stores exactly the crawler hits it reports, anything else
 * stores nothing.
 */
class LogDrainFuzzTest {

    private static final String TOKEN = "fuzz-token";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Small, so that the fuzzer reaches the limit too. */
    private static final long LIMIT = 64 * 1024;

    private static Path dir;
    private static PushedStore stored;
    private static LogDrainServer drain;

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("log-drain-fuzz");
        stored = new PushedStore(dir);
        drain = LogDrainServer.start("127.0.0.1", 0, TOKEN, NamedFormats.liveChooser("auto", notice -> { }), stored.pushed, LIMIT);
    }

    @AfterContainer
    static void stop() throws IOException {
        drain.close();
        stored.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    /** One request: its body as sent, how it is encoded, its content type and ?format= (null: none). */
    record Batch(byte[] body, String encoding, String contentType, String format) {
        @Override
        public String toString() {
            return "Batch[" + body.length + " bytes, encoding=" + encoding + ", type=" + contentType + ", format=" + format + ", body="
                    + new String(Arrays.copyOf(body, Math.min(body.length, 300)), StandardCharsets.ISO_8859_1) + "]";
        }
    }

    @Property(tries = 200)
    void aBatchIsStoredWholeOrNotAtAllAndNeverAnswered500(@ForAll("batches") Batch batch) throws Exception {
        long before = stored.store.health().size();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + drain.port() + LogDrainServer.PATH
                        + (batch.format() == null ? "" : "?format=" + URLEncoder.encode(batch.format(), StandardCharsets.UTF_8))))
                .POST(HttpRequest.BodyPublishers.ofByteArray(batch.body())).header("Authorization", "Bearer " + TOKEN);
        if (batch.contentType() != null) {
            request.header("Content-Type", batch.contentType());
        }
        if (batch.encoding() != null) {
            request.header("Content-Encoding", batch.encoding());
        }

        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            // a body its Content-Length shows too large is refused (413) before it is read, and the connection closed: a
            // sender still writing it may see the connection go before the answer (curl reads the 413, Java's client not)
            assertThat((long) batch.body().length).as(batch + " lost its connection: " + e).isGreaterThan(LIMIT);
            assertThat(LogDrainFuzzTest.stored.store.health().size()).as(batch.toString()).isEqualTo(before);
            return;
        }

        long stored = LogDrainFuzzTest.stored.store.health().size() - before;
        assertThat(response.statusCode()).as(batch + " answered " + response.body()).isIn(200, 400, 413, 415);
        JsonNode answer = JSON.readTree(response.body());
        if (response.statusCode() == 200) {
            assertThat(stored).as(batch + " answered " + response.body()).isEqualTo(answer.get("crawlerHits").asLong());
        } else {
            assertThat(stored).as(batch + " answered " + response.body()).isZero();
            assertThat(answer.get("error").asText()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<Batch> batches() {
        Arbitrary<String> encoding = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just("")), Tuple.of(3, Arbitraries.just("gzip")),
                Tuple.of(1, Arbitraries.of("gzip-cut", "gzip-claimed", "br", "identity", "x-gzip")));
        Arbitrary<String> contentType = Arbitraries.of("text/plain", "application/x-ndjson", "application/json",
                "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/octet-stream", "text/plain; charset=latin1",
                "none");
        Arbitrary<String> format = Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.just("")),
                Tuple.of(3, Arbitraries.of("auto", "combined", "common", "json", "w3c", "combined-vhost", "xml",
                        "nginx:'$remote_addr [$time_local] \"$request\" $status \"$http_user_agent\"'", "nginx:'$bogus'", "apache:'%h %t'")),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(20)));
        return Combinators.combine(lines(), encoding, contentType, format).as((text, enc, type, fmt) -> {
            byte[] body = switch (enc) {
                case "gzip", "x-gzip" -> gzip(text);
                case "gzip-cut" -> Arrays.copyOf(gzip(text), gzip(text).length / 2);
                default -> text;
            };
            String header = switch (enc) {
                case "" -> null;
                case "gzip-cut", "gzip-claimed" -> "gzip";
                default -> enc;
            };
            return new Batch(body, header, type.equals("none") ? null : type, fmt.isEmpty() ? null : fmt);
        });
    }

    /** A body of up to 40 lines, each good, mutated and cut, or garbage; sometimes one JSON array, sometimes very long. */
    private static Arbitrary<byte[]> lines() {
        Arbitrary<byte[]> good = Arbitraries.integers().between(1, 5_000).map(i -> SampleLogs.line(i).getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> json = Arbitraries.of(SampleLogs.NGINX_JSON, SampleLogs.CADDY, SampleLogs.TRAEFIK)
                .map(line -> (line + "\n").getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> mutated = FuzzLines.chunkMutationsOf(SampleLogs.line(7).strip(), SampleLogs.line(3).strip(), SampleLogs.NGINX_JSON,
                SampleLogs.IIS_LINE, SampleLogs.CADDY);
        Arbitrary<byte[]> garbage = Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
        Arbitrary<byte[]> directive = Arbitraries.of(SampleLogs.IIS_HEADER, "#Fields: date time\n", "#Fields:\n", "[\n", "]\n", "[{\"a\":1},\n")
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> line = Arbitraries.frequencyOf(Tuple.of(4, good), Tuple.of(2, json), Tuple.of(3, mutated), Tuple.of(1, garbage),
                Tuple.of(1, directive));
        Arbitrary<byte[]> several = line.list().ofMaxSize(40).map(LogDrainFuzzTest::concat);
        Arbitrary<byte[]> array = json.list().ofMinSize(1).ofMaxSize(10).flatMap(records -> Arbitraries.integers().between(0, 100).map(cut -> {
            String joined = "[" + String.join(",", records.stream().map(r -> new String(r, StandardCharsets.UTF_8).strip()).toList()) + "]";
            return joined.substring(0, Math.max(0, joined.length() * cut / 100)).getBytes(StandardCharsets.UTF_8);
        }));
        Arbitrary<byte[]> large = good.map(l -> concat(java.util.Collections.nCopies(1_000, l)));
        return Arbitraries.frequencyOf(Tuple.of(8, several), Tuple.of(2, array), Tuple.of(1, large));
    }

    private static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }
}
