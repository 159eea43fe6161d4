package dev.crawlerrors.sitemap;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.GZIPOutputStream;

/** A real HTTP server on loopback serving sitemaps as a site (or a broken or hostile host) would. */
public final class SitemapServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    public SitemapServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.start();
    }

    /** The server's address, {@code http://127.0.0.1:PORT}. */
    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Serves {@code body} at {@code path} with a 200. */
    public SitemapServer serve(String path, byte[] body) {
        return handle(path, exchange -> answer(exchange, 200, body));
    }

    /** Serves {@code text} at {@code path} with a 200. */
    public SitemapServer serve(String path, String text) {
        return serve(path, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Serves what {@code body} says when asked, so a test may change it between reads. */
    public SitemapServer serve(String path, java.util.function.Supplier<String> body) {
        return handle(path, exchange -> answer(exchange, 200, body.get().getBytes(StandardCharsets.UTF_8)));
    }

    public SitemapServer handle(String path, HttpHandler handler) {
        server.createContext(path, handler);
        return this;
    }

    public static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** {@code text} gzipped. */
    public static byte[] gzip(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A urlset of {@code urls}. */
    public static String urlset(String... urls) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String url : urls) {
            xml.append("  <url><loc>").append(url).append("</loc><lastmod>2025-05-01</lastmod></url>\n");
        }
        return xml.append("</urlset>\n").toString();
    }

    /** A sitemap index of {@code sitemaps}. */
    public static String index(String... sitemaps) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String sitemap : sitemaps) {
            xml.append("  <sitemap><loc>").append(sitemap).append("</loc></sitemap>\n");
        }
        return xml.append("</sitemapindex>\n").toString();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
