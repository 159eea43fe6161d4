package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlPattern.Kind;
import dev.crawlerrors.store.UrlPattern.Segment;
import java.util.ArrayList;
import java.util.List;

/** A shape as text ({@code /{city}/straten/{letter}}): read from a link or an option, and checked. */
public final class PatternText {

    static final String NUMBER = "{n}";
    static final String LETTER = "{letter}";
    private static final int MAX_LENGTH = 2_000;

    private PatternText() {
    }

    /**
     * The segments of a shape's text, each a word or a {@code {name}}.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static List<String> segments(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a URL pattern is at most " + MAX_LENGTH + " characters long; got " + text.length());
        }
        if (!text.startsWith("/")) {
            throw new IllegalArgumentException("a URL pattern is a path such as /{city}/{street}, starting with '/'; got '" + text + "'");
        }
        String inner = text.length() > 1 && text.endsWith("/") ? text.substring(1, text.length() - 1) : text.substring(1);
        List<String> segments = new ArrayList<>();
        if (text.length() > 1) {
            for (String segment : inner.split("/", -1)) {
                if (segment.indexOf('{') >= 0 || segment.indexOf('}') >= 0) {
                    if (!isPlaceholder(segment)) {
                        throw new IllegalArgumentException("a placeholder in a URL pattern is a whole segment such as {city}, a name of"
                                + " letters, digits and _ in braces; got '" + segment + "' in '" + text + "'");
                    }
                }
                segments.add(segment);
            }
        }
        return segments;
    }

    static boolean isPlaceholder(String segment) {
        if (segment.length() < 3 || segment.charAt(0) != '{' || segment.charAt(segment.length() - 1) != '}') {
            return false;
        }
        for (int i = 1; i < segment.length() - 1; i++) {
            char c = segment.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /**
     * The paths a shape's text stands for when it is not one the patterns page found: its words as
     * written, {@code {n}} a number, {@code {letter}} a letter, any other placeholder any segment.
     *
     * @throws IllegalArgumentException saying what is wrong with the text
     */
    public static UrlPattern structural(String text) {
        List<Segment> segments = new ArrayList<>();
        for (String segment : segments(text)) {
            segments.add(switch (segment) {
                case NUMBER -> Segment.of(Kind.NUMBER);
                case LETTER -> Segment.of(Kind.LETTER);
                default -> isPlaceholder(segment) ? Segment.of(Kind.ANY) : Segment.literal(segment);
            });
        }
        return new UrlPattern(true, segments, text.length() > 1 && text.endsWith("/") || text.equals("/"));
    }
}
