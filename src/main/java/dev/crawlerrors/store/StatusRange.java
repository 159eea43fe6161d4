package dev.crawlerrors.store;

/** Response statuses from {@code low} to {@code high}, both inclusive: {@code 404} is 404-404, {@code 4xx} is 400-499. */
public record StatusRange(int low, int high) {

    /** What the report counts as an error when no status is asked for. */
    public static final StatusRange ERRORS = new StatusRange(300, 999);

    /** Every status a log can hold: the error rate's denominator counts them all. */
    public static final StatusRange ANY = new StatusRange(0, 999);

    public boolean contains(int status) {
        return status >= low && status <= high;
    }
}
