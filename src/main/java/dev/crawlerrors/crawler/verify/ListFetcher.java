package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Release;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Downloads one published list over HTTP, bounded: a body larger than {@link #MAX_BYTES} is refused
 * as soon as it passes the bound (at once, when its {@code Content-Length} says so), and the whole
 * download, headers and body, must be over within {@link #DEADLINE}, however slowly the server
 * trickles it. The request says who asks ({@link Release#USER_AGENT}) and carries the cached copy's
 * validators, so an unchanged list costs a {@code 304}.
 *
 * <p>Why a subscriber of our own: {@code BodyHandlers.ofByteArray()} holds whatever the server sends,
 * however large, and the request timeout of {@link HttpRequest} ends at the headers, so a body sent
 * a byte a second would hold {@code verify} for minutes. Cancelling the future {@link HttpClient#sendAsync} returned closes the exchange.
 */
final class ListFetcher {

    /** The largest list accepted: Google's biggest is about 100 KB, so this is eighty times that. */
    static final long MAX_BYTES = 8L << 20;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** The whole of one download, connection, headers and body. */
    static final Duration DEADLINE = Duration.ofSeconds(30);

    private final long maxBytes;
    private final Duration deadline;
    private HttpClient http;

    ListFetcher() {
        this(MAX_BYTES, DEADLINE);
    }

    /** A fetcher with other bounds (tests use small ones). */
    ListFetcher(long maxBytes, Duration deadline) {
        this.maxBytes = maxBytes;
        this.deadline = deadline;
    }

    /** What the server answered: {@code 200} with the body, or {@code 304} (only when validators were sent). */
    record Response(int status, byte[] body, String etag, String lastModified) {
    }

    /**
     * Downloads {@code url}; with {@code validators}, asks whether that copy is still current.
     *
     * @throws IOException one sentence naming the URL and what went wrong: a status other than 200
     *                     (or 304 to a conditional request), a body over the bound, the deadline, a
     *                     connection that failed
     */
    Response fetch(String url, CachedIpList validators) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(deadline).GET()
                .header("User-Agent", Release.USER_AGENT)
                .header("Accept", "application/json");
        if (validators != null) {
            if (validators.etag() != null) {
                request.header("If-None-Match", validators.etag());
            }
            if (validators.lastModified() != null) {
                request.header("If-Modified-Since", validators.lastModified());
            }
        }
        CompletableFuture<HttpResponse<byte[]>> exchange = client().sendAsync(request.build(), info -> new CappedBody(info, maxBytes));
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new IOException(url + " did not finish within " + deadline.toSeconds() + " s; the download was abandoned");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching " + url);
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof TooLarge tooLarge) {
                throw new IOException(url + " " + tooLarge.getMessage());
            }
            String why = reason(cause);
            throw new IOException(url.equals(why) || why.startsWith(url) ? why : url + " could not be fetched: " + why);
        }
        int status = response.statusCode();
        if (status != 200 && !(status == 304 && validators != null)) {
            throw new IOException(url + " answered HTTP " + status);
        }
        return new Response(status, response.body(), response.headers().firstValue("ETag").orElse(null),
                response.headers().firstValue("Last-Modified").orElse(null));
    }

    // HttpClient throws a ConnectException without a message on a refused connection, and wraps an
    // unknown host the same way, so the type is often all there is to say what happened.
    private static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "its host name does not resolve";
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return Failures.message(e);
    }

    private synchronized HttpClient client() {
        if (http == null) {
            http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL).build();
        }
        return http;
    }

    /** A body bigger than the bound. */
    private static final class TooLarge extends IOException {
        TooLarge(String message) {
            super(message);
        }
    }

    /**
     * The body, one buffer at a time, into an array that grows as it fills; given up (and the
     * exchange cancelled) the moment it passes the bound.
     */
    private static final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {

        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final long max;
        private final long declared;
        private Flow.Subscription subscription;
        private byte[] bytes = new byte[16 * 1024];
        private int length;

        CappedBody(HttpResponse.ResponseInfo info, long max) {
            this.max = max;
            this.declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (declared > max) {
                subscription.cancel();
                result.completeExceptionally(new TooLarge("declares " + declared + " bytes, more than the " + limit() + " a list may have; not downloaded"));
                return;
            }
            subscription.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                int n = buffer.remaining();
                if ((long) length + n > max) {
                    subscription.cancel();
                    result.completeExceptionally(new TooLarge("sent more than the " + limit() + " a list may have; the download was abandoned"));
                    return;
                }
                if (length + n > bytes.length) {
                    bytes = Arrays.copyOf(bytes, (int) Math.min(max, Math.max((long) bytes.length * 2, (long) length + n)));
                }
                buffer.get(bytes, length, n);
                length += n;
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            result.complete(Arrays.copyOf(bytes, length));
        }

        private String limit() {
            return max % (1 << 20) == 0 ? (max >> 20) + " MiB" : max + " bytes";
        }
    }
}
