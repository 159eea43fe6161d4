package dev.crawlerrors.ingest.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;

/**
 * The first lines of a source, held to be read twice: once to decide its format, then for real
 * ({@link #replay}), so a source is read once even when it is standard input. Detection holds up to
 * a thousand lines ({@link FormatDetector}), the check of a family's format a few
 * ({@link FamilyFormatChooser}).
 */
final class LogHead {

    private static final int READ_BLOCK = 64 * 1024;

    byte[] bytes;
    int length;
    /** Whether reading stopped at the line or byte limit rather than at the end of the source. */
    boolean complete;
    /** An error that ended reading early; the replay raises it after these lines, where it happened. */
    private IOException error;

    private LogHead(int capacity) {
        bytes = new byte[capacity];
    }

    /** Reads {@code in} up to its {@code maxLines}-th newline or {@code maxBytes}, whichever comes first. */
    static LogHead read(InputStream in, int maxLines, int maxBytes) {
        LogHead head = new LogHead(Math.min(maxBytes, Math.max(2048, Math.min(READ_BLOCK, maxLines * 512))));
        int newlines = 0;
        try {
            while (newlines < maxLines && head.length < maxBytes) {
                if (head.length == head.bytes.length) {
                    head.bytes = Arrays.copyOf(head.bytes, Math.min(maxBytes, head.bytes.length * 2));
                }
                int n = in.read(head.bytes, head.length, Math.min(READ_BLOCK, head.bytes.length - head.length));
                if (n < 0) {
                    return head;
                }
                newlines += newlines(head.bytes, head.length, head.length + n);
                head.length += n;
            }
            head.complete = true;
        } catch (IOException e) {
            head.error = e;
        }
        return head;
    }

    /**
     * The newlines in {@code b[from, to)}, found a line at a time with {@link ByteSearch#indexOf}, which the
     * parsers use anyway: a loop of its own over every byte ran only here, a few times, and cost a
     * compilation at the start of every import.
     */
    private static int newlines(byte[] b, int from, int to) {
        int count = 0;
        for (int at = ByteSearch.indexOf(b, from, to, (byte) '\n'); at >= 0; at = ByteSearch.indexOf(b, at + 1, to, (byte) '\n')) {
            count++;
        }
        return count;
    }

    /**
     * Start and end offsets of the non-blank lines held, at most {@code max} of them, without their
     * {@code \r\n} or {@code \n}. A line cut off where reading stopped at a limit is left out (it is
     * read for real on replay); a last line without a newline (the source's end, or a read error) is in.
     */
    int[] lines(int max) {
        int[] bounds = new int[2 * max];
        int n = 0;
        int start = 0;
        while (start < length && n < max) {
            int nl = ByteSearch.indexOf(bytes, start, length, (byte) '\n');
            if (nl < 0) {
                if (complete) {
                    break;
                }
                nl = length;
            }
            int end = nl > start && bytes[nl - 1] == '\r' ? nl - 1 : nl;
            if (end > start && end - start <= LineParser.MAX_LINE_BYTES) {
                bounds[2 * n] = start;
                bounds[2 * n + 1] = end;
                n++;
            }
            start = nl + 1;
        }
        return Arrays.copyOf(bounds, 2 * n);
    }

    /** The source from its first byte: these lines, then the rest (or the error that stopped them). */
    InputStream replay(InputStream rest) {
        InputStream head = new ByteArrayInputStream(bytes, 0, length);
        if (error == null) {
            return new SequenceInputStream(head, rest);
        }
        IOException failure = error;
        return new SequenceInputStream(head, new InputStream() {
            @Override
            public int read() throws IOException {
                throw failure;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw failure;
            }
        });
    }
}
