package dev.crawlerrors.store;

/**
 * What the store held at one moment: every hit up to {@code hits} (hits are numbered as they are
 * stored, and never change) and every verdict up to {@code verdicts} (each verdict recorded takes
 * the next number). A report read at a snapshot gives the same answer however many hits or verdict
 * changes arrive after it, so the pages of one snapshot neither repeat nor skip a row.
 *
 * @param hits     the number of the last hit it holds; 0 for none
 * @param verdicts the number of the last verdict it holds; 0 for none
 */
public record Snapshot(long hits, long verdicts) {

    public static final Snapshot EMPTY = new Snapshot(0, 0);

    public Snapshot {
        if (hits < 0 || verdicts < 0) {
            throw new IllegalArgumentException("a snapshot counts from 0: " + hits + "." + verdicts);
        }
    }

    /** The snapshot as a link carries it: {@code 1234567.89}. */
    public String token() {
        return hits + "." + verdicts;
    }

    /** The snapshot a link carried, or null when {@code token} is not one. */
    public static Snapshot parse(String token) {
        int dot = token.indexOf('.');
        if (dot <= 0 || dot == token.length() - 1 || token.length() > 40) {
            return null;
        }
        try {
            long hits = Long.parseLong(token, 0, dot, 10);
            long verdicts = Long.parseLong(token, dot + 1, token.length(), 10);
            return hits < 0 || verdicts < 0 ? null : new Snapshot(hits, verdicts);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Whether this snapshot holds everything {@code other} holds. */
    public boolean covers(Snapshot other) {
        return hits >= other.hits && verdicts >= other.verdicts;
    }
}
