package dev.crawlerrors.report.pattern;

import dev.crawlerrors.report.pattern.ShapeTrie.Node;
import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlPattern.Kind;
import dev.crawlerrors.store.UrlPattern.Segment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the shapes out of a {@link ShapeTrie}, on a copy (the trie goes on taking hits):
 *
 * <ol>
 *   <li>at each place in the path, three or more values (segments met under one parent only: a
 *       city, a street, a slug) become one placeholder, their subtrees merged, but for the
 *       sections of a site: a few values, each the parent of values or ids of its own, with nothing
 *       alike below them ({@code /projects/{1}} and {@code /presentations/{1}/images/{2}} stay
 *       apart, and so do {@code /product/{n}} and {@code /image/{n}});
 *   <li>words (met under several parents) stay as they are ({@code straten}, {@code parkeren}), but
 *       three or more words at one place with the same shape below them become a placeholder too,
 *       as the values of a small set do (the sections {@code parkeren}, {@code mobiliteit},
 *       {@code bedrijven}, {@code scholen} of every street), and a word met at this place only,
 *       with nothing below it that the placeholder beside it has not, joins the placeholder (a
 *       street name found in many cities is a word, but a street);
 *   <li>numbers and single letters are their class ({@code {n}}, {@code {letter}}), but for a
 *       letter met alone at its place with paths below it, a section ({@code /m/product/{n}});
 *   <li>each path end is a shape of its own, with and without a trailing slash.
 * </ol>
 *
 * A placeholder matches any segment but the words and classes beside it, so every URL has exactly
 * one shape, and the report filtered to a shape ({@link UrlPattern}) counts what the shape counts.
 */
final class ShapeGeneralizer {

    /** Values (or words of one shape) at one place that make a placeholder. */
    static final int MIN_VARIANTS = 3;
    /** Sections of a site at one place, at most: more than this are values (users, cities). */
    static final int MAX_SECTIONS = 12;
    /** Levels below a word that its shape is compared by. */
    private static final int SIGNATURE_DEPTH = 3;

    /** One shape found: a rooted path's segments, with or without a trailing slash, and its hits. */
    record Shape(UrlPattern pattern, ShapeStats stats) {
    }

    private final RecurringWords words;

    private ShapeGeneralizer(RecurringWords words) {
        this.words = words;
    }

    /** Every shape of the trie's paths, and one per request target that is not a path. */
    static List<Shape> shapes(ShapeTrie trie) {
        ShapeGeneralizer generalizer = new ShapeGeneralizer(trie.words);
        Node root = copy(trie.root);
        generalizer.generalize(root);
        List<Shape> shapes = new ArrayList<>();
        emit(root, new ArrayList<>(), shapes);
        trie.unrooted.forEach((target, stats) -> shapes.add(
                new Shape(new UrlPattern(false, List.of(Segment.literal(target)), false), stats.copy())));
        return shapes;
    }

    private void generalize(Node node) {
        if (!node.dirty) {
            return; // as it was: generalizing it again would change nothing
        }
        node.dirty = false;
        List<String> values = new ArrayList<>();
        for (String key : node.children.keySet()) {
            if (isValue(key)) {
                values.add(key);
            }
        }
        values.removeAll(sections(node, values));
        values.removeAll(misfits(node, values));
        if (node.any != null || values.size() >= MIN_VARIANTS) {
            for (String key : values) {
                node.any = absorb(node.any, node.children.remove(key));
            }
        }
        for (Node child : node.children.values()) {
            generalize(child);
        }
        if (node.any != null) {
            generalize(node.any);
        }
        // words of one shape below them, three or more: the values of a small set (sections); they
        // become the placeholder, or join the one there when it can hold what is below them
        Map<String, List<String>> bySignature = new TreeMap<>();
        for (var entry : node.children.entrySet()) {
            if (isWord(entry.getKey()) && !ShapeTrie.keptAsWritten(entry.getKey()) || probeOfAShape(entry.getKey(), entry.getValue())) {
                bySignature.computeIfAbsent(signature(entry.getValue(), SIGNATURE_DEPTH), s -> new ArrayList<>()).add(entry.getKey());
            }
        }
        List<String> set = bySignature.values().stream()
                .filter(keys -> keys.size() >= MIN_VARIANTS && (node.any == null || holds(node.any, node.children.get(keys.get(0)))))
                .max((a, b) -> Integer.compare(a.size(), b.size())).orElse(List.of());
        absorbAll(node, set);
        if (node.any == null) {
            return;
        }
        // a word of the placeholder's kind joins it too: met at this place only, with nothing below it the placeholder cannot hold
        List<String> joining = new ArrayList<>();
        for (var entry : node.children.entrySet()) {
            if (isWord(entry.getKey()) && !ShapeTrie.keptAsWritten(entry.getKey()) && words.atOnePlace(entry.getKey())
                    && holds(node.any, entry.getValue())) {
                joining.add(entry.getKey());
            }
        }
        absorbAll(node, joining);
    }

    /**
     * The values at {@code node} that are sections of the site, kept as they are: each a parent of
     * three or more values of its own ({@code /projects/grok}, {@code /projects/keynav}, ...; numbers
     * count as many, ids being the values of their section: {@code /product/{n}}, {@code /image/{n}}),
     * at most {@value #MAX_SECTIONS} of them, with no word in common at the same depth below them,
     * and no two with the same paths of numbers or letters below them. Cities are values, not
     * sections: their streets have the same sections below them ({@code parkeren}) and their words
     * recur ({@code straten}); users with numbered posts each have only {@code {n}} below them; a
     * blog's and a shop's slugs have nothing in common, and a shop's products and images are ids
     * with other paths below them.
     */
    private Set<String> sections(Node node, List<String> values) {
        List<String> parents = new ArrayList<>();
        for (String key : values) {
            Node child = node.children.get(key);
            int fanOut = child.any == null && !child.children.containsKey(ShapeTrie.NUMBER) ? 0 : MIN_VARIANTS;
            for (String grandchild : child.children.keySet()) {
                if (isValue(grandchild)) {
                    fanOut++;
                }
            }
            if (fanOut >= MIN_VARIANTS) {
                parents.add(key);
            }
        }
        if (parents.isEmpty() || parents.size() > MAX_SECTIONS) {
            return Set.of();
        }
        Set<String> seen = new HashSet<>();
        Set<Set<String>> classShapes = new HashSet<>();
        for (String key : parents) {
            Set<String> mine = new HashSet<>();
            wordsBelow(node.children.get(key), 1, mine);
            for (String word : mine) {
                if (!seen.add(word)) {
                    return Set.of(); // alike below: values of one set, as cities are
                }
            }
            Set<String> shapes = pathShapes(node.children.get(key));
            boolean ofClasses = shapes.stream().anyMatch(shape -> shape.contains(ShapeTrie.NUMBER) || shape.contains(ShapeTrie.LETTER));
            if (ofClasses && !classShapes.add(shapes)) {
                return Set.of(); // the same numbers below: values of one set, as users with numbered posts are
            }
        }
        return new HashSet<>(parents);
    }

    /**
     * The values at {@code node} whose subtree has another shape than the others': none of the paths
     * below it (each segment a word, a class, or "a value") is a path below another of them, or
     * below the placeholder there. Numbers under {@code /old/} where the cities beside it hold streets,
     * one fixed path under {@code /api/}: each stays as it is ({@code /old/{n}}, {@code /api/v1/streets}),
     * not a city. A value with nothing below it fits beside any other that is a path's end itself.
     * Found one at a time until those left all fit, as a misfit may be the only one another fitted with.
     */
    private Set<String> misfits(Node node, List<String> values) {
        Map<String, Set<String>> shapes = new HashMap<>();
        for (String key : values) {
            shapes.put(key, pathShapes(node.children.get(key)));
        }
        Set<String> anyShapes = node.any == null ? Set.of() : pathShapes(node.any);
        boolean anyEnds = node.any != null && (node.any.end != null || node.any.slashEnd != null);
        Set<String> misfits = new HashSet<>();
        boolean changed = true;
        while (changed) {
            changed = false;
            Map<String, Integer> sharing = new HashMap<>();
            int ends = anyEnds ? 1 : 0;
            for (String key : values) {
                if (!misfits.contains(key)) {
                    shapes.get(key).forEach(shape -> sharing.merge(shape, 1, Integer::sum));
                    Node child = node.children.get(key);
                    ends += child.end != null || child.slashEnd != null ? 1 : 0;
                }
            }
            anyShapes.forEach(shape -> sharing.merge(shape, 1, Integer::sum));
            for (String key : values) {
                if (misfits.contains(key)) {
                    continue;
                }
                Set<String> mine = shapes.get(key);
                boolean fits = mine.isEmpty() ? ends > 1 : mine.stream().anyMatch(shape -> sharing.get(shape) > 1);
                if (!fits) {
                    misfits.add(key);
                    changed = true;
                    break; // the others are looked at again without it
                }
            }
        }
        return misfits;
    }

    /**
     * The paths below {@code node} to {@value #SIGNATURE_DEPTH} levels: each segment a word or class
     * as it is, a value as {@code *}, each path ending where a URL ends ({@code $}, {@code /$}) or
     * where the depth runs out.
     */
    private Set<String> pathShapes(Node node) {
        Set<String> out = new HashSet<>();
        pathShapes(node, "", 0, out);
        return out;
    }

    private void pathShapes(Node node, String prefix, int depth, Set<String> out) {
        if (depth > 0) {
            if (node.end != null) {
                out.add(prefix + "$");
            }
            if (node.slashEnd != null) {
                out.add(prefix + "/$");
            }
        }
        if (depth == SIGNATURE_DEPTH) {
            if (!node.children.isEmpty() || node.any != null) {
                out.add(prefix + "...");
            }
            return;
        }
        for (var entry : node.children.entrySet()) {
            String key = entry.getKey();
            pathShapes(entry.getValue(), prefix + (isValue(key) ? "*" : key) + "/", depth + 1, out);
        }
        if (node.any != null) {
            pathShapes(node.any, prefix + "*/", depth + 1, out);
        }
    }

    /**
     * The words below {@code node} to {@value #SIGNATURE_DEPTH} levels, each with its depth; not the
     * classes: ids are below every section of a shop.
     */
    private void wordsBelow(Node node, int depth, Set<String> out) {
        if (depth > SIGNATURE_DEPTH) {
            return;
        }
        for (var entry : node.children.entrySet()) {
            String key = entry.getKey();
            if (!isValue(key) && !key.equals(ShapeTrie.NUMBER) && !key.equals(ShapeTrie.LETTER)) {
                out.add(depth + "/" + entry.getKey());
            }
            wordsBelow(entry.getValue(), depth + 1, out);
        }
        if (node.any != null) {
            wordsBelow(node.any, depth + 1, out);
        }
    }

    private void absorbAll(Node node, List<String> keys) {
        if (keys.isEmpty()) {
            return;
        }
        for (String key : keys) {
            node.any = absorb(node.any, node.children.remove(key));
        }
        generalize(node.any);
    }

    /** Whether a placeholder can hold what follows {@code node}: each next segment is among its own, or a word its placeholder takes. */
    private static boolean holds(Node placeholder, Node node) {
        for (String key : node.children.keySet()) {
            boolean aClass = key.equals(ShapeTrie.NUMBER) || key.equals(ShapeTrie.LETTER);
            if (!placeholder.children.containsKey(key) && (aClass || placeholder.any == null)) {
                return false;
            }
        }
        return node.any == null || placeholder.any != null;
    }

    /**
     * A probe's name with a path below it ({@code /pma/scripts/setup.php}): of one shape with others
     * it is one of them, as a word is ({@code /{1}/scripts/setup.php}), where a probe's name alone
     * ({@code /.env}) stays as it is, never among a site's pages.
     */
    private static boolean probeOfAShape(String key, Node node) {
        return (!node.children.isEmpty() || node.any != null) && ExploitProbes.isProbeSegment(key);
    }

    private boolean isValue(String key) {
        return !key.equals(ShapeTrie.NUMBER) && !key.equals(ShapeTrie.LETTER) && !words.isWord(key) && !ShapeTrie.keptAsWritten(key);
    }

    private boolean isWord(String key) {
        return !key.equals(ShapeTrie.NUMBER) && !key.equals(ShapeTrie.LETTER) && words.isWord(key);
    }

    private static Node absorb(Node any, Node other) {
        if (any == null) {
            other.dirty = true;
            return other;
        }
        ShapeTrie.merge(any, other);
        return any;
    }

    /**
     * The shape of the paths below a node, whatever their ends, to {@code depth} levels: the words
     * and classes, and "any" as {@code *}. Deeper levels are left out: enough to tell sections from
     * letter indexes, and cheap on a tree of thousands of nodes.
     */
    private static String signature(Node node, int depth) {
        if (depth == 0) {
            return "";
        }
        List<String> parts = new ArrayList<>(node.children.size() + 1);
        for (var entry : node.children.entrySet()) {
            parts.add(entry.getKey() + signature(entry.getValue(), depth - 1));
        }
        if (node.any != null) {
            parts.add("*" + signature(node.any, depth - 1));
        }
        parts.sort(null);
        return "(" + String.join(",", parts) + ")";
    }

    private static void emit(Node node, List<Segment> prefix, List<Shape> shapes) {
        if (node.end != null) {
            shapes.add(new Shape(new UrlPattern(true, prefix, false), node.end));
        }
        if (node.slashEnd != null) {
            shapes.add(new Shape(new UrlPattern(true, prefix, true), node.slashEnd));
        }
        Set<String> literals = new TreeSet<>();
        for (var entry : new TreeMap<>(node.children).entrySet()) {
            String key = entry.getKey();
            Segment segment = key.equals(ShapeTrie.NUMBER) ? Segment.of(Kind.NUMBER)
                    : key.equals(ShapeTrie.LETTER) ? letter(entry.getValue()) : Segment.literal(key);
            if (segment.kind() == Kind.LITERAL) {
                literals.add(key);
            }
            emit(entry.getValue(), with(prefix, segment), shapes);
        }
        if (node.any != null) {
            Segment any = new Segment(Kind.ANY, null, literals, node.children.containsKey(ShapeTrie.NUMBER),
                    node.children.containsKey(ShapeTrie.LETTER));
            emit(node.any, with(prefix, any), shapes);
        }
    }

    /**
     * A single letter's segment: its class ({@code /straten/{letter}}), but the letter as written
     * where it is the only one met at its place and paths go on below it: a section named by a
     * letter ({@code /m/product/{n}}, a shop's mobile pages), not an index of letters.
     */
    private static Segment letter(Node node) {
        boolean parent = !node.children.isEmpty() || node.any != null;
        return parent && node.letter != null && !node.letter.equals(ShapeTrie.LETTERS) ? Segment.literal(node.letter)
                : Segment.of(Kind.LETTER);
    }

    private static List<Segment> with(List<Segment> prefix, Segment segment) {
        List<Segment> out = new ArrayList<>(prefix.size() + 1);
        out.addAll(prefix);
        out.add(segment);
        return out;
    }

    private static Node copy(Node node) {
        Node copy = new Node();
        copy.end = node.end == null ? null : node.end.copy();
        copy.slashEnd = node.slashEnd == null ? null : node.slashEnd.copy();
        if (!node.children.isEmpty()) {
            copy.children = new HashMap<>();
            node.children.forEach((key, child) -> copy.children.put(key, copy(child)));
        }
        copy.any = node.any == null ? null : copy(node.any);
        copy.letter = node.letter;
        return copy;
    }
}
