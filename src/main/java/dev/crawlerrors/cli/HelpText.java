package dev.crawlerrors.cli;

import java.util.Map;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Help text that wraps at spaces only. picocli wraps descriptions with the JDK's line
 * {@link java.text.BreakIterator}, which breaks after a dot, a colon, a slash or a question mark:
 * {@code '/var/log/nginx/access.log*'} came out as {@code access.} at the end of one line and
 * {@code log*'} on the next, and {@code ./crawl-errors.duckdb} as {@code .} and
 * {@code /crawl-errors.duckdb}, which a user copying them gets wrong. (picocli hides the hyphen
 * from the iterator the same way.)
 *
 * <p>How: the text given to picocli carries each punctuation character as a stand-in from the
 * Unicode private use area, which the iterator treats as part of a word, and each help section is
 * rendered with them put back. The stand-in of {@code c} is {@code U+E000 + c}: one column wide,
 * like {@code c}, so the layout is the same. {@code %} stays itself (picocli formats descriptions)
 * and so does a {@code ${...}} that picocli fills in.
 */
final class HelpText {

    private static final char STAND_IN_BASE = '\uE000';

    private HelpText() {
    }

    /** {@code text} with its punctuation replaced by stand-ins that picocli's wrapping does not break at. */
    static String unbreakable(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                int close = text.indexOf('}', i);
                if (close > 0) {
                    out.append(text, i, close + 1); // a variable picocli fills in, left for it to find
                    i = close;
                    continue;
                }
            }
            out.append(isPunctuation(c) && c != '%' ? (char) (STAND_IN_BASE + c) : c);
        }
        return out.toString();
    }

    /** {@code rendered} with every stand-in put back. */
    static String restored(String rendered) {
        StringBuilder out = null;
        for (int i = 0; i < rendered.length(); i++) {
            char c = rendered.charAt(i);
            if (c > STAND_IN_BASE && c < STAND_IN_BASE + 0x80) {
                if (out == null) {
                    out = new StringBuilder(rendered);
                }
                out.setCharAt(i, (char) (c - STAND_IN_BASE));
            }
        }
        return out == null ? rendered : out.toString();
    }

    /** Has every help section of {@code spec} rendered with the stand-ins put back. */
    static void restoreIn(CommandSpec spec) {
        Map<String, IHelpSectionRenderer> sections = spec.usageMessage().sectionMap();
        sections.replaceAll((key, renderer) -> help -> restored(renderer.render(help)));
    }

    private static boolean isPunctuation(char c) {
        return c > ' ' && c < 0x7F && !Character.isLetterOrDigit(c);
    }
}
