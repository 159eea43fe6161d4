package dev.crawlerrors.ingest.source;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The bytes just before a position in a log, hashed: recorded with how far the log was read, they
 * tell that log from another whose first bytes ({@link Fingerprint}) are the same and which goes on
 * differently, such as two sites' logs that begin with the same 60 lines. Such a log was read from
 * the other's position, in the middle of a line, and its own lines before there were never read.
 *
 * <p>A reader keeps one of these over what it reads ({@link #advance}); what it covers is always the
 * last {@value #BYTES} bytes before the position (fewer near the start), whatever the reads were,
 * so the check of a position is the same however the log was read, in one go or line by line.
 */
public final class TailCheck {

    /** Bytes covered: dozens of access-log lines, all of which a log taken for another would have to repeat in place. */
    public static final int BYTES = 4096;
    private static final int HASH_BYTES = 16;

    private final byte[] window = new byte[BYTES];
    private int length;

    /** A check at the start of a log. */
    public TailCheck() {
    }

    /** A check at a position whose preceding bytes (at most {@value #BYTES} are kept) are {@code before}. */
    public TailCheck(byte[] before) {
        advance(before, 0, before.length);
    }

    /** Moves the position on over {@code b[from, to)}. */
    public void advance(byte[] b, int from, int to) {
        int n = to - from;
        if (n >= BYTES) {
            System.arraycopy(b, to - BYTES, window, 0, BYTES);
            length = BYTES;
            return;
        }
        int keep = Math.min(length, BYTES - n);
        System.arraycopy(window, length - keep, window, 0, keep);
        System.arraycopy(b, from, window, keep, n);
        length = keep + n;
    }

    /** The check of the position reached. */
    public String value() {
        return of(window, 0, length);
    }

    /** The bytes before the position reached (at most {@value #BYTES}). */
    public byte[] before() {
        return Arrays.copyOf(window, length);
    }

    /** The check of a position whose preceding bytes end {@code b[from, to)} (only the last {@value #BYTES} count). */
    public static String of(byte[] b, int from, int to) {
        int start = Math.max(from, to - BYTES);
        MessageDigest digest = Fingerprint.sha256();
        digest.update(b, start, to - start);
        return HexFormat.of().formatHex(digest.digest(), 0, HASH_BYTES);
    }
}
