package dev.crawlerrors.store;

/** A URL as its state is kept: its virtual host ({@code ""} when the log records none) and its request target. */
public record UrlKey(String host, String url) {

    public UrlKey {
        host = host == null ? "" : host;
    }
}
