package dev.crawlerrors.ingest;

import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the format chosen for each source, so a followed log, read a slice at a time, is detected
 * once from its first lines rather than on every poll (with a notice each time). A choice that
 * parsed none of the lines it was made from ({@link UnknownFormatParser}) is not kept: the next
 * slice is looked at afresh.
 */
public final class StickyFormat implements FormatChooser {

    private final FormatChooser chooser;
    private final Map<String, LineParser> chosen = new ConcurrentHashMap<>();

    public StickyFormat(FormatChooser chooser) {
        this.chooser = chooser;
    }

    @Override
    public Choice choose(InputStream in, String source) throws UnrecognizedFormatException {
        LineParser known = chosen.get(source);
        if (known != null) {
            return new Choice(known, in);
        }
        Choice choice = chooser.choose(in, source);
        if (!(choice.parser() instanceof UnknownFormatParser)) {
            chosen.put(source, choice.parser());
        }
        return choice;
    }
}
