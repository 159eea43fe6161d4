package dev.crawlerrors.alert;

import java.util.Locale;
import java.util.Set;

/**
 * The shape of a URL that the new-error-pattern alert watches: its path (no query) with the first
 * segment as written, every later one by its class ({@code {n}} a number, {@code {letter}} one
 * letter, {@code {x}} anything else), and a path of one segment as {@code /{x}}. So
 * {@code /antwerp/meir} is {@code /antwerp/{x}}, {@code /antwerp/straten/b} is
 * {@code /antwerp/{x}/{letter}}, {@code /product/123} is {@code /product/{n}}: a deploy that breaks a
 * kind of page gives one shape many URLs share, which a handful of crawler hits make visible, where
 * the URLs one by one are each fetched once. The files crawlers fetch by name ({@code /robots.txt},
 * sitemaps, {@code /.well-known/...}) keep their names. The text is one the report's
 * {@code pattern} parameter takes, so an alert links to its hits.
 */
public final class UrlShape {

    /** The shape of a request target that is not a path ({@code *}, an absolute URL). */
    public static final String NOT_A_PATH = "(not a path)";
    /** A segment longer than this is a value whatever it looks like. */
    private static final int MAX_WORD = 64;
    private static final Set<String> NAMED_FILES = Set.of("robots.txt", "ads.txt", "app-ads.txt", "favicon.ico", "security.txt",
            "humans.txt", "llms.txt", "sitemap.xml", "sitemap_index.xml", "sitemap.xml.gz", "manifest.json");

    private UrlShape() {
    }

    /** The shape of {@code url}, a request target as logged. */
    public static String of(String url) {
        int end = url.length();
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        if (end == 0 || url.charAt(0) != '/') {
            return NOT_A_PATH;
        }
        if (end == 1) {
            return "/";
        }
        boolean slash = url.charAt(end - 1) == '/';
        int pathEnd = slash ? end - 1 : end;
        StringBuilder shape = new StringBuilder(Math.min(pathEnd + 8, 128));
        int start = 1;
        int index = 0;
        boolean single = url.indexOf('/', 1) < 0 || url.indexOf('/', 1) >= pathEnd;
        while (start <= pathEnd) {
            int next = url.indexOf('/', start);
            if (next < 0 || next > pathEnd) {
                next = pathEnd;
            }
            String segment = url.substring(start, next);
            shape.append('/').append(segmentShape(segment, index, single, shape));
            start = next + 1;
            index++;
        }
        if (slash) {
            shape.append('/');
        }
        return shape.toString();
    }

    private static String segmentShape(String segment, int index, boolean single, CharSequence before) {
        if (isNumber(segment)) {
            return "{n}";
        }
        if (segment.length() == 1 && Character.isLetter(segment.charAt(0))) {
            return "{letter}";
        }
        String lower = segment.toLowerCase(Locale.ROOT);
        if (NAMED_FILES.contains(lower) || (lower.startsWith("sitemap") && (lower.endsWith(".xml") || lower.endsWith(".xml.gz")))) {
            return segment;
        }
        if (index == 1 && before.toString().equals("/.well-known")) {
            return segment;
        }
        boolean word = index == 0 && !single && segment.length() <= MAX_WORD && isWord(segment);
        return word || segment.equals(".well-known") ? segment : "{x}";
    }

    private static boolean isNumber(String segment) {
        if (segment.isEmpty()) {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Letters, digits, {@code -}, {@code _} and {@code .}, no braces: a segment the report's patterns take as written. */
    private static boolean isWord(String segment) {
        if (segment.isEmpty()) {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '%')) {
                return false;
            }
        }
        return true;
    }
}
