package dev.crawlerrors.bench;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.ByteSearch;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import dev.crawlerrors.ingest.format.LineParser;
import dev.crawlerrors.ingest.format.NginxFormat;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The import's hot loop on one core: parse the lines of an in-memory log with
 * {@link CombinedLineParser}, which finds each line's end itself, the {@link CrawlerIdentifier}
 * deciding from the agent bytes which lines become {@link Hit}s (what a {@code LogReader} worker
 * does with a chunk). Scores are lines/s.
 * Run from the repository root with a JDK 21 or newer:
 *
 * <pre>
 * export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * $JAVA_HOME/bin/java -cp target/test-classes:target/classes:$(cat target/cp.txt) org.openjdk.jmh.Main ParseBenchmark -f 1 -wi 2 -i 3
 * </pre>
 *
 * <p>The baselines run over the same buffer in the same JVM: {@link #lineBoundaries} only finds the
 * newlines (the floor for any line-at-a-time parser), and {@link #countGooglebot} is
 * {@code grep -c Googlebot}. Compare ratios against them, not absolute scores: the machine is
 * shared. {@link #parseEveryLine} turns every line into a {@link Hit}, which shows what the agent
 * filter saves on human traffic. {@link #parseNginxFormat} is {@link #parse} with the same format
 * compiled from its nginx {@code log_format} string ({@code --format nginx:...}) instead of the
 * hand-written {@link CombinedLineParser}: their ratio is what a user's own format string costs.
 * To run just those two: {@code org.openjdk.jmh.Main 'ParseBenchmark.parse(NginxFormat)?$' -f 1 -wi 2 -i 3}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(ParseBenchmark.LINES)
@Fork(1)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
public class ParseBenchmark {

    /** Lines in the buffer: about 50 MiB, far beyond any cache, as a real log is. */
    static final int LINES = 200_000;

    private static final byte[] GOOGLEBOT = "Googlebot".getBytes(StandardCharsets.US_ASCII);

    /** The format BenchLog writes, as an nginx log_format. */
    static final String NGINX_FORMAT = "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
            + "\"$http_referer\" \"$http_user_agent\" $request_time";

    private byte[] log;
    private CombinedLineParser parser;
    private LineParser nginxFormat;
    private CrawlerIdentifier identifier;
    private CrawlerVerifier verifier;
    private CrawlerCatalog catalog;
    /** The first {@link #AGENTS} distinct agents of the log, in the order they come. */
    private String[] agents;

    static final int AGENTS = 1_000;

    @Setup
    public void setUp() throws BadLineException {
        log = BenchLog.generate(LINES);
        parser = new CombinedLineParser();
        nginxFormat = NginxFormat.compile(NGINX_FORMAT);
        catalog = CrawlerCatalog.builtIn();
        identifier = new CrawlerIdentifier(catalog);
        // the benchmark's own lists, no DNS: what is measured is the cost for addresses already known
        verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse("bench/ip-ranges")), null);
        // the measured loops skip error handling, so make sure there is none to handle
        int lines = 0;
        int start = 0;
        while (start < log.length) {
            int end = lineEnd(log, start);
            Hit hit = parser.parse(log, start, end, AgentFilter.ALL);
            if (!hit.equals(nginxFormat.parse(log, start, end, AgentFilter.ALL))) {
                throw new IllegalStateException("the compiled nginx format reads line " + (lines + 1) + " differently");
            }
            if (!hit.equals(parser.parseLine(log, start, log.length, AgentFilter.ALL)) || parser.lineEnd() != end) {
                throw new IllegalStateException("finding its own end, the parser reads line " + (lines + 1) + " differently");
            }
            lines++;
            start = end + 1;
        }
        if (lines != LINES) {
            throw new IllegalStateException("expected " + LINES + " lines, found " + lines);
        }
        Set<String> distinct = new LinkedHashSet<>();
        for (int at = 0; at < log.length && distinct.size() < AGENTS; ) {
            distinct.add(parser.parseLine(log, at, log.length, AgentFilter.ALL).userAgent());
            at = parser.lineEnd() + 1;
        }
        agents = distinct.toArray(String[]::new);
        if (agents.length != AGENTS) {
            throw new IllegalStateException("expected " + AGENTS + " distinct agents, found " + agents.length);
        }
    }

    /**
     * The first look at each of {@link #AGENTS} distinct agents, with an identifier that has seen
     * none of them: the work of an import's first seconds, when most agents are new (and of a site
     * whose agents are many). Scores are lines/s, a line being one agent here.
     */
    @Benchmark
    @OperationsPerInvocation(AGENTS)
    public void identifyNewAgents(Blackhole out) {
        CrawlerIdentifier fresh = new CrawlerIdentifier(catalog);
        for (String agent : agents) {
            out.consume(fresh.identify(agent));
        }
    }

    /** Baseline: the newline scan every parser pays, nothing else. */
    @Benchmark
    public int lineBoundaries() {
        byte[] b = log;
        int lines = 0;
        int start = 0;
        while (start < b.length) {
            int end = lineEnd(b, start);
            lines++;
            start = end + 1;
        }
        return lines;
    }

    /** Baseline: {@code grep -c Googlebot}, the lines that contain the token. */
    @Benchmark
    public int countGooglebot() {
        byte[] b = log;
        byte first = GOOGLEBOT[0];
        int count = 0;
        int start = 0;
        while (start < b.length) {
            int end = lineEnd(b, start);
            for (int i = start, last = end - GOOGLEBOT.length; i <= last; i++) {
                if (b[i] == first && matches(b, i)) {
                    count++;
                    break;
                }
            }
            start = end + 1;
        }
        return count;
    }

    /** The import's loop: parse every line, materialise only those the identifier may call a crawler. */
    @Benchmark
    public void parse(Blackhole hits) throws BadLineException {
        parseWith(identifier, hits);
    }

    /** {@link #parse} with the compiled nginx format instead of {@link CombinedLineParser}: the cost of a format string. */
    @Benchmark
    public void parseNginxFormat(Blackhole hits) throws BadLineException {
        byte[] b = log;
        int start = 0;
        while (start < b.length) {
            int end = lineEnd(b, start);
            hits.consume(nginxFormat.parse(b, start, end, identifier));
            start = end + 1;
        }
    }

    /**
     * Baseline for the cost of identification: every line parsed as fully as the import does, but
     * the agent filter rejects at once, so no agent is looked at and no hit is built.
     */
    @Benchmark
    public void parseWithoutIdentification(Blackhole hits) throws BadLineException {
        parseWith(NOBODY, hits);
    }

    /**
     * The import's loop with what follows the parser on the reading thread: each hit the filter kept
     * is identified by name and verified (its address is known after the first pass, as nearly every
     * crawler address is in a real log). Against {@link #parseWithoutIdentification}, this is what
     * identification and verification of known addresses cost.
     */
    @Benchmark
    public void parseIdentifyAndVerify(Blackhole out) throws BadLineException {
        byte[] b = log;
        int start = 0;
        while (start < b.length) {
            Hit hit = parser.parseLine(b, start, b.length, identifier);
            start = parser.lineEnd() + 1;
            if (hit != null) {
                Optional<Crawler> crawler = identifier.identify(hit.userAgent());
                if (crawler.isPresent()) {
                    out.consume(verifier.verify(hit.ip(), crawler.get()));
                }
            }
        }
    }

    private static final AgentFilter NOBODY = (line, from, to) -> false;

    /** Every line becomes a {@link Hit}: the cost of building strings, for comparison with {@link #parse}. */
    @Benchmark
    public void parseEveryLine(Blackhole hits) throws BadLineException {
        parseWith(AgentFilter.ALL, hits);
    }

    /** As a {@code LogReader} worker reads a chunk of a combined log: the parser finds each line's end itself. */
    private void parseWith(AgentFilter filter, Blackhole hits) throws BadLineException {
        byte[] b = log;
        int start = 0;
        while (start < b.length) {
            hits.consume(parser.parseLine(b, start, b.length, filter));
            start = parser.lineEnd() + 1;
        }
    }

    /** The index of the newline ending the line at {@code start}, found as {@code LogReader} finds it. */
    private static int lineEnd(byte[] b, int start) {
        int nl = ByteSearch.indexOf(b, start, b.length, (byte) '\n');
        return nl < 0 ? b.length : nl;
    }

    private static boolean matches(byte[] b, int at) {
        for (int k = 1; k < GOOGLEBOT.length; k++) {
            if (b[at + k] != GOOGLEBOT[k]) {
                return false;
            }
        }
        return true;
    }
}
