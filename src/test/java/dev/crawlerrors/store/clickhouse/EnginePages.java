package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.web.ReportServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The URL pages of the report server over each engine, read to be compared between engines. */
final class EnginePages {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private EnginePages() {
    }

    /** The body of {@code path}, once the URL states are up to date (a 503 says to come back, at most 20 times). */
    static String raw(ReportServer server, String path) throws Exception {
        for (int attempt = 0; ; attempt++) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 503 && attempt < 20) {
                Thread.sleep(250); // the states were being brought up to date: the page says to come back
                continue;
            }
            assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
            return response.body();
        }
    }

    /** A page with the snapshot it was read at and the hits' ids (the engines number hits their own way) left out. */
    static String page(ReportServer server, String path) throws Exception {
        return raw(server, path).replaceAll("\"at\":\"[0-9]+\\.[0-9]+\"", "\"at\":\"\"").replaceAll("at=[0-9]+\\.[0-9]+", "at=")
                .replaceAll("\"id\":[0-9]+", "\"id\":0");
    }

    /** The URLs the URLs page lists for {@code query}, in its order. */
    static List<String> urls(ReportServer server, String query) throws Exception {
        JsonNode rows = JSON.readTree(raw(server, "/api/crawl-errors/urls" + query)).get("rows");
        List<String> urls = new ArrayList<>();
        rows.forEach(row -> urls.add(row.get("url").asText()));
        return urls;
    }

    /** The URLs page's row of {@code url} for {@code query}. */
    static JsonNode row(ReportServer server, String query, String url) throws Exception {
        for (JsonNode row : JSON.readTree(raw(server, "/api/crawl-errors/urls" + query)).get("rows")) {
            if (row.get("url").asText().equals(url)) {
                return row;
            }
        }
        throw new AssertionError(url + " is not listed by " + query);
    }
}
