package dev.crawlerrors.ingest.format;

import java.io.InputStream;

/**
 * Decides each log's format from its own first lines, cheaply for a family of logs in one format:
 * the format detected in one log is kept for the next when detection would choose it again on the
 * next log's first lines ({@link LogFormat#isDetectedIn}); any other log is detected afresh (and
 * said so, as the first was). CloudFront writes thousands of small files a day, IIS one a day, all
 * in one format: detecting each of 5,000 files tried every format on each and said so 5,000 times.
 *
 * <p>A log of another family beside them, Apache's {@code other_vhosts_access.log} beside its
 * {@code access.log}, is detected as what it is, whichever is read first.
 */
public final class FamilyFormatChooser implements FormatChooser {

    /** Lines a log's format is checked on: more than a W3C log's header, a few requests. */
    static final int CHECK_LINES = 6;
    private static final int CHECK_BYTES = 16 * 1024;

    private final FormatChooser detector;
    /** The last format detected, which the next log is checked against; null before the first. */
    private LogFormat format;
    /** Its parser, as detection made it (with the formats it falls back to). */
    private LineParser parser;

    public FamilyFormatChooser(FormatChooser detector) {
        this.detector = detector;
    }

    @Override
    public boolean detects() {
        return detector.detects();
    }

    @Override
    public Choice choose(InputStream in, String source) throws UnrecognizedFormatException {
        InputStream rest = in;
        if (format != null) {
            LogHead head = LogHead.read(in, CHECK_LINES, CHECK_BYTES);
            rest = head.replay(in);
            if (format.isDetectedIn(head.bytes, head.lines(CHECK_LINES))) {
                return new Choice(parser, rest, format); // the reader copies it where it must (a parser per thread, or per log)
            }
        }
        Choice choice = detector.choose(rest, source);
        format = choice.format();
        parser = choice.parser();
        return choice;
    }
}
