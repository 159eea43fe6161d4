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
 * not run a thousand expressions on every agent: each pattern's required literals
 * ({@link RegexLiterals}) are filed in one {@link LiteralIndex}, an agent is read once to find the
 * patterns it may match, and only those run, in order. An expression is compiled the first time
 * it runs, so loading the catalog costs no compilation.
 */
public final class BotPatterns {

    private final List<BotPattern> patterns;
    private final LiteralIndex index;
    /** Patterns without a literal long enough to file, which every agent tries. */
    private final int[] unfiltered;
    private final AtomicReferenceArray<Pattern> compiled;
    /** Stands in the compiled array for an expression that Java cannot compile: it never matches. */
    private static final Pattern BROKEN = Pattern.compile("(?!)");

    public BotPatterns(List<BotPattern> patterns) {
        this.patterns = List.copyOf(patterns);
        List<Set<String>> literals = new ArrayList<>(patterns.size());
        List<Integer> everyAgent = new ArrayList<>();
        for (int i = 0; i < patterns.size(); i++) {
            Set<String> required = RegexLiterals.required(patterns.get(i).regex(), LiteralIndex.PREFIX);
            literals.add(required);
            if (required == null) {
                everyAgent.add(i);
            }
        }
        this.index = new LiteralIndex(literals);
        this.unfiltered = everyAgent.stream().mapToInt(Integer::intValue).toArray();
        this.compiled = new AtomicReferenceArray<>(patterns.size());
    }

    public List<BotPattern> patterns() {
        return patterns;
    }

    /** How many patterns every agent runs, having no literal to be found by. */
    public int unfilteredCount() {
        return unfiltered.length;
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
        boolean[] candidate = new boolean[patterns.size()];
        for (int u : unfiltered) {
            candidate[u] = true;
        }
        index.search(AgentText.lowerAscii(text), candidate);
        for (int i = 0; i < candidate.length; i++) {
            if (!candidate[i]) {
                continue;
            }
            BotPattern pattern = patterns.get(i);
            String name = pattern.nameIn(compiled(i), text, leading);
            if (name != null && !name.isEmpty()) {
                return Optional.of(new PatternMatch(pattern, name));
            }
        }
        return Optional.empty();
    }

    private Pattern compiled(int i) {
        Pattern pattern = compiled.get(i);
        if (pattern == null) {
            try {
                pattern = patterns.get(i).compile();
            } catch (PatternSyntaxException e) {
                pattern = BROKEN; // the catalog's tests compile every entry; a user's broken one names nothing
            }
            compiled.set(i, pattern);
        }
        return pattern;
    }

    /** A pattern that matched, and the name it gave. */
    public record PatternMatch(BotPattern pattern, String name) {
    }
}
