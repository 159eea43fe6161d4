package dev.crawlerrors.report;

/** The report's pages: 100 rows each, numbered from 1; the last holds the remainder. */
public final class Paging {

    public static final int PAGE_SIZE = 100;

    private Paging() {
    }

    /** How many pages {@code total} rows fill; an empty report still has its page 1. */
    public static int pages(long total) {
        return (int) Math.max(1, (total + PAGE_SIZE - 1) / PAGE_SIZE);
    }

    /** Rows before page {@code page}. */
    public static long offset(int page) {
        return (long) (page - 1) * PAGE_SIZE;
    }
}
