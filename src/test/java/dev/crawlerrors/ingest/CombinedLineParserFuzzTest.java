package dev.crawlerrors.ingest;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Arbitrary input may only ever be a hit, a dropped line, or a {@link BadLineException}, in every NCSA variant. */
class CombinedLineParserFuzzTest {

    private static final String GOOD =
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 162 \"-\" \"Googlebot/2.1\" 0.012";
    private static final String VHOST_COMMON = "www.example.org:443 66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 200 5 7ms";

    private static final LineParser[] VARIANTS = {CombinedLineParser.combined(), CombinedLineParser.combinedVhost(),
        CombinedLineParser.common(), CombinedLineParser.commonVhost()};

    @Property(tries = 3000)
    void arbitraryBytesNeverThrowAnythingElse(@ForAll @Size(max = 300) byte[] line) {
        parseOrBadLine(line);
    }

    @Property(tries = 3000)
    void mutatedLinesNeverThrowAnythingElse(@ForAll("mutations") byte[] line) {
        parseOrBadLine(line);
    }

    @Provide
    Arbitrary<byte[]> mutations() {
        return FuzzLines.mutationsOf(GOOD, VHOST_COMMON);
    }

    private static void parseOrBadLine(byte[] line) {
        for (LineParser parser : VARIANTS) {
            FuzzLines.parseOrBadLine(parser, line, AgentFilter.ALL);
        }
    }
}
