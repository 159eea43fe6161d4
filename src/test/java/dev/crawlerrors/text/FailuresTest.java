package dev.crawlerrors.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A failure said to the user in words, never as a Java class name. */
class FailuresTest {

    private static final String CLASS_NAME = "(?s).*\\b(java|javax|dev|com|org)\\.[a-z]+\\..*|.*Exception.*|.*Error\\b.*";

    @Test
    void aMessageIsKeptAndTheClassNamesACauseLeftInItGo() {
        assertThat(Failures.message(new IOException("disk full"))).isEqualTo("disk full");
        assertThat(Failures.message(new IOException(new IOException("disk full")))).isEqualTo("disk full");
        assertThat(Failures.message(new UncheckedIOException(new IOException("no such file: a.log")))).isEqualTo("no such file: a.log");
        assertThat(Failures.message(new CompletionException(new IllegalStateException("the store is closed"))))
                .isEqualTo("the store is closed");
    }

    @Test
    void aFailureWithNoMessageIsSaidByItsKind() {
        assertThat(Failures.message(new NullPointerException())).isEqualTo("an internal error with no message");
        assertThat(Failures.message(new IOException(new ConnectException()))).isEqualTo("connection refused");
        assertThat(Failures.message(new RuntimeException(new java.net.SocketTimeoutException()))).isEqualTo("timed out");
        assertThat(Failures.rootMessage(new IllegalStateException("starting failed", new java.io.EOFException())))
                .isEqualTo("the input ended early");
        // a kind that says more than its cause is said as itself
        assertThat(Failures.message(new ConnectException().initCause(new IOException()))).isEqualTo("connection refused");
    }

    @Test
    void aRefusedConnectionIsSaidInWords() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        HttpClient client = HttpClient.newHttpClient();
        Throwable failure = null;
        try {
            client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            failure = e;
        }
        assertThat(failure).isNotNull();
        assertThat(Failures.message(failure)).isEqualTo("connection refused");
        assertThat(Failures.message(new CompletionException(failure))).doesNotMatch(CLASS_NAME);
    }
}
