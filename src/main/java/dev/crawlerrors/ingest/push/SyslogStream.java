package dev.crawlerrors.ingest.push;

import dev.crawlerrors.ingest.format.ByteSearch;
import dev.crawlerrors.ingest.format.LineParser;
import java.io.IOException;
import java.io.InputStream;

/**
 * Splits a syslog TCP stream into frames. RFC 6587 knows two framings, and senders use both:
 * octet counting ({@code 123 <190>...}: the frame's length, a space, the frame) and
 * newline-terminated frames ({@code <190>...\n}). As the RFC suggests, each frame's first byte
 * tells which: a digit starts a length, anything else a newline-terminated frame.
 *
 * <p>Frames longer than {@link #MAX_FRAME} are skipped and reported, as over-long lines are in a
 * file. A length that is not one (digits not followed by a space) is read as the start of a
 * newline-terminated frame, so a sender that writes bare lines still gets its malformed frames
 * counted rather than its connection dropped.
 */
final class SyslogStream {

    /** The longest frame read: the longest log line with room for its header. */
    static final int MAX_FRAME = LineParser.MAX_LINE_BYTES + 2048;
    /** Lengths up to 999,999,999: enough for any frame, short enough never to overflow. */
    private static final int MAX_LENGTH_DIGITS = 9;

    /** Receives what the stream holds, on the reading thread. */
    interface Frames {

        /** A frame, {@code b[from, to)}, without its framing. */
        void frame(byte[] b, int from, int to) throws InterruptedException;

        /** A frame that was not read: {@code message} says why. */
        void skipped(String message);
    }

    private final InputStream in;
    private final Frames out;
    private final byte[] buffer = new byte[2 * MAX_FRAME];
    private int start;
    private int end;

    private SyslogStream(InputStream in, Frames out) {
        this.in = in;
        this.out = out;
    }

    /** Reads {@code in} to its end, handing each frame to {@code out}. */
    static void read(InputStream in, Frames out) throws IOException, InterruptedException {
        new SyslogStream(in, out).readAll();
    }

    private void readAll() throws IOException, InterruptedException {
        while (available(1)) {
            byte first = buffer[start];
            if (first == '\n' || first == '\r' || first == 0) {
                start++; // what ended the last frame, or an empty line
            } else if (isDigit(first) && readCounted()) {
                continue;
            } else if (!readUntilNewline()) {
                return;
            }
        }
    }

    /**
     * Reads an octet-counted frame.
     *
     * @return false when the digits at {@code start} are not a length (the frame is newline-terminated)
     */
    private boolean readCounted() throws IOException, InterruptedException {
        available(MAX_LENGTH_DIGITS + 1);
        int p = start;
        long length = 0;
        while (p < end && p - start < MAX_LENGTH_DIGITS && isDigit(buffer[p])) {
            length = length * 10 + (buffer[p] - '0');
            p++;
        }
        if (p >= end || buffer[p] != ' ' || buffer[start] == '0') {
            return false;
        }
        start = p + 1;
        if (length > MAX_FRAME) {
            out.skipped("a frame of " + length + " bytes was skipped; log lines are at most " + LineParser.MAX_LINE_BYTES);
            discard(length);
            return true;
        }
        if (!available((int) length)) {
            out.skipped("the connection closed " + (end - start) + " bytes into a frame of " + length);
            start = end;
            return true;
        }
        out.frame(buffer, start, start + (int) length);
        start += (int) length;
        return true;
    }

    /** Reads a newline-terminated frame; false at the end of the stream. */
    private boolean readUntilNewline() throws IOException, InterruptedException {
        int scanned = start;
        while (true) {
            int nl = ByteSearch.indexOf(buffer, scanned, Math.min(end, start + MAX_FRAME + 1), (byte) '\n');
            if (nl >= 0) {
                out.frame(buffer, start, nl);
                start = nl + 1;
                return true;
            }
            scanned = end;
            if (end - start > MAX_FRAME) {
                out.skipped("a frame longer than " + MAX_FRAME + " bytes was skipped; log lines are at most " + LineParser.MAX_LINE_BYTES);
                return skipLine();
            }
            int before = end - start;
            if (!available(before + 1)) {
                if (end > start) {
                    out.frame(buffer, start, end); // the last frame, without its newline
                }
                start = end;
                return false;
            }
            scanned = start + before;
        }
    }

    /** Drops bytes up to and including the next newline; false at the end of the stream. */
    private boolean skipLine() throws IOException {
        while (true) {
            int nl = ByteSearch.indexOf(buffer, start, end, (byte) '\n');
            if (nl >= 0) {
                start = nl + 1;
                return true;
            }
            start = end;
            if (!available(1)) {
                return false;
            }
        }
    }

    private void discard(long bytes) throws IOException {
        while (bytes > 0) {
            if (!available(1)) {
                return;
            }
            int n = (int) Math.min(bytes, end - start);
            start += n;
            bytes -= n;
        }
    }

    /** Whether {@code n} bytes from {@code start} are in the buffer, reading more as needed; false when the stream ends first. */
    private boolean available(int n) throws IOException {
        if (end - start >= n) {
            return true;
        }
        if (start + n > buffer.length) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        while (end - start < n) {
            int read = in.read(buffer, end, buffer.length - end);
            if (read < 0) {
                return false;
            }
            end += read;
        }
        return true;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
