package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlPattern.Kind;
import dev.crawlerrors.store.UrlPattern.Segment;
import java.util.ArrayList;
import java.util.List;

/**
 * How a shape is written: {@code /{city}/straten/{letter}/}. A number is {@code {n}}, a single
 * letter {@code {letter}}; any other placeholder takes its name from the site's own templates where
 * one names that place ({@code /{city}/{street}/{section}} names the first three), else its number
 * in the path ({@code {1}}, {@code {2}}). A template names a place when the shape agrees with it
 * before that place: the template's words are the shape's words there (its placeholders stand
 * for anything).
 */
public final class PlaceholderNames {

    /** No templates: placeholders are numbered. */
    public static final PlaceholderNames NONE = new PlaceholderNames(List.of());

    private final List<List<String>> templates;

    private PlaceholderNames(List<List<String>> templates) {
        this.templates = templates;
    }

    /**
     * The site's templates, such as {@code /{city}/{street}/{section}}.
     *
     * @throws IllegalArgumentException naming the template that is not one
     */
    public static PlaceholderNames of(List<String> templates) {
        List<List<String>> parsed = new ArrayList<>();
        for (String template : templates) {
            parsed.add(PatternText.segments(template));
        }
        return new PlaceholderNames(List.copyOf(parsed));
    }

    /** The shape as people read it. */
    public String text(UrlPattern pattern) {
        if (!pattern.rooted()) {
            return pattern.segments().get(0).literal();
        }
        StringBuilder out = new StringBuilder();
        int placeholders = 0;
        List<Segment> segments = pattern.segments();
        for (int i = 0; i < segments.size(); i++) {
            Segment segment = segments.get(i);
            out.append('/');
            switch (segment.kind()) {
                case LITERAL -> out.append(segment.literal());
                case NUMBER -> out.append(PatternText.NUMBER);
                case LETTER -> out.append(PatternText.LETTER);
                case ANY -> {
                    placeholders++;
                    out.append('{').append(name(segments, i, placeholders)).append('}');
                }
            }
        }
        if (pattern.trailingSlash() || segments.isEmpty()) {
            out.append('/');
        }
        return out.toString();
    }

    private String name(List<Segment> segments, int place, int number) {
        for (List<String> template : templates) {
            if (template.size() > place && PatternText.isPlaceholder(template.get(place)) && agrees(template, segments, place)) {
                String name = template.get(place);
                return name.substring(1, name.length() - 1);
            }
        }
        return Integer.toString(number);
    }

    private static boolean agrees(List<String> template, List<Segment> segments, int place) {
        for (int i = 0; i < place; i++) {
            String word = template.get(i);
            if (!PatternText.isPlaceholder(word)) {
                Segment segment = segments.get(i);
                if (segment.kind() != Kind.LITERAL || !segment.literal().equals(word)) {
                    return false;
                }
            }
        }
        return true;
    }
}
