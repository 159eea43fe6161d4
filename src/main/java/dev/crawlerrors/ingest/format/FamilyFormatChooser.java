package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;

/**
 * Detects the format of an import's logs once per family: the format detected in one log is tried
 * on the first lines of the next, and kept when it reads every one of them; only a log it does not
 * read is detected afresh (and said so, as the first was). CloudFront writes thousands of small
 * files a day, IIS one a day, all in one format: detecting each of 5,000 files tried every format on
 * each and said so 5,000 times.
 *
 * <p>The check reads what detection would have chosen: of the formats that read every line, the
 * one detected is the one that read the family's first log, and a log whose first lines it reads
 * throughout is in that format (a log that changes format later is read as any log is, its lines
 * in another format read in that one).
 */
public final class FamilyFormatChooser implements FormatChooser {

    /** Lines a log's format is checked on: more than a W3C log's header, a few requests. */
    static final int CHECK_LINES = 6;
    private static final int CHECK_BYTES = 16 * 1024;
    /** Keeps no line: the check needs to know a line reads, not its hit (making its strings was half of the check). */
    private static final AgentFilter NO_AGENT = (line, from, to) -> false;

    private final FormatChooser detector;
    /** The parser of the last format detected, which the next log is checked against. */
    private LineParser remembered;
    /**
     * A copy of its format's parser, which checks the logs (a copy per log was most of a small log's
     * time: a combined parser builds its tables); a sequential one (W3C) is copied for each log,
     * which its directives set up.
     */
    private LineParser checker;

    public FamilyFormatChooser(FormatChooser detector) {
        this.detector = detector;
    }

    @Override
    public boolean detects() {
        return detector.detects();
    }

    @Override
    public Choice choose(InputStream in, String source) throws UnrecognizedFormatException {
        LineParser known = remembered;
        InputStream rest = in;
        if (known != null) {
            Head head = Head.read(in);
            rest = head.replay(in);
            if (head.readsEveryLine(checker.sequential() ? checker.copy() : checker)) {
                return new Choice(known, rest); // the reader copies it where it must (a parser per thread, or per log)
            }
        }
        Choice choice = detector.choose(rest, source);
        remembered = choice.parser();
        checker = (remembered instanceof FallbackLineParser fallback ? fallback.primary() : remembered).copy();
        return choice;
    }

    /** The first lines of a log, held to be checked and then read again. */
    private static final class Head {
        byte[] bytes = new byte[2048]; // six access-log lines, mostly
        int length;
        IOException error;

        static Head read(InputStream in) {
            Head head = new Head();
            try {
                int n;
                while (head.length < CHECK_BYTES && lines(head.bytes, head.length) < CHECK_LINES) {
                    if (head.length == head.bytes.length) {
                        head.bytes = Arrays.copyOf(head.bytes, Math.min(CHECK_BYTES, head.bytes.length * 2));
                    }
                    if ((n = in.read(head.bytes, head.length, head.bytes.length - head.length)) <= 0) {
                        break;
                    }
                    head.length += n;
                }
            } catch (IOException e) {
                head.error = e;
            }
            return head;
        }

        private static int lines(byte[] b, int length) {
            int count = 0;
            for (int at = ByteSearch.indexOf(b, 0, length, (byte) '\n'); at >= 0; at = ByteSearch.indexOf(b, at + 1, length, (byte) '\n')) {
                count++;
            }
            return count;
        }

        /** Whether {@code parser} reads each of the first complete lines, a request among them. */
        boolean readsEveryLine(LineParser parser) {
            int start = 0;
            int lines = 0;
            boolean request = false;
            while (lines < CHECK_LINES) {
                int nl = ByteSearch.indexOf(bytes, start, length, (byte) '\n');
                if (nl < 0) {
                    break;
                }
                int end = nl > start && bytes[nl - 1] == '\r' ? nl - 1 : nl;
                if (end > start) {
                    lines++;
                    try {
                        // every field is read before the agent is looked at: a line kept by no filter is checked whole
                        Hit hit = parser.parse(bytes, start, end, NO_AGENT);
                        request |= hit != null || bytes[start] != '#';
                    } catch (BadLineException | RuntimeException e) {
                        return false;
                    }
                }
                start = nl + 1;
            }
            return request;
        }

        /** The log from its first byte: these lines, then the rest (or the error that stopped them). */
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
            });
        }
    }
}
