package dev.crawlerrors.web;

/** What the HTML error page shows. */
public record ErrorView(int status, String message) {
}
