package dev.crawlerrors.report;

/** A page past the last; the message says how many pages there are. */
public final class PageNotFoundException extends RuntimeException {

    private final int pages;

    public PageNotFoundException(int page, int pages) {
        super("page " + page + " does not exist: the report has " + pages + (pages == 1 ? " page" : " pages"));
        this.pages = pages;
    }

    public int pages() {
        return pages;
    }
}
