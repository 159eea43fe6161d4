package dev.crawlerrors.web;

/** What the HTML error page shows: the status, what went wrong, and where to go instead. */
public record ErrorView(int status, String message, String link, String linkText) {

    public ErrorView(int status, String message) {
        this(status, message, ReportLinks.HTML_PATH, "Back to page 1");
    }
}
