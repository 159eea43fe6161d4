package dev.crawlerrors.crawler.signature;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A signer's key directory served over HTTPS on 127.0.0.1 with the test certificate
 * ({@code signatures/loopback.p12}), which {@link #clientTls()} alone trusts. What it answers can be
 * changed between requests; {@link #down()} stops it (connections refused) and {@link #up()}
 * starts it again on the same port.
 */
public final class LoopbackDirectory implements AutoCloseable {

    private static final char[] PASSWORD = "changeit".toCharArray();

    private volatile HttpHandler handler;
    private final AtomicInteger requests = new AtomicInteger();
    private HttpsServer server;
    private int port;

    private LoopbackDirectory() {
    }

    /** A directory serving {@code body} as a JWK set. */
    public static LoopbackDirectory serving(String body) throws IOException {
        LoopbackDirectory directory = new LoopbackDirectory();
        directory.serve(body);
        directory.port = 0;
        directory.up();
        return directory;
    }

    /** Answers {@code body} from now on. */
    public void serve(String body) {
        handle(exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/http-message-signatures-directory+json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
    }

    /** Answers as {@code handler} does from now on. */
    public void handle(HttpHandler handler) {
        this.handler = handler;
    }

    public String origin() {
        return "https://127.0.0.1:" + port;
    }

    /** {@code 127.0.0.1:PORT}, as an allow-list names it. */
    public String authority() {
        return "127.0.0.1:" + port;
    }

    public Set<String> allowed() {
        return Set.of(authority());
    }

    public int requests() {
        return requests.get();
    }

    /** Stops answering: connections are refused. */
    public void down() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    /** Answers again, on the same port. */
    public void up() throws IOException {
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverTls()));
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            try {
                handler.handle(exchange);
            } finally {
                exchange.close();
            }
        });
        server.start();
        port = server.getAddress().getPort();
    }

    @Override
    public void close() {
        down();
    }

    /** A client context that trusts the test certificate alone. */
    public static SSLContext clientTls() {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(keyStore());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static SSLContext serverTls() {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore(), PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore keyStore() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = LoopbackDirectory.class.getResourceAsStream("/signatures/loopback.p12")) {
            store.load(in, PASSWORD);
        }
        return store;
    }

    /** Sends a status with no body. */
    public static void status(HttpExchange exchange, int status, String location) throws IOException {
        if (location != null) {
            exchange.getResponseHeaders().set("Location", location);
        }
        exchange.sendResponseHeaders(status, -1);
    }
}
