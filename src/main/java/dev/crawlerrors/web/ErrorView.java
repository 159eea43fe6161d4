package dev.crawlerrors.web;

/**
 * What the HTML error page shows: the status, what went wrong, and where to go instead; and after how
 * many seconds the page asks again by itself (0: never), for an answer that says to come back
 * (503 with Retry-After: still counting, busy, the store not answering now).
 */
public record ErrorView(int status, String message, String link, String linkText, int refresh) {

    public ErrorView(int status, String message, String link, String linkText) {
        this(status, message, link, linkText, 0);
    }

    public ErrorView(int status, String message) {
        this(status, message, ReportLinks.HTML_PATH, "Back to page 1");
    }
}
