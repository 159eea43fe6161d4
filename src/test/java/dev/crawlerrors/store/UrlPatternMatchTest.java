package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.UrlPattern.Kind;
import dev.crawlerrors.store.UrlPattern.Segment;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The tests every engine writes in its SQL answer as {@link UrlPattern#matches}: here read by
 * Java's regular expressions and a split at {@code /} counted as the engines count it, so the
 * shared part is checked without a store (each engine's own property test checks its SQL).
 */
class UrlPatternMatchTest {

    private static final List<String> WORDS = List.of("a", "b", "x", "7", "42", "straten", "", "x.y", "a+b", "(", "[x]", "é", "\\", "$", "%2F");

    @Property(tries = 2_000)
    void theTestsMatchWhatThePatternMatches(@ForAll("urls") String url, @ForAll("patterns") UrlPattern pattern) {
        for (boolean literalsInExpression : new boolean[] {true, false}) {
            UrlPatternMatch match = UrlPatternMatch.of(pattern, literalsInExpression);
            assertThat(matches(match, url)).as("%s on %s (words in the expression: %s)", pattern, url, literalsInExpression)
                    .isEqualTo(pattern.matches(url));
        }
    }

    @Test
    void aWordOutsideTheExpressionIsTestedOnItsSegment() {
        UrlPattern pattern = new UrlPattern(true, List.of(Segment.literal("straten"), Segment.of(Kind.LETTER),
                new Segment(Kind.ANY, null, Set.of("b", "a"), true, false)), false);
        UrlPatternMatch inside = UrlPatternMatch.of(pattern, true);
        UrlPatternMatch outside = UrlPatternMatch.of(pattern, false);

        assertThat(inside.expression()).isEqualTo("/straten/[A-Za-z]/[^/]+");
        assertThat(inside.segments()).containsExactly(new UrlPatternMatch.SegmentTest(4, UrlPatternMatch.Test.NOT_IN, List.of("a", "b")),
                new UrlPatternMatch.SegmentTest(4, UrlPatternMatch.Test.NOT_NUMBER, List.of()));
        assertThat(outside.expression()).isEqualTo("/[^/]*/[A-Za-z]/[^/]+");
        assertThat(outside.segments()).first().isEqualTo(new UrlPatternMatch.SegmentTest(2, UrlPatternMatch.Test.IS, List.of("straten")));
    }

    @Test
    void aWordIsWrittenAsCodePointsSaveLettersAndDigits() {
        UrlPattern pattern = new UrlPattern(true, List.of(Segment.literal("x.é+1")), true);

        assertThat(UrlPatternMatch.of(pattern, true).expression()).isEqualTo("/x\\x{2e}\\x{e9}\\x{2b}1/");
    }

    /** What an engine answers: the expression over the whole path, each test over its part of the path split at '/'. */
    private static boolean matches(UrlPatternMatch match, String url) {
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        if (match.nothing()) {
            return false;
        }
        if (match.target() != null) {
            return path.equals(match.target());
        }
        if (!Pattern.matches(match.expression(), path)) {
            return false;
        }
        String[] parts = path.split("/", -1);
        for (UrlPatternMatch.SegmentTest test : match.segments()) {
            String part = test.index() <= parts.length ? parts[test.index() - 1] : "";
            boolean passes = switch (test.test()) {
                case IS -> part.equals(test.words().get(0));
                case NOT_IN -> !test.words().contains(part);
                case NOT_NUMBER -> !Pattern.matches(UrlPatternMatch.NUMBER, part);
                case NOT_LETTER -> !Pattern.matches(UrlPatternMatch.LETTER, part);
            };
            if (!passes) {
                return false;
            }
        }
        return true;
    }

    @Provide
    Arbitrary<String> urls() {
        Arbitrary<String> path = Arbitraries.of(WORDS).list().ofMaxSize(4)
                .flatMap(segments -> Arbitraries.of("", "/", "?q=/a", "?").map(end -> "/" + String.join("/", segments) + end));
        return Arbitraries.oneOf(path, path, path, Arbitraries.of("*", "http://x/y", "/"));
    }

    @Provide
    Arbitrary<UrlPattern> patterns() {
        Arbitrary<Segment> segment = Arbitraries.oneOf(
                Arbitraries.of(WORDS).map(Segment::literal),
                Arbitraries.of(Kind.NUMBER, Kind.LETTER).map(Segment::of),
                Arbitraries.of(WORDS).set().ofMaxSize(3).flatMap(except -> Arbitraries.of(true, false).tuple2()
                        .map(flags -> new Segment(Kind.ANY, null, except, flags.get1(), flags.get2()))));
        Arbitrary<UrlPattern> rooted = segment.list().ofMaxSize(4).flatMap(segments -> Arbitraries.of(true, false)
                .map(slash -> new UrlPattern(true, segments, slash)));
        Arbitrary<UrlPattern> target = Arbitraries.of("*", "http://x/y").map(t -> new UrlPattern(false, List.of(Segment.literal(t)), false));
        return Arbitraries.oneOf(rooted, rooted, rooted, target);
    }
}
