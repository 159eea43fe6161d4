package dev.crawlerrors.sitemap;

import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.Release;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.zip.GZIPInputStream;

/**
 * Opens one sitemap file, a local file or an HTTP(S) URL, as a bounded stream of its text:
 * gzipped content (known by its first bytes, whatever the name says) is unzipped, and both the
 * body and what it unzips to are capped ({@link SitemapLimits}). A server gets a connect timeout,
 * a read timeout between bytes and the read's deadline; anything but a 200 is refused.
 */
final class SitemapFetch {

    private final SitemapLimits limits;

    SitemapFetch(SitemapLimits limits) {
        this.limits = limits;
    }

    /** A local file's content. */
    InputStream open(Path file, String name, Instant deadline) throws SitemapRefusedException {
        try {
            InputStream in = Files.newInputStream(file);
            return unzipped(bounded(in, name, deadline), name, deadline);
        } catch (NoSuchFileException e) {
            throw new SitemapRefusedException("sitemap " + name + " cannot be read: there is no such file");
        } catch (IOException e) {
            throw new SitemapRefusedException("sitemap " + name + " cannot be read: " + Failures.message(e));
        }
    }

    /** What {@code url} answers; {@code url} must be HTTP(S) (the reader checks). */
    InputStream open(URI url, String name, Instant deadline) throws SitemapRefusedException {
        Duration left = Duration.between(Instant.now(), deadline);
        if (left.isNegative() || left.isZero()) {
            throw new SitemapRefusedException(tooSlow(name));
        }
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) url.toURL().openConnection();
            connection.setConnectTimeout(millis(min(limits.connectTimeout(), left)));
            connection.setReadTimeout(millis(min(limits.readTimeout(), left)));
            connection.setInstanceFollowRedirects(true); // to HTTP(S) only: the JDK follows no other scheme
            connection.setRequestProperty("User-Agent", Release.USER_AGENT);
            connection.setRequestProperty("Accept-Encoding", "identity");
            int status = connection.getResponseCode();
            if (status != 200) {
                throw new SitemapRefusedException("sitemap " + name + " was not read: the server answered " + status
                        + (connection.getResponseMessage() == null ? "" : " " + connection.getResponseMessage()) + ", not 200");
            }
            long length = connection.getContentLengthLong();
            if (length > limits.maxBodyBytes()) {
                throw new SitemapRefusedException(tooBig(name));
            }
            return unzipped(bounded(connection.getInputStream(), name, deadline), name, deadline);
        } catch (SitemapRefusedException e) {
            connection.disconnect();
            throw e;
        } catch (SocketTimeoutException e) {
            if (connection != null) {
                connection.disconnect();
            }
            throw new SitemapRefusedException("sitemap " + name + " was not read: the server sent nothing for "
                    + seconds(limits.readTimeout()) + " (the time allowed to connect or between bytes)");
        } catch (ConnectException | UnknownHostException e) {
            throw new SitemapRefusedException("sitemap " + name + " was not read: its server cannot be reached ("
                    + Failures.message(e) + ")");
        } catch (IOException | IllegalArgumentException e) {
            if (connection != null) {
                connection.disconnect();
            }
            throw new SitemapRefusedException("sitemap " + name + " was not read: " + Failures.message(e));
        }
    }

    private InputStream bounded(InputStream in, String name, Instant deadline) {
        return new BoundedBody(in, limits.maxBodyBytes(), deadline, tooBig(name), tooSlow(name));
    }

    /** {@code in}, unzipped when it is gzip, capped at what it may unzip to. */
    private InputStream unzipped(InputStream in, String name, Instant deadline) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in, 1 << 16);
        buffered.mark(2);
        int first = buffered.read();
        int second = buffered.read();
        buffered.reset();
        if (first != 0x1f || second != 0x8b) {
            return buffered;
        }
        return new BufferedInputStream(new BoundedBody(new GZIPInputStream(buffered, 1 << 16), limits.maxUnzippedBytes(), deadline,
                "sitemap " + name + " was cut off: it unzips to more than " + Figures.bytes(limits.maxUnzippedBytes())
                        + " (the limit of a gzipped sitemap)", tooSlow(name)), 1 << 16);
    }

    private String tooBig(String name) {
        return "sitemap " + name + " was refused: its body is larger than " + Figures.bytes(limits.maxBodyBytes())
                + " (the limit of one sitemap file)";
    }

    private String tooSlow(String name) {
        return "sitemap " + name + " was cut off: its read took longer than " + seconds(limits.deadline())
                + " (the time allowed to read a sitemap and the files it names)";
    }

    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static int millis(Duration d) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
    }
}
