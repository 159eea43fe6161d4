package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.ReadStoppedException;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreUnavailableException;
import dev.crawlerrors.text.Futures;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * ClickHouse's HTTP interface, which every version speaks (18.16 included, which the official Java
 * client cannot read from): a query is POSTed as the body and answered as TabSeparated text; an
 * INSERT names its table and format in the URL and sends its rows as the body. Compression is off.
 * Reads ask for {@code wait_end_of_query=1}, so a query that fails half-way is an error status,
 * never a 200 with the error appended to partial rows. The user logs in with HTTP Basic auth.
 */
final class ClickHouseHttp {

    private static final Duration CONNECT = Duration.ofSeconds(5);
    /** A read: a query's own limit (max_execution_time) and some seconds to send its answer. */
    private static final Duration READ = Duration.ofSeconds(ClickHouseSettings.QUERY_SECONDS + 30);
    /** An insert of one batch, or a DDL statement. */
    private static final Duration WRITE = Duration.ofMinutes(5);
    /**
     * The longest query the server parses (its default is 256 KiB): a count of a view at a snapshot
     * writes up to three lists of claims into its SQL (the view's verdicts, and the verified and the
     * spoofed for a count by verdict), each of up to ClickHouseVerdicts' 20,000 claims of 20 digits.
     */
    static final int MAX_QUERY_BYTES = 4 << 20;

    private final HttpClient client;
    private final ClickHouseAnswerWatch watch;
    private final String authorization;
    private final ClickHouseSettings settings;
    private final String user;

    ClickHouseHttp(String user, String password, ClickHouseSettings settings) {
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT).build();
        this.watch = new ClickHouseAnswerWatch(client);
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.settings = settings;
        this.user = user;
    }

    ClickHouseSettings settings() {
        return settings;
    }

    /**
     * Runs a read on {@code server} and returns its TabSeparated answer. A connection the server
     * closed while idle (its keep-alive is shorter than the client's) is tried once more.
     */
    byte[] query(URI server, String sql) {
        String id = UUID.randomUUID().toString();
        HttpRequest request = request(readUri(server, id), READ).POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8)).build();
        try {
            try {
                return send(server, request);
            } catch (Stale stale) {
                try {
                    return send(server, request);
                } catch (Stale again) {
                    throw unreachable(server, again.getCause());
                }
            }
        } catch (StoreException e) {
            killIfInterrupted(server, id);
            throw e;
        }
    }

    /**
     * The URL of a read named {@code id}: every read is named so that one whose thread is interrupted
     * is stopped on the server too, which 18.16 does not do when its client goes.
     */
    private URI readUri(URI server, String id) {
        return URI.create(server + "/?wait_end_of_query=1&max_execution_time=" + ClickHouseSettings.QUERY_SECONDS
                + "&max_query_size=" + MAX_QUERY_BYTES + "&query_id=" + id + settings.urlParameters());
    }

    /** Stops the read named {@code id} on {@code server} when this thread was interrupted (not waited for: the thread is). */
    private void killIfInterrupted(URI server, String id) {
        if (Thread.currentThread().isInterrupted()) {
            HttpRequest kill = request(URI.create(server + "/"), READ)
                    .POST(HttpRequest.BodyPublishers.ofString("KILL QUERY WHERE query_id = '" + id + "' ASYNC", StandardCharsets.UTF_8)).build();
            client.sendAsync(kill, HttpResponse.BodyHandlers.discarding());
        }
    }

    /**
     * Runs a read on {@code server} and hands its TabSeparated answer to {@code rows} as it comes, a
     * run of whole rows at a time: what a long answer (every URL of a view) needs without holding it
     * all. The server still finishes the query before it answers ({@code wait_end_of_query}), so a
     * failure is an error, never part of an answer; only a row longer than the buffer grows it.
     */
    void queryRows(URI server, String sql, Consumer<ClickHouseTsv.Reader> rows) {
        String id = UUID.randomUUID().toString();
        HttpRequest request = request(readUri(server, id), READ).POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8)).build();
        HttpResponse<InputStream> response;
        try {
            try {
                response = open(server, request);
            } catch (Stale stale) {
                try {
                    response = open(server, request);
                } catch (Stale again) {
                    throw unreachable(server, again.getCause());
                }
            }
        } catch (StoreException e) {
            killIfInterrupted(server, id);
            throw e;
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) {
                throw failed(server, response.statusCode(), in.readAllBytes());
            }
            byte[] buffer = new byte[STREAM_BUFFER];
            int filled = 0;
            for (int n; (n = in.read(buffer, filled, buffer.length - filled)) >= 0; ) {
                filled += n;
                int rowsEnd = filled;
                while (rowsEnd > 0 && buffer[rowsEnd - 1] != '\n') {
                    rowsEnd--;
                }
                if (rowsEnd > 0) {
                    rows.accept(new ClickHouseTsv.Reader(buffer, rowsEnd));
                    System.arraycopy(buffer, rowsEnd, buffer, 0, filled - rowsEnd);
                    filled -= rowsEnd;
                } else if (filled == buffer.length) {
                    buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2); // one row longer than the buffer
                }
            }
            if (filled > 0) {
                rows.accept(new ClickHouseTsv.Reader(buffer, filled));
            }
        } catch (IOException e) {
            throw new StoreException("ClickHouse at " + server + " broke off its answer: " + e.getMessage(), e);
        }
    }

    /** The bytes read at a time from a streamed answer: rows are handed on in runs of about this much. */
    private static final int STREAM_BUFFER = 256 * 1024;

    private HttpResponse<InputStream> open(URI server, HttpRequest request) throws Stale {
        return exchange(server, request, HttpResponse.BodyHandlers.ofInputStream());
    }

    /**
     * Sends {@code request} to {@code server}: a timeout, a refused connection or a server that stops
     * answering ({@link ClickHouseAnswerWatch}) is the server being unavailable ({@link
     * StoreUnavailableException}, a 503 to readers), any other failure to talk a {@link Stale}
     * connection the caller may try once more on a fresh one.
     */
    private <T> HttpResponse<T> exchange(URI server, HttpRequest request, HttpResponse.BodyHandler<T> body) throws Stale {
        CompletableFuture<HttpResponse<T>> answer = watch.watch(server, client.sendAsync(request, body));
        Duration bound = request.timeout().orElseThrow().plus(ClickHouseAnswerWatch.PING.multipliedBy(2));
        try {
            // bounded beyond the request's own timeout too: a client that never completes it is said, not waited for
            return answer.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new StoreUnavailableException("ClickHouse at " + server + " did not answer within " + bound.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof StoreUnavailableException unavailable) {
                throw unavailable;
            }
            if (cause instanceof HttpTimeoutException) {
                throw new StoreUnavailableException("ClickHouse at " + server + " did not answer within "
                        + request.timeout().orElseThrow().toSeconds() + " s", cause);
            }
            if (cause instanceof ConnectException) {
                throw unreachable(server, cause);
            }
            if (cause instanceof IOException io) {
                throw new Stale(io);
            }
            throw new StoreException("a request to ClickHouse at " + server + " failed: " + cause, cause);
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new ReadStoppedException("a request to ClickHouse at " + server + " was stopped: its thread was interrupted", e);
        }
    }

    /** Runs a statement that returns nothing (DDL, an INSERT ... SELECT, ALTER) on {@code server}. */
    void execute(URI server, String sql) {
        URI uri = URI.create(server + "/?max_query_size=" + MAX_QUERY_BYTES + settings.urlParameters());
        HttpRequest request = request(uri, WRITE).POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8)).build();
        try {
            send(server, request);
        } catch (Stale stale) {
            throw unreachable(server, stale.getCause());
        }
    }

    /** Inserts TabSeparated {@code rows} into {@code table} ({@code db.table (columns)}) on {@code server}, asynchronously. */
    CompletableFuture<Void> insert(URI server, String table, ClickHouseTsv.Writer rows) {
        String query = "INSERT INTO " + table + " FORMAT TabSeparated";
        URI uri = URI.create(server + "/?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + settings.urlParameters());
        HttpRequest request = request(uri, WRITE)
                .POST(HttpRequest.BodyPublishers.ofByteArray(rows.bytes(), 0, rows.size())).build();
        return watch.watch(server, client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())).handle((response, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure;
                throw new CompletionException(cause instanceof StoreUnavailableException unavailable ? unavailable : unreachable(server, cause));
            }
            if (response.statusCode() != 200) {
                throw new CompletionException(failed(server, response));
            }
            return null;
        });
    }

    /** Waits for an insert; its failure as this call's. */
    static void await(CompletableFuture<Void> insert) {
        Futures.join(insert);
    }

    private HttpRequest.Builder request(URI uri, Duration timeout) {
        return HttpRequest.newBuilder(uri).timeout(timeout).header("Authorization", authorization)
                .header("Content-Type", "text/plain; charset=UTF-8");
    }

    private byte[] send(URI server, HttpRequest request) throws Stale {
        HttpResponse<byte[]> response = exchange(server, request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw failed(server, response);
        }
        return response.body();
    }

    private RuntimeException failed(URI server, HttpResponse<byte[]> response) {
        return failed(server, response.statusCode(), response.body());
    }

    private RuntimeException failed(URI server, int status, byte[] body) {
        ClickHouseException e = ClickHouseException.of(status, new String(body, StandardCharsets.UTF_8));
        if (status == 401 || status == 403 || e.code() == 192 || e.code() == 193 || e.code() == 194) {
            return new StoreException("ClickHouse at " + server + " refused user '" + user + "': " + e.getMessage()
                    + " (the user is --db-user, the password $CRAWL_ERRORS_DB_PASSWORD)", e);
        }
        return e;
    }

    private static StoreUnavailableException unreachable(URI server, Throwable cause) {
        String why = cause instanceof ConnectException ? "connection refused"
                : cause == null || cause.getMessage() == null ? String.valueOf(cause) : cause.getMessage();
        return new StoreUnavailableException("cannot reach ClickHouse at " + server + " (" + why + "): is it running, and is "
                + server.getPort() + " its HTTP port?", cause);
    }

    /** A connection that broke before an answer: the server closed it while idle, or went away. */
    private static final class Stale extends Exception {
        Stale(IOException cause) {
            super(cause);
        }
    }
}
