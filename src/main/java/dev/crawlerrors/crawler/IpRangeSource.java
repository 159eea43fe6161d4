package dev.crawlerrors.crawler;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where published IP lists are read from: the operators' official addresses (the default), a
 * directory holding the lists under their published file names, or a base URL they are served
 * under (both for air-gapped servers and tests; {@code --ip-ranges DIR|URL}).
 */
public final class IpRangeSource {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final Path directory;
    private final String baseUrl;
    private final Clock clock;
    private HttpClient http;

    private IpRangeSource(Path directory, String baseUrl, Clock clock) {
        this.directory = directory;
        this.baseUrl = baseUrl;
        this.clock = clock;
    }

    /** The operators' official addresses, as the catalog gives them. */
    public static IpRangeSource official() {
        return new IpRangeSource(null, null, Clock.systemUTC());
    }

    /**
     * {@code --ip-ranges}: an {@code http(s)://} base URL or a directory; null means official.
     *
     * @throws IllegalArgumentException when the value is neither a URL nor an existing directory
     */
    public static IpRangeSource parse(String value) {
        if (value == null || value.isBlank()) {
            return official();
        }
        if (value.startsWith("http://") || value.startsWith("https://")) {
            return new IpRangeSource(null, value.endsWith("/") ? value : value + "/", Clock.systemUTC());
        }
        Path dir = Path.of(value);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--ip-ranges: '" + value + "' is neither an http(s) URL nor a directory");
        }
        return new IpRangeSource(dir, null, Clock.systemUTC());
    }

    /**
     * Reads one list.
     *
     * @throws IOException with one sentence saying where it looked and what went wrong
     */
    public IpRangeList load(IpListSpec spec) throws IOException {
        if (directory != null) {
            List<String> names = new ArrayList<>();
            names.add(spec.name());
            names.addAll(spec.aliases());
            for (String name : names) {
                Path file = directory.resolve(name);
                if (Files.isRegularFile(file)) {
                    return IpRangeList.parse(spec.name(), Files.readAllBytes(file), clock.instant(), file.toString());
                }
            }
            throw new IOException("there is no " + spec.name() + " in " + directory);
        }
        String url = baseUrl != null ? baseUrl + spec.name() : spec.url();
        return IpRangeList.parse(spec.name(), fetch(url), clock.instant(), url);
    }

    /** Where lists come from, for messages. */
    public String describe() {
        if (directory != null) {
            return directory.toString();
        }
        return baseUrl != null ? baseUrl : "the operators' official addresses";
    }

    private byte[] fetch(String url) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT).GET().build();
        try {
            HttpResponse<byte[]> response = client().send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IOException(url + " answered HTTP " + response.statusCode());
            }
            return response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching " + url);
        } catch (IOException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new IOException(url.equals(why) || why.startsWith(url) ? why : url + " could not be fetched: " + why);
        }
    }

    private synchronized HttpClient client() {
        if (http == null) {
            http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL).build();
        }
        return http;
    }
}
