package dev.crawlerrors.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Benchmark data for issue 32: a sitemap index of FILES child sitemaps listing URLS URLs in all,
 * every other child gzipped, written to DIR as {@code sitemap-index.xml} and {@code sitemap-NN.xml[.gz]}; the
 * index lists the children at BASE (an index may only list HTTP(S) URLs: serve DIR there).
 *
 * <pre>
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.SitemapBenchSet URLS FILES DIR BASE [LOG_URLS]
 * </pre>
 *
 * The URLs are {@link UrlBenchLog#path}'s, numbered from LOG_URLS / 2 (default 500,000): the
 * sitemap lists half of a {@code UrlBenchLog} of LOG_URLS URLs and URLs its log never fetches,
 * so both {@code in_sitemap=yes} and {@code =no} have rows. Deterministic.
 */
public final class SitemapBenchSet {

    private static final String SITE = "https://www.example.be";

    private SitemapBenchSet() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 4 || args.length > 5) {
            System.err.println("usage: SitemapBenchSet URLS FILES DIR BASE [LOG_URLS]");
            System.exit(2);
        }
        int urls = Integer.parseInt(args[0]);
        int files = Integer.parseInt(args[1]);
        Path dir = Path.of(args[2]);
        String base = args[3].endsWith("/") ? args[3] : args[3] + "/";
        int first = (args.length == 5 ? Integer.parseInt(args[4]) : 1_000_000) / 2;
        Files.createDirectories(dir);
        StringBuilder index = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        long bytes = 0;
        for (int file = 0; file < files; file++) {
            int from = first + (int) ((long) urls * file / files);
            int to = first + (int) ((long) urls * (file + 1) / files);
            String name = String.format("sitemap-%02d.xml%s", file, file % 2 == 1 ? ".gz" : "");
            writeChild(dir.resolve(name), from, to, file % 2 == 1);
            bytes += Files.size(dir.resolve(name));
            index.append("  <sitemap><loc>").append(base).append(name)
                    .append("</loc></sitemap>\n");
        }
        index.append("</sitemapindex>\n");
        Files.writeString(dir.resolve("sitemap-index.xml"), index, StandardCharsets.UTF_8);
        System.err.println(urls + " URLs in " + files + " sitemaps (" + (files / 2) + " gzipped), " + (bytes >> 20)
                + " MiB on disk, URL numbers " + first + " to " + (first + urls - 1));
    }

    private static void writeChild(Path file, int from, int to, boolean gzip) throws IOException {
        try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                OutputStream out = gzip ? new GZIPOutputStream(raw, 1 << 16) : raw;
                Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            writer.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
            for (int n = from; n < to; n++) {
                writer.write("  <url><loc>" + SITE + UrlBenchLog.path(n) + "</loc><lastmod>2026-10-"
                        + (10 + n % 20) + "</lastmod></url>\n");
            }
            writer.write("</urlset>\n");
        }
    }
}
