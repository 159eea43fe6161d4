package dev.crawlerrors.crawler.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * An ordered list of {@link BotPattern}s, the first match winning as in device-detector, that does
 * not run a thousand expressions on every agent: each entry's top-level alternatives
 * ({@link BotPattern#alternatives}) are pieces, each piece's required literals
 * ({@link RegexLiterals}) are filed in one {@link LiteralIndex}, an agent is read once to find the
 * pieces it may match, and only those run, in the entries' order. Most pieces are plain words
 * ({@code Qwantbot}): they are looked for as words, no expression runs; the rest are compiled the
 * first time they run, so loading the catalog compiles nothing.
 *
 * <p>Why pieces: device-detector's first generic entry is some 150 alternatives, one of which is
 * {@code ^(?:chrome|desktop|firefox|...)$}; filed whole, every Chrome agent would run all 150.
 */
public final class BotPatterns {

    private final List<BotPattern> patterns;
    /** Each piece's entry, in the entries' order. */
    private final int[] pieceOf;
    private final String[] pieces;
    /** A plain-word piece's words (ASCII lower case), or null for a piece that runs as an expression. */
    private final String[][] words;
    private final LiteralIndex index;
    /** Pieces without a literal long enough to file, which every agent tries. */
    private final int[] unfiltered;
    private final AtomicReferenceArray<Pattern> compiled;
    /** Stands in the compiled array for an expression that Java cannot compile: it never matches. */
    private static final Pattern BROKEN = Pattern.compile("(?!)");

    public BotPatterns(List<BotPattern> patterns) {
        this.patterns = List.copyOf(patterns);
        List<Integer> entries = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        for (int i = 0; i < patterns.size(); i++) {
            for (String piece : patterns.get(i).alternatives()) {
                entries.add(i);
                expressions.add(piece);
            }
        }
        this.pieceOf = entries.stream().mapToInt(Integer::intValue).toArray();
        this.pieces = expressions.toArray(String[]::new);
        this.words = new String[pieces.length][];
        List<Set<String>> literals = new ArrayList<>(pieces.length);
        List<Integer> everyAgent = new ArrayList<>();
        for (int p = 0; p < pieces.length; p++) {
            Set<String> plain = patterns.get(pieceOf[p]).name().indexOf('$') < 0
                    ? RegexLiterals.literalAlternatives(pieces[p], 1) : null;
            words[p] = plain == null ? null : plain.toArray(String[]::new);
            Set<String> required = RegexLiterals.required(pieces[p], LiteralIndex.PREFIX);
            literals.add(required);
            if (required == null) {
                everyAgent.add(p);
            }
        }
        this.index = new LiteralIndex(literals);
        this.unfiltered = everyAgent.stream().mapToInt(Integer::intValue).toArray();
        this.compiled = new AtomicReferenceArray<>(pieces.length);
    }

    public List<BotPattern> patterns() {
        return patterns;
    }

    /** How many pieces every agent runs, having no literal to be found by. */
    public int unfilteredCount() {
        return unfiltered.length;
    }

    /** How many pieces the entries are filed as. */
    public int pieceCount() {
        return pieces.length;
    }

    /** The first pattern, in order, that names {@code agent}, and the name it gives. */
    public Optional<PatternMatch> first(String agent) {
        return first(agent, false);
    }

    /**
     * The first pattern, in order, that names the bot whose name {@code agent} begins with
     * ({@code WireReaderBot/1.0 (compatible; Googlebot/2.1; ...)}), and the name it gives.
     */
    public Optional<PatternMatch> leading(String agent) {
        return first(agent, true);
    }

    private Optional<PatternMatch> first(String agent, boolean leading) {
        if (agent == null || agent.isEmpty()) {
            return Optional.empty();
        }
        String text = agent.length() > BotPattern.MAX_AGENT ? agent.substring(0, BotPattern.MAX_AGENT) : agent;
        boolean[] candidate = new boolean[pieces.length];
        for (int u : unfiltered) {
            candidate[u] = true;
        }
        index.search(text, candidate);
        for (int p = 0; p < candidate.length; p++) {
            if (!candidate[p]) {
                continue;
            }
            BotPattern pattern = patterns.get(pieceOf[p]);
            String name = words[p] != null
                    ? (namesWord(text, words[p], leading) ? pattern.name() : null)
                    : pattern.nameIn(compiled(p), text, leading);
            if (name != null && !name.isEmpty()) {
                return Optional.of(new PatternMatch(pattern, name));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether {@code text} holds one of {@code words} where a name starts and not as a comparison:
     * what the piece's expression would find, without running it.
     */
    private static boolean namesWord(String text, String[] words, boolean leading) {
        for (String word : words) {
            int last = leading ? 0 : text.length() - word.length();
            for (int at = 0; at <= last; at++) {
                if (AgentText.holdsAt(text, at, word) && AgentText.startsName(text, at) && (leading || !AgentText.isComparison(text, at))) {
                    return true;
                }
            }
        }
        return false;
    }

    private Pattern compiled(int piece) {
        Pattern pattern = compiled.get(piece);
        if (pattern == null) {
            try {
                pattern = BotPattern.compile(pieces[piece]);
            } catch (PatternSyntaxException e) {
                pattern = BROKEN; // the catalog's tests compile every entry; a broken one names nothing
            }
            compiled.set(piece, pattern);
        }
        return pattern;
    }

    /** A pattern that matched, and the name it gave. */
    public record PatternMatch(BotPattern pattern, String name) {
    }
}
