package dev.crawlerrors.ingest;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Arbitrary input may only ever be a hit, a dropped line, or a {@link BadLineException}, in every NCSA variant. */
class CombinedLineParserFuzzTest {

    private static final String GOOD =
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 162 \"-\" \"Googlebot/2.1\" 0.012";

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
        byte[] good = GOOD.getBytes(StandardCharsets.UTF_8);
        return Arbitraries.integers().between(0, good.length - 1).list().ofMaxSize(6)
                .flatMap(positions -> Arbitraries.bytes().list().ofSize(positions.size()).map(values -> {
                    byte[] copy = good.clone();
                    for (int i = 0; i < positions.size(); i++) {
                        copy[positions.get(i)] = values.get(i);
                    }
                    return copy;
                }))
                .flatMap(line -> Arbitraries.integers().between(0, line.length)
                        .map(cut -> java.util.Arrays.copyOf(line, cut)));
    }

    private static final LineParser[] VARIANTS = {CombinedLineParser.combined(), CombinedLineParser.combinedVhost(),
        CombinedLineParser.common(), CombinedLineParser.commonVhost()};

    private static void parseOrBadLine(byte[] line) {
        for (LineParser parser : VARIANTS) {
            try {
                parser.parse(line, 0, line.length, AgentFilter.ALL);
            } catch (BadLineException expected) {
                // the declared outcome for bad input
            }
        }
    }
}
