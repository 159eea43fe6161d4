package dev.crawlerrors.bench;

import dev.crawlerrors.crawler.AgentFixtures;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.catalog.BotPattern;
import dev.crawlerrors.crawler.catalog.BotPatterns;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What identifying user agents costs: 100,000 distinct agents (nine in ten of people, one in ten
 * of bots, made distinct from device-detector's fixtures by their version numbers) named by a
 * {@link CrawlerIdentifier} that has seen none of them, and the same agents once it has (the
 * cache: a log's agents repeat). Scores are microseconds an agent.
 * Run from the repository root with a JDK 21 or newer:
 *
 * <pre>
 * export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * $JAVA_HOME/bin/java -cp target/test-classes:target/classes:$(cat target/cp.txt) org.openjdk.jmh.Main IdentifyBench -f 1 -wi 2 -i 3
 * </pre>
 *
 * <p>Baselines in the same run: {@link #ownCatalogOnly} is the identifier without the long tail
 * (crawlers.json alone, what identification cost before device-detector's bots came), and
 * {@link #everyPatternInTurn} runs device-detector's expressions in order on {@value #IN_TURN}
 * of the agents with no prefilter, which is what the {@link BotPatterns} prefilter saves.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
public class IdentifyBench {

    static final int AGENTS = 100_000;
    static final int IN_TURN = 1_000;
    private static final Pattern LAST_NUMBER = Pattern.compile("\\d+(?!.*\\d)");

    private CrawlerCatalog catalog;
    private CrawlerCatalog own;
    private String[] agents;
    private CrawlerIdentifier warm;
    private CrawlerIdentifier fresh;
    private CrawlerIdentifier freshOwn;
    private List<BotPattern> patterns;
    private List<Pattern> compiled;

    @Setup
    public void setUp() {
        catalog = CrawlerCatalog.builtIn();
        own = CrawlerCatalog.ownBuiltIn();
        agents = distinctAgents();
        warm = new CrawlerIdentifier(catalog);
        for (String agent : agents) {
            warm.identify(agent);
        }
        patterns = catalog.longTail().orElseThrow().patterns().patterns();
        compiled = patterns.stream().map(p -> Pattern.compile("(?:^|[^A-Z0-9_-]|[^A-Z0-9-]_|sprd-|MZ-)(" + p.regex() + ")",
                Pattern.CASE_INSENSITIVE)).toList();
    }

    /** A new identifier for each round of the first-look benchmarks: they must find nothing cached. */
    @Setup(Level.Invocation)
    public void freshIdentifiers() {
        fresh = new CrawlerIdentifier(catalog);
        freshOwn = new CrawlerIdentifier(own);
    }

    /**
     * The agents: device-detector's fixtures of people nine times in ten, of bots once, each with its
     * last number replaced by a running one (Chrome/120.0.6099.<b>4711</b>), as versions make real agents many.
     */
    static String[] distinctAgents() {
        List<String> people = AgentFixtures.deviceDetectorOthers();
        List<String> bots = AgentFixtures.deviceDetectorBots().stream().map(AgentFixtures.Bot::agent).toList();
        Set<String> distinct = new LinkedHashSet<>();
        for (int i = 0; distinct.size() < AGENTS; i++) {
            String template = i % 10 == 9 ? bots.get(i / 10 % bots.size()) : people.get(i % people.size());
            Matcher number = LAST_NUMBER.matcher(template);
            distinct.add(number.find() ? template.substring(0, number.start()) + i + template.substring(number.end()) : template + " " + i);
        }
        return distinct.toArray(String[]::new);
    }

    /** The first look at each agent: our catalog, then device-detector's prefiltered bots. */
    @Benchmark
    @OperationsPerInvocation(AGENTS)
    public void identifyNewAgents(Blackhole out) {
        for (String agent : agents) {
            out.consume(fresh.identify(agent));
        }
    }

    /** Every later look: the identifier's cache by agent. */
    @Benchmark
    @OperationsPerInvocation(AGENTS)
    public void identifyKnownAgents(Blackhole out) {
        for (String agent : agents) {
            out.consume(warm.identify(agent));
        }
    }

    /** Baseline: the first look with crawlers.json alone. */
    @Benchmark
    @OperationsPerInvocation(AGENTS)
    public void ownCatalogOnly(Blackhole out) {
        for (String agent : agents) {
            out.consume(freshOwn.identify(agent));
        }
    }

    /** Baseline: device-detector's expressions in order on the first {@value #IN_TURN} agents, as device-detector runs them (its "overall" pre-match aside). */
    @Benchmark
    @OperationsPerInvocation(IN_TURN)
    public void everyPatternInTurn(Blackhole out) {
        for (int a = 0; a < IN_TURN; a++) {
            String agent = agents[a];
            int found = -1;
            for (int i = 0; i < compiled.size() && found < 0; i++) {
                if (compiled.get(i).matcher(agent).find()) {
                    found = i;
                }
            }
            out.consume(found);
        }
    }

    /** For a look at the agents: the first few, and how many of them are named a crawler. */
    public static void main(String[] args) {
        String[] agents = distinctAgents();
        CrawlerIdentifier identifier = new CrawlerIdentifier(CrawlerCatalog.builtIn());
        int named = 0;
        for (String agent : agents) {
            named += identifier.identify(agent).isPresent() ? 1 : 0;
        }
        List<String> sample = new ArrayList<>(List.of(agents).subList(0, 12));
        sample.forEach(System.out::println);
        System.out.println(agents.length + " agents, " + named + " named a crawler");
    }
}
