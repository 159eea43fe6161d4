package dev.crawlerrors.ingest.push;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.format.ByteSearch;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.LogFormat;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.ShownText;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log drain: {@code POST /ingest} on a port of its own, for sites whose logs are not files
 * (CDNs, serverless platforms, log shippers). Each request is one batch of log lines: NDJSON
 * ({@code application/x-ndjson} or {@code application/json}: nginx {@code escape=json}, Caddy,
 * Traefik; or one JSON array of such records, as Fluent Bit's http output sends them) or text
 * lines in the format {@code ?format=} names (the names of {@code --format});
 * without one, in serve's {@code --format}, by default detected per batch; {@code Content-Encoding: gzip} is read. A form
 * content type is text lines too: curl sends {@code --data-binary @access.log} so, unencoded. The sender is
 * told what its batch came to only once the batch is stored ({@link LineBatchSink}): a 200 means
 * the hits are in the report; a 4xx that nothing of the batch was stored.
 *
 * <p>Every request needs {@code Authorization: Bearer <token>}; the token is compared in constant
 * time. A batch is at most {@link #MAX_BATCH_BYTES} as sent and as decompressed (413 above). The
 * report's server has no such path: the report stays read-only.
 *
 * <p>Refusals are typed ({@link Refusal}) and mapped to their status and JSON body in one place.
 */
public final class LogDrainServer implements AutoCloseable {

    public static final String PATH = "/ingest";
    /** The largest batch, as sent and decompressed: large enough for any shipper's batch, small enough to read at once. */
    public static final long MAX_BATCH_BYTES = 64L << 20;
    /** How batches are named in bad lines. */
    static final String SOURCE = "drain";

    private static final Logger LOG = LoggerFactory.getLogger(LogDrainServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALLOWED = "POST";
    /** The type curl gives a body sent with --data-binary or -d unless told another. */
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final List<HandlerType> OTHER_METHODS = List.of(HandlerType.GET, HandlerType.HEAD, HandlerType.PUT,
            HandlerType.PATCH, HandlerType.DELETE, HandlerType.OPTIONS);

    private final Javalin app;
    private final byte[] tokenDigest;
    private final LineBatchSink sink;
    private final FormatChooser defaultFormats;
    private final long maxBatchBytes;

    /** A request refused with {@code status}; {@code details} go into the JSON body, {@code headers} onto the response. */
    static final class Refusal extends RuntimeException {
        final int status;
        final Map<String, Object> details;
        final Map<String, String> headers;

        Refusal(int status, String message, Map<String, Object> details, Map<String, String> headers) {
            super(message, null, false, false);
            this.status = status;
            this.details = details;
            this.headers = headers;
        }

        Refusal(int status, String message) {
            this(status, message, Map.of(), Map.of());
        }
    }

    private LogDrainServer(String token, FormatChooser defaultFormats, LineBatchSink sink, long maxBatchBytes) {
        this.tokenDigest = sha256(token);
        this.defaultFormats = defaultFormats;
        this.sink = sink;
        this.maxBatchBytes = maxBatchBytes;
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.http.compressionStrategy = CompressionStrategy.NONE; // answers are a few hundred bytes
            config.routes.post(PATH, this::ingest);
            for (HandlerType method : OTHER_METHODS) {
                config.routes.addHttpHandler(method, PATH, ctx -> {
                    throw new Refusal(405, ctx.method().name() + " is not allowed on " + PATH + "; send log lines with "
                            + ALLOWED, Map.of(), Map.of("Allow", ALLOWED));
                });
            }
            config.routes.exception(Refusal.class, (e, ctx) -> {
                discardRest(ctx);
                answer(ctx, e);
            });
            config.routes.exception(Exception.class, (e, ctx) -> {
                // the failure's text may quote what a sender sent: the log gets it escaped, the trace only at debug
                LOG.error("{} {} failed: {}", ctx.method(), ShownText.of(ctx.path()), ShownText.of(Failures.message(e)));
                LOG.debug("{} {} failed", ctx.method(), ShownText.of(ctx.path()), e);
                // the store failed part way: some of the batch may be kept, so this says no more than that
                answer(ctx, new Refusal(500, "the batch could not be stored (" + Failures.message(e) + ")"));
            });
        });
    }

    /**
     * Starts the drain on {@code bind}:{@code port} (0 picks a free port).
     *
     * @param token         the bearer token senders must present
     * @param defaultFormats the format of text batches that name none ({@code serve --format}, chosen for
     *                       each batch: {@link NamedFormats#liveChooser})
     * @param sink           stores each batch
     * @throws IllegalArgumentException for an empty token
     */
    public static LogDrainServer start(String bind, int port, String token, FormatChooser defaultFormats, LineBatchSink sink) {
        return start(bind, port, token, defaultFormats, sink, MAX_BATCH_BYTES);
    }

    /** Starts the drain with another batch limit (tests). */
    public static LogDrainServer start(String bind, int port, String token, FormatChooser defaultFormats, LineBatchSink sink,
            long maxBatchBytes) {
        if (token == null || token.isEmpty()) {
            throw new IllegalArgumentException("the log drain needs a token");
        }
        LogDrainServer server = new LogDrainServer(token, defaultFormats, sink, maxBatchBytes);
        server.app.start(bind, port);
        return server;
    }

    public int port() {
        return app.port();
    }

    private void ingest(Context ctx) throws IOException {
        authorize(ctx.header("Authorization"));
        String format = namedFormat(ctx);
        FormatChooser formats = formats(format);
        // JSON records may come as one array
        boolean json = LogFormat.JSON.label().equals(format);
        PushedBatch batch;
        boolean newline;
        try (NewlineSeen body = new NewlineSeen(body(ctx)); InputStream lines = json ? JsonArrayBatch.asLines(body) : body) {
            batch = sink.accept(lines, SOURCE, formats);
            newline = body.seen;
        } catch (BoundedInputStream.TooLargeException e) {
            throw tooLarge(e.getMessage());
        } catch (JsonArrayBatch.MalformedArrayException e) {
            throw new Refusal(400, e.getMessage() + "; its records cannot be told apart, so nothing of it was stored: send it again "
                    + "as a well-formed array or as JSON lines");
        } catch (ZipException | EOFException e) {
            throw new Refusal(400, "the gzip body is damaged or cut short (" + e.getMessage() + "); nothing of it was stored, send it again");
        } catch (IOException e) {
            throw new Refusal(400, "the body could not be read to its end (" + e.getMessage() + "); nothing of it was stored, send it again");
        }
        Map<String, Object> summary = summary(batch);
        ParseCounts counts = batch.counts();
        // curl sends a file posted with --data-binary as a form, but unencoded: its bytes are the log's lines as they
        // are. Only -d spoils them, dropping the file's newlines, and that shows as a body without one that does not parse
        if (!newline && FORM.equals(mediaType(ctx.contentType())) && counts.linesRead() > 0 && counts.linesParsed() == 0) {
            summary.put("hint", "the body holds no newline, so its records ran together into one line: curl -d drops "
                    + "the newlines of a file; send it with --data-binary @access.log, which keeps them");
        }
        ctx.contentType("application/json").result(JSON.writeValueAsString(summary));
    }

    private void authorize(String authorization) {
        String scheme = "Bearer ";
        if (authorization == null || authorization.length() < scheme.length()
                || !authorization.regionMatches(true, 0, scheme, 0, scheme.length())) {
            throw new Refusal(401, "a bearer token is required: send Authorization: Bearer <the token in --ingest-token-file>",
                    Map.of(), Map.of("WWW-Authenticate", "Bearer realm=\"crawl-errors\""));
        }
        // digests of equal length, compared in constant time: neither the token nor its length leaks
        if (!MessageDigest.isEqual(tokenDigest, sha256(authorization.substring(scheme.length()).strip()))) {
            throw new Refusal(401, "the bearer token is not the one in --ingest-token-file", Map.of(),
                    Map.of("WWW-Authenticate", "Bearer realm=\"crawl-errors\", error=\"invalid_token\""));
        }
    }

    /**
     * The format the batch names: {@code ?format=}, else JSON lines for a JSON content type; null
     * for serve's {@code --format}.
     */
    private static String namedFormat(Context ctx) {
        String type = mediaType(ctx.contentType());
        if (type.startsWith("multipart/")) {
            throw new Refusal(415, "the body is sent as " + type + ", which is not log lines: send the lines as they are, "
                    + "as text/plain or application/x-ndjson (with curl: --data-binary @access.log, not -F)");
        }
        String format = ctx.queryParam("format");
        if (format != null && !format.isBlank()) {
            return format.strip();
        }
        return type.equals("application/x-ndjson") || type.equals("application/json") ? LogFormat.JSON.label() : null;
    }

    /** The chooser for a batch in {@code format} ({@link #namedFormat}). */
    private FormatChooser formats(String format) {
        if (format == null) {
            return defaultFormats;
        }
        try {
            return NamedFormats.liveChooser(format, notice -> { });
        } catch (IllegalArgumentException e) {
            throw new Refusal(400, "format: " + e.getMessage(), Map.of("parameter", "format"), Map.of());
        }
    }

    /** The body, decompressed, each way bounded. */
    private InputStream body(Context ctx) throws IOException {
        String length = ctx.header("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.strip()) > maxBatchBytes) {
                    throw tooLarge("the body is " + length.strip() + " bytes, more than " + BoundedInputStream.size(maxBatchBytes));
                }
            } catch (NumberFormatException e) {
                throw new Refusal(400, "Content-Length: '" + length + "' is not a number");
            }
        }
        InputStream body = new BoundedInputStream(ctx.bodyInputStream(), maxBatchBytes, "the body");
        String encoding = ctx.header("Content-Encoding");
        if (encoding == null || encoding.isBlank() || encoding.strip().equalsIgnoreCase("identity")) {
            return body;
        }
        if (encoding.strip().equalsIgnoreCase("gzip") || encoding.strip().equalsIgnoreCase("x-gzip")) {
            try {
                return new BoundedInputStream(new GZIPInputStream(body, 64 * 1024), maxBatchBytes, "the decompressed body");
            } catch (ZipException | EOFException e) {
                throw new Refusal(400, "Content-Encoding is gzip, but the body is not gzip (" + e.getMessage() + ")");
            }
        }
        throw new Refusal(415, "Content-Encoding: " + encoding + " is not read; send the body as it is or gzip-compressed",
                Map.of(), Map.of("Accept-Encoding", "gzip"));
    }

    private Refusal tooLarge(String why) {
        return new Refusal(413, why + "; send batches of at most " + BoundedInputStream.size(maxBatchBytes) + " (of log lines, decompressed)");
    }

    private static Map<String, Object> summary(PushedBatch batch) {
        ParseCounts counts = batch.counts();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("lines", counts.linesRead());
        summary.put("parsed", counts.linesParsed());
        summary.put("bad", counts.badByReason());
        summary.put("crawlerHits", batch.crawlerHits());
        List<Map<String, Object>> firstBad = new ArrayList<>();
        for (BadLine bad : counts.firstBadLines()) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("line", bad.lineNumber());
            line.put("reason", bad.reason());
            line.put("message", bad.message());
            firstBad.add(line);
        }
        summary.put("firstBad", firstBad);
        summary.put("format", batch.format());
        return summary;
    }

    /**
     * Sends a refusal. Its message is made safe to show ({@link ShownText}): it may quote what the
     * request sent (a header, {@code ?format=}), and JSON escapes C0 controls but not C1 or bidi ones,
     * which a sender reading the answer with curl would otherwise see applied.
     */
    /** A refused body's rest read and dropped before the answer, at most: a sender of more is cut off. */
    static final long DISCARDED_AT_MOST = 8L << 20;

    /**
     * Reads what is left of a refused request's body (at most {@link #DISCARDED_AT_MOST}) before it is answered: answered
     * and closed while the sender was still sending (a batch over the limit, refused by its Content-Length before a byte
     * of it was read), the sender's next write met a reset and it never read the 413 that says why (2 in 100 such
     * requests on loopback). A sender that waits for a go-ahead ({@code Expect: 100-continue}, as curl does above
     * 1 MiB) has sent nothing more, and is answered at once.
     */
    private static void discardRest(Context ctx) {
        String expect = ctx.header("Expect");
        if (expect != null && expect.strip().equalsIgnoreCase("100-continue")) {
            return;
        }
        try {
            InputStream rest = ctx.req().getInputStream();
            byte[] buffer = new byte[16 * 1024];
            long read = 0;
            for (int n; read < DISCARDED_AT_MOST && (n = rest.read(buffer)) >= 0; ) {
                read += n;
            }
        } catch (IOException | RuntimeException e) {
            // the sender went away or its body cannot be read: it is answered as well as it can be
        }
    }

    private static void answer(Context ctx, Refusal refusal) {
        refusal.headers.forEach(ctx::header);
        String message = ShownText.of(refusal.getMessage());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", refusal.status);
        body.put("error", message);
        body.putAll(refusal.details);
        ctx.status(refusal.status).contentType("application/json");
        try {
            ctx.result(JSON.writeValueAsString(body));
        } catch (IOException e) {
            ctx.result(message);
        }
    }

    private static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public void close() {
        app.stop();
    }

    /** The body, noting whether a newline passed (after the first, it looks no more). */
    private static final class NewlineSeen extends FilterInputStream {

        boolean seen;

        NewlineSeen(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            seen |= b == '\n';
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (!seen && n > 0) {
                seen = ByteSearch.indexOf(b, off, off + n, (byte) '\n') >= 0;
            }
            return n;
        }
    }
}
