package dev.crawlerrors.crawler;

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
 * Names the crawler behind a user agent. The most specific entry wins: the longest matching token,
 * then the entry with more {@code alsoContains} conditions (Google-InspectionTool's agent also says
 * Googlebot; Googlebot Smartphone is Googlebot whose agent also says Mobile).
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
    /** Distinct agents each parser thread remembers by their bytes (three quarters of it) before it starts over. */
    private static final int AGENTS_BY_BYTES = 1 << 14;

    private final ThreadLocal<BytesMap<Boolean>> byBytes = ThreadLocal.withInitial(() -> new BytesMap<>(AGENTS_BY_BYTES));

    public CrawlerIdentifier(CrawlerCatalog catalog) {
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
        Optional<Crawler> found = match(agent.toLowerCase(Locale.ROOT));
        if (byAgent.size() >= MAX_CACHED_AGENTS) {
            byAgent.clear();
        }
        byAgent.put(agent, found);
        return found;
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
    private Optional<Crawler> match(String agent) {
        boolean[] contained = new boolean[rules.size()];
        for (int r : shortRules) {
            contained[r] = agent.contains(rules.get(r).token);
        }
        for (int i = 0; i + PREFIX <= agent.length(); i++) {
            int[] bucket = rulesByPrefix[prefixSlot(agent, i)];
            if (bucket != null) {
                for (int r : bucket) {
                    contained[r] |= agent.startsWith(rules.get(r).token, i);
                }
            }
        }
        Rule best = null;
        for (int r = 0; r < contained.length; r++) {
            Rule rule = rules.get(r);
            if (contained[r] && rule.conditionsHold(agent) && (best == null || rule.moreSpecificThan(best))) {
                best = rule;
            }
        }
        return best == null ? Optional.empty() : Optional.of(best.crawler);
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
