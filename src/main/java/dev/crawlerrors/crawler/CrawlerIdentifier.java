package dev.crawlerrors.crawler;

import dev.crawlerrors.crawler.catalog.AgentText;
import dev.crawlerrors.crawler.catalog.BotPatterns;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.BytesMap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names the crawler behind a user agent. Our own catalog speaks first, and there the most specific
 * entry wins: the longest matching token, then the entry with more {@code alsoContains} conditions
 * (Google-InspectionTool's agent also says Googlebot; Googlebot Smartphone is Googlebot whose agent
 * also says Mobile). Where ours knows none, the long tail's first matching entry names the bot
 * ({@link LongTail}), never by a name of ours: an agent ours does not recognise is none of ours.
 *
 * <p>A token counts where it stands as a name of its own, as device-detector matches its
 * patterns: at the start of the agent or after a character that is not a letter, digit,
 * {@code -} or {@code _} (so Diffbot is not found in Doximity-Diffbot); and not where the agent
 * only compares itself with it ({@code like FeedFetcher-Google}: {@link AgentText#isComparison}).
 *
 * <p>Design: nine in ten lines are people, and a site sees few distinct agents, so the answer is
 * cached per agent. {@link #mayBeCrawler} is called by the parser threads on raw bytes before any
 * string exists; it keeps a small per-thread table keyed by the bytes, so a known human agent
 * costs one hash and one comparison.
 */
public final class CrawlerIdentifier implements AgentFilter {

    /** Distinct agents remembered by {@link #identify}; beyond it the cache starts over. */
    private static final int MAX_CACHED_AGENTS = 100_000;

    private final List<Rule> rules;
    /**
     * The rules by the first {@value #PREFIX} characters of their token, hashed ({@link #prefixSlot});
     * tokens shorter than that are in {@link #shortRules}. Each position of an agent looks up its own
     * first characters, so a new agent is read once instead of once a rule.
     */
    private final int[][] rulesByPrefix = new int[PREFIX_SLOTS][];
    private final int[] shortRules;
    private static final int PREFIX = 3;
    private static final int PREFIX_SLOTS = 1 << 10;
    private final ConcurrentHashMap<String, Optional<Crawler>> byAgent = new ConcurrentHashMap<>();
    private final LongTail longTail;
    /** The long tail's bots as catalog entries, by name; names are a few thousand at most, and when not the map starts over. */
    private final ConcurrentHashMap<String, Crawler> longTailByName = new ConcurrentHashMap<>();
    private static final int MAX_LONG_TAIL_NAMES = 10_000;
    /** Distinct agents each parser thread remembers by their bytes (three quarters of it) before it starts over. */
    private static final int AGENTS_BY_BYTES = 1 << 14;

    private final ThreadLocal<BytesMap<Boolean>> byBytes = ThreadLocal.withInitial(() -> new BytesMap<>(AGENTS_BY_BYTES));

    public CrawlerIdentifier(CrawlerCatalog catalog) {
        this.longTail = catalog.longTail().orElse(null);
        List<Rule> list = new ArrayList<>();
        for (Crawler crawler : catalog.crawlers()) {
            for (String token : crawler.tokens()) {
                list.add(new Rule(token.toLowerCase(Locale.ROOT), lower(crawler.alsoContains()), crawler));
            }
        }
        this.rules = List.copyOf(list);
        List<Integer> shortOnes = new ArrayList<>();
        for (int r = 0; r < rules.size(); r++) {
            String token = rules.get(r).token;
            if (token.length() < PREFIX) {
                shortOnes.add(r);
                continue;
            }
            int slot = prefixSlot(token, 0);
            int[] bucket = rulesByPrefix[slot];
            int[] grown = bucket == null ? new int[1] : Arrays.copyOf(bucket, bucket.length + 1);
            grown[grown.length - 1] = r;
            rulesByPrefix[slot] = grown;
        }
        shortRules = shortOnes.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The crawler this agent names, if any. */
    public Optional<Crawler> identify(String agent) {
        if (agent == null || agent.isEmpty()) {
            return Optional.empty();
        }
        Optional<Crawler> cached = byAgent.get(agent);
        if (cached != null) {
            return cached;
        }
        Optional<Crawler> found = identifyUncached(agent);
        if (byAgent.size() >= MAX_CACHED_AGENTS) {
            byAgent.clear();
        }
        byAgent.put(agent, found);
        return found;
    }

    /**
     * Ours first; the long tail where ours knows nothing, or where the agent begins with a bot's own
     * name that the long tail knows and ours found only further on
     * ({@code WireReaderBot/1.0 (compatible; Googlebot/2.1; ...)} is WireReaderBot).
     */
    private Optional<Crawler> identifyUncached(String agent) {
        Found ours = match(agent.toLowerCase(Locale.ROOT));
        if (longTail == null) {
            return ours == null ? Optional.empty() : Optional.of(ours.rule().crawler);
        }
        if (ours == null) {
            return longTail.patterns().first(agent).map(m -> crawlerNamed(m, agent));
        }
        if (ours.at() > 0) {
            Optional<BotPatterns.PatternMatch> leading = longTail.patterns().leading(agent);
            // a leading name that is one of ours (.+diffbot matches from the start) is ours, which found it
            if (leading.isPresent() && !longTail.isOurs(leading.get().name())) {
                return Optional.of(crawlerNamed(leading.get(), agent));
            }
        }
        return Optional.of(ours.rule().crawler);
    }

    /** The bot the long tail names in {@code agent} by {@code match} ({@link LongTail#name}: never one of ours). */
    private Crawler crawlerNamed(BotPatterns.PatternMatch match, String agent) {
        String name = longTail.name(match, agent);
        Crawler known = longTailByName.get(name);
        if (known == null) {
            if (longTailByName.size() >= MAX_LONG_TAIL_NAMES) {
                longTailByName.clear();
            }
            known = longTail.crawler(match.pattern(), name);
            longTailByName.put(name, known);
        }
        return known;
    }

    @Override
    public boolean mayBeCrawler(byte[] line, int from, int to) {
        return mayBeCrawler(line, from, to, AgentFilter.hash(line, from, to));
    }

    @Override
    public boolean mayBeCrawler(byte[] line, int from, int to, int hash) {
        BytesMap<Boolean> answers = byBytes.get();
        Boolean answer = answers.get(line, from, to, hash);
        if (answer != null) {
            return answer;
        }
        boolean crawler = identify(new String(line, from, to - from, StandardCharsets.UTF_8)).isPresent();
        answers.put(line, from, to, hash, crawler);
        return crawler;
    }

    /**
     * The most specific rule whose token {@code agent} (lower case) contains, the first in catalog
     * order among equals. Each position of the agent is looked up by its first characters; a rule
     * in that slot matches where its token starts there.
     */
    private Found match(String agent) {
        int[] firstAt = new int[rules.size()];
        Arrays.fill(firstAt, -1);
        for (int r : shortRules) {
            String token = rules.get(r).token;
            for (int i = agent.indexOf(token); i >= 0 && firstAt[r] < 0; i = agent.indexOf(token, i + 1)) {
                if (namesAt(agent, i)) {
                    firstAt[r] = i;
                }
            }
        }
        for (int i = 0; i + PREFIX <= agent.length(); i++) {
            int[] bucket = rulesByPrefix[prefixSlot(agent, i)];
            if (bucket != null) {
                for (int r : bucket) {
                    if (firstAt[r] < 0 && agent.startsWith(rules.get(r).token, i) && namesAt(agent, i)) {
                        firstAt[r] = i;
                    }
                }
            }
        }
        int best = -1;
        for (int r = 0; r < firstAt.length; r++) {
            Rule rule = rules.get(r);
            if (firstAt[r] >= 0 && rule.conditionsHold(agent) && (best < 0 || rule.moreSpecificThan(rules.get(best)))) {
                best = r;
            }
        }
        return best < 0 ? null : new Found(rules.get(best), firstAt[best]);
    }

    /** The rule that named an agent, and where in the agent its token first stands. */
    private record Found(Rule rule, int at) {
    }

    /**
     * Whether a token found at {@code at} in {@code agent} (lower case) names the agent: it starts a
     * product token (device-detector's rule: the agent's start, or after a character other than a
     * letter, digit, {@code -} or {@code _}; after {@code _} only where that follows such a character),
     * and the agent does not merely compare itself with it.
     */
    static boolean namesAt(String agent, int at) {
        if (at > 0) {
            char before = agent.charAt(at - 1);
            if (isAsciiLetterOrDigit(before) || before == '-') {
                return false;
            }
            if (before == '_' && at > 1 && (isAsciiLetterOrDigit(agent.charAt(at - 2)) || agent.charAt(at - 2) == '-')) {
                return false;
            }
        }
        return !AgentText.isComparison(agent, at);
    }

    private static boolean isAsciiLetterOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    /** The slot of the {@value #PREFIX} characters of {@code text} at {@code at} in {@link #rulesByPrefix}. */
    private static int prefixSlot(String text, int at) {
        int h = text.charAt(at) * 31 * 31 + text.charAt(at + 1) * 31 + text.charAt(at + 2);
        return (h ^ (h >>> 10)) & (PREFIX_SLOTS - 1);
    }

    private static List<String> lower(List<String> values) {
        return values.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList();
    }

    private record Rule(String token, List<String> alsoContains, Crawler crawler) {

        boolean conditionsHold(String agent) {
            for (String condition : alsoContains) {
                if (!agent.contains(condition)) {
                    return false;
                }
            }
            return true;
        }

        boolean moreSpecificThan(Rule other) {
            if (token.length() != other.token.length()) {
                return token.length() > other.token.length();
            }
            return alsoContains.size() > other.alsoContains.size();
        }
    }
}
