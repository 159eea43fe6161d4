package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlCount;
import dev.crawlerrors.store.UrlPath;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The URL paths of error hits as a tree of segments, with what is known of the hits at each path's
 * end: the bounded summary the patterns are read from ({@link ShapeGeneralizer}). Hits are added as
 * they are counted, a window of new hits at a time, so the summary is kept rather than made again.
 *
 * <p>Bounded whatever the number of URLs: a node with more than {@link #FOLD_AT} children folds the
 * ones that are values (not {@link RecurringWords words}) into one "any" child, and later values go
 * straight to it; past {@link #MAX_NODES} nodes every new segment does. A million street URLs under
 * fifty cities become fifty city nodes, each with one "any" street below it. Numbers and single
 * letters are kept as their class from the start ({@code {n}}, {@code {letter}}); the files crawlers
 * fetch by themselves and the names of exploit probes are never folded ({@link #keptAsWritten}).
 */
final class ShapeTrie {

    static final int FOLD_AT = 200;
    static final int MAX_NODES = 20_000;
    /** Request targets that are not paths ({@code *}, absolute URLs) kept one by one; the rest are counted together. */
    static final int MAX_UNROOTED = 100;
    static final String NUMBER = "\u0000{n}";
    static final String LETTER = "\u0000{letter}";
    /** {@link Node#letter} of a letter node that met more than one letter. */
    static final String LETTERS = "\u0000{letters}";
    /** The parent of a first segment: no segment is "/". */
    private static final String ROOT = "/";

    static final class Node {
        Map<String, Node> children = Map.of();
        Node any;
        /** Paths that end here without a trailing slash, and with one. */
        ShapeStats end;
        ShapeStats slashEnd;
        /** Children past which the values among them are folded; raised when a fold leaves many (words). */
        int foldAt = FOLD_AT;
        /** For {@link ShapeGeneralizer}: whether the node changed since it was last generalized. */
        boolean dirty = true;
        /**
         * For the {@link #LETTER} child of a node: the letter met there when only one was
         * ({@code m} of {@code /m/product/...}), {@link #LETTERS} when several were.
         */
        String letter;

        Node child(String key) {
            return children.get(key);
        }

        void put(String key, Node child) {
            if (children.isEmpty()) {
                children = new HashMap<>();
            }
            children.put(key, child);
        }
    }

    final Node root = new Node();
    final RecurringWords words = new RecurringWords();
    final Map<String, ShapeStats> unrooted = new LinkedHashMap<>();
    final ShapeStats otherTargets = new ShapeStats();
    private int nodes = 1;

    /** Adds the hits of one URL (of one status and bot type). */
    void add(UrlCount count) {
        UrlPath path = UrlPath.of(count.url());
        if (!path.rooted()) {
            ShapeStats stats = unrooted.get(path.segments().get(0));
            if (stats == null && unrooted.size() < MAX_UNROOTED) {
                stats = new ShapeStats();
                unrooted.put(path.segments().get(0), stats);
            }
            (stats == null ? otherTargets : stats).add(count);
            return;
        }
        Node node = root;
        String parent = ROOT;
        int depth = 0;
        for (String segment : path.segments()) {
            String key = key(segment);
            boolean value = key.equals(segment) && !keptAsWritten(segment);
            if (value) {
                words.see(segment, parent, depth);
            }
            depth++;
            Node above = node;
            node = step(node, key, value && !words.isWord(segment));
            if (key.equals(LETTER) && above.child(LETTER) == node) {
                node.letter = node.letter == null || node.letter.equals(segment) ? segment : LETTERS;
            }
            parent = segment;
        }
        ShapeStats stats;
        if (path.trailingSlash()) {
            if (node.slashEnd == null) {
                node.slashEnd = new ShapeStats();
            }
            stats = node.slashEnd;
        } else {
            if (node.end == null) {
                node.end = new ShapeStats();
            }
            stats = node.end;
        }
        stats.add(count);
        if (depth == 1) {
            stats.addTop(count); // a pattern of one placeholder says nothing by itself: its URLs are listed
        }
    }

    /**
     * Whether a segment is never a placeholder's value: a file crawlers fetch by themselves
     * ({@link SiteFiles}) or an exploit probe's name ({@link ExploitProbes#isProbeSegment}), each a
     * pattern of its own with a diagnosis of its own.
     */
    static boolean keptAsWritten(String segment) {
        return SiteFiles.isSiteFile(segment) || ExploitProbes.isProbeSegment(segment);
    }

    /** What a segment is kept as: its class for a number or a letter, else itself. */
    static String key(String segment) {
        return UrlPath.isNumber(segment) ? NUMBER : UrlPath.isLetter(segment) ? LETTER : segment;
    }

    private Node step(Node node, String key, boolean value) {
        Node next = node.child(key);
        if (next != null) {
            return next;
        }
        // past the bound, words go to "any" too: the patterns stay right, a rare word loses its own
        if ((value && node.any != null) || nodes >= MAX_NODES) {
            if (node.any == null) {
                node.any = new Node();
                nodes++;
            }
            return node.any;
        }
        next = new Node();
        nodes++;
        node.put(key, next);
        if (node.children.size() > node.foldAt) {
            fold(node);
            // words are not folded: a node of many words folds again only when they have doubled
            node.foldAt = Math.max(FOLD_AT, 2 * node.children.size());
            Node kept = node.child(key);
            return kept != null ? kept : node.any;
        }
        return next;
    }

    /** Moves the children of {@code node} that are values into its "any" child. */
    private void fold(Node node) {
        var it = node.children.entrySet().iterator();
        while (it.hasNext()) {
            var entry = it.next();
            String key = entry.getKey();
            if (!key.equals(NUMBER) && !key.equals(LETTER) && !words.isWord(key) && !keptAsWritten(key)) {
                it.remove();
                if (node.any == null) {
                    node.any = entry.getValue();
                } else {
                    nodes -= merge(node.any, entry.getValue());
                }
            }
        }
    }

    /** Merges {@code from} into {@code into}; returns how many nodes went away. */
    static int merge(Node into, Node from) {
        int gone = 1;
        into.dirty = true;
        if (from.letter != null) {
            into.letter = into.letter == null || into.letter.equals(from.letter) ? from.letter : LETTERS;
        }
        if (from.end != null) {
            if (into.end == null) {
                into.end = new ShapeStats();
            }
            into.end.addAll(from.end);
        }
        if (from.slashEnd != null) {
            if (into.slashEnd == null) {
                into.slashEnd = new ShapeStats();
            }
            into.slashEnd.addAll(from.slashEnd);
        }
        for (var entry : from.children.entrySet()) {
            Node mine = into.child(entry.getKey());
            if (mine == null) {
                into.put(entry.getKey(), entry.getValue());
            } else {
                gone += merge(mine, entry.getValue());
            }
        }
        if (from.any != null) {
            if (into.any == null) {
                into.any = from.any;
            } else {
                gone += merge(into.any, from.any);
            }
        }
        return gone;
    }

    int nodes() {
        return nodes;
    }
}
