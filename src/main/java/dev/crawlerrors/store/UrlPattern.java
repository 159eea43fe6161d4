package dev.crawlerrors.store;

import java.util.List;
import java.util.Set;

/**
 * The paths of one URL shape, as the patterns page finds them: a path's segments one by one, and
 * whether it ends in a slash. The query string is not part of the shape. A segment is a word that
 * must be there as written, a number, a single letter, or any segment but the words (and numbers
 * or letters) that have shapes of their own at that place, so that every path belongs to one shape.
 *
 * @param rooted   false for the odd request target that is not a path ({@code *}, an absolute URL):
 *                 then {@code segments} is one literal, the whole target
 */
public record UrlPattern(boolean rooted, List<Segment> segments, boolean trailingSlash) {

    public UrlPattern {
        segments = List.copyOf(segments);
    }

    /** What one segment of the path must be. */
    public enum Kind { LITERAL, NUMBER, LETTER, ANY }

    /**
     * One segment.
     *
     * @param literal       the word, for {@link Kind#LITERAL}
     * @param except        for {@link Kind#ANY}: words that are not this segment
     * @param exceptNumbers for {@link Kind#ANY}: whether a number is not this segment
     * @param exceptLetters for {@link Kind#ANY}: whether a single letter is not this segment
     */
    public record Segment(Kind kind, String literal, Set<String> except, boolean exceptNumbers, boolean exceptLetters) {

        public Segment {
            except = Set.copyOf(except);
        }

        public static Segment literal(String word) {
            return new Segment(Kind.LITERAL, word, Set.of(), false, false);
        }

        public static Segment of(Kind kind) {
            return new Segment(kind, null, Set.of(), false, false);
        }

        boolean matches(String segment) {
            return switch (kind) {
                case LITERAL -> segment.equals(literal);
                case NUMBER -> UrlPath.isNumber(segment);
                case LETTER -> UrlPath.isLetter(segment);
                case ANY -> !except.contains(segment) && !(exceptNumbers && UrlPath.isNumber(segment))
                        && !(exceptLetters && UrlPath.isLetter(segment));
            };
        }
    }

    /**
     * Whether no path has this shape: a rooted one without a trailing slash whose last segment
     * must be empty, or that has no segment. A path that ends so ends in a slash ({@code /} itself
     * has no segment and a trailing slash, {@link UrlPath}), so the engines' expressions, which
     * would read {@code /a/} as {@code a} and an empty segment, are not asked.
     */
    public boolean matchesNothing() {
        if (!rooted || trailingSlash) {
            return false;
        }
        if (segments.isEmpty()) {
            return true;
        }
        Segment last = segments.get(segments.size() - 1);
        return last.kind() == Kind.LITERAL && last.literal().isEmpty();
    }

    /** Whether {@code url}'s path has this shape; the engines' conditions answer as this does. */
    public boolean matches(String url) {
        UrlPath path = UrlPath.of(url);
        if (path.rooted() != rooted || path.trailingSlash() != trailingSlash || path.segments().size() != segments.size()) {
            return false;
        }
        for (int i = 0; i < segments.size(); i++) {
            if (!segments.get(i).matches(path.segments().get(i))) {
                return false;
            }
        }
        return true;
    }
}
