package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Arbitrary lines, directives among them, may only ever be a hit, nothing, or a {@code BadLineException}. */
class W3cLineParserFuzzTest {

    @Property(tries = 3000)
    void arbitraryBytesNeverThrowAnythingElse(@ForAll @Size(max = 300) byte[] line) {
        W3cLineParser parser = withIisFields();
        FuzzLines.parseOrBadLine(parser, line, AgentFilter.ALL);
        FuzzLines.parseOrBadLine(parser, line, FuzzLines.SOME);
    }

    @Property(tries = 3000)
    void mutatedLinesAndDirectivesNeverThrowAnythingElse(@ForAll("sequences") List<byte[]> lines) {
        W3cLineParser parser = new W3cLineParser();
        for (byte[] line : lines) {
            if (line.length > 0) {
                FuzzLines.parseOrBadLine(parser, line, FuzzLines.SOME);
            }
        }
    }

    @Provide
    Arbitrary<List<byte[]>> sequences() {
        Arbitrary<byte[]> line = FuzzLines.mutationsOf(SampleLogs.IIS_LINE, SampleLogs.CLOUDFRONT_LINE,
                "#Fields: date time c-ip cs-uri-stem sc-status", "#Fields: time c-ip cs-method cs-uri sc-status cs(User-Agent) time-taken",
                "#Date: 2025-05-14 00:00:00", "08:00:00 157.55.39.1 HEAD /brugge?x 301 bingbot/2.0 7");
        Arbitrary<byte[]> header = Arbitraries.of(SampleLogs.IIS_HEADER.lines().toList())
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
        return Arbitraries.oneOf(line, header).list().ofMaxSize(8);
    }

    private static W3cLineParser withIisFields() {
        W3cLineParser parser = new W3cLineParser();
        for (String directive : SampleLogs.IIS_HEADER.lines().toList()) {
            FuzzLines.parseOrBadLine(parser, directive.getBytes(StandardCharsets.UTF_8), AgentFilter.ALL);
        }
        return parser;
    }
}
