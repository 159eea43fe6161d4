package dev.crawlerrors.store;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link UrlPattern} as the tests an engine's SQL makes of a hit's path: one RE2 expression of
 * the whole path, and tests of single segments. Worked out here once for every engine, each of
 * which only writes them in its own functions, so every engine answers as {@link UrlPattern#matches}.
 *
 * @param nothing    whether no path has the shape ({@link UrlPattern#matchesNothing}): the engine's false
 * @param target     the whole path a shape that is not rooted must be; null for a rooted one
 * @param expression the path's shape, to match the whole path, without anchors
 * @param segments   the tests of single segments, in the order of the path
 */
public record UrlPatternMatch(boolean nothing, String target, String expression, List<SegmentTest> segments) {

    /** RE2 for a segment that is a number. */
    public static final String NUMBER = "[0-9]+";
    /** RE2 for a segment that is a single letter. */
    public static final String LETTER = "[A-Za-z]";

    public UrlPatternMatch {
        segments = List.copyOf(segments);
    }

    /** What a segment must be, or must not be. */
    public enum Test { IS, NOT_IN, NOT_NUMBER, NOT_LETTER }

    /**
     * One segment's test.
     *
     * @param index the segment's place as the engines count the parts of the path split at {@code /}:
     *              2 for the first ({@code split_part} and {@code splitByChar} count from 1, and the
     *              path's leading slash leaves an empty part first)
     * @param words for {@link Test#IS} the one word, for {@link Test#NOT_IN} the words (sorted)
     */
    public record SegmentTest(int index, Test test, List<String> words) {

        public SegmentTest {
            words = List.copyOf(words);
        }
    }

    /**
     * The tests of {@code pattern}.
     *
     * @param literalsInExpression whether a word the path must have is written into the expression
     *                             (every character but a letter or digit as a code point escape), or
     *                             tested on its own segment ({@link Test#IS}) so that the expression
     *                             stays ASCII whatever an engine's RE2 takes the bytes for
     */
    public static UrlPatternMatch of(UrlPattern pattern, boolean literalsInExpression) {
        if (pattern.matchesNothing()) {
            // its expression would take /a/ for a and an empty segment (see UrlPattern.matchesNothing)
            return new UrlPatternMatch(true, null, null, List.of());
        }
        if (!pattern.rooted()) {
            return new UrlPatternMatch(false, pattern.segments().get(0).literal(), null, List.of());
        }
        List<SegmentTest> tests = new ArrayList<>();
        StringBuilder regex = new StringBuilder("/");
        List<UrlPattern.Segment> segments = pattern.segments();
        for (int i = 0; i < segments.size(); i++) {
            UrlPattern.Segment segment = segments.get(i);
            boolean last = i == segments.size() - 1;
            int index = i + 2;
            if (i > 0) {
                regex.append('/');
            }
            regex.append(switch (segment.kind()) {
                case LITERAL -> literalsInExpression ? quote(segment.literal()) : "[^/]*";
                case NUMBER -> NUMBER;
                case LETTER -> LETTER;
                // a path without a trailing slash never ends in an empty segment
                case ANY -> last && !pattern.trailingSlash() ? "[^/]+" : "[^/]*";
            });
            if (segment.kind() == UrlPattern.Kind.LITERAL && !literalsInExpression) {
                tests.add(new SegmentTest(index, Test.IS, List.of(segment.literal())));
            }
            if (segment.kind() == UrlPattern.Kind.ANY) {
                if (!segment.except().isEmpty()) {
                    tests.add(new SegmentTest(index, Test.NOT_IN, segment.except().stream().sorted().toList()));
                }
                if (segment.exceptNumbers()) {
                    tests.add(new SegmentTest(index, Test.NOT_NUMBER, List.of()));
                }
                if (segment.exceptLetters()) {
                    tests.add(new SegmentTest(index, Test.NOT_LETTER, List.of()));
                }
            }
        }
        if (pattern.trailingSlash() && !segments.isEmpty()) {
            regex.append('/');
        }
        return new UrlPatternMatch(false, null, regex.toString(), tests);
    }

    /** {@code text} matched as written: every character but a letter or digit as a code point escape. */
    private static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() * 2);
        text.codePoints().forEach(c -> {
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                out.appendCodePoint(c);
            } else {
                out.append("\\x{").append(Integer.toHexString(c)).append('}');
            }
        });
        return out.toString();
    }
}
