package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
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

    /**
     * Reading a line straight out of a chunk, finding its end while it reads the fields, either
     * gives up (the reader then cuts the line and parses it the usual way) or reads exactly what
     * parsing the cut line reads, ends the line at its first newline, and hands the filter the
     * agent's own hash.
     */
    @Property(tries = 1500)
    void findingTheLineEndReadsWhatParsingTheCutLineReads(@ForAll("chunks") byte[] chunk) {
        int newline = ByteSearch.indexOf(chunk, 0, chunk.length, (byte) '\n');
        int lineEnd = newline < 0 ? chunk.length : newline;
        int end = newline > 0 && chunk[newline - 1] == '\r' ? newline - 1 : lineEnd;
        for (LineParser variant : VARIANTS) {
            CombinedLineParser parser = (CombinedLineParser) variant.copy();
            Hit found;
            try {
                found = parser.parseLine(chunk, 0, chunk.length, HASH_CHECKING);
            } catch (BadLineException e) {
                continue;
            }
            int foundEnd = parser.lineEnd();
            Hit cut;
            try {
                cut = variant.copy().parse(chunk, 0, end, HASH_CHECKING);
            } catch (BadLineException e) {
                throw new AssertionError(((CombinedLineParser) variant).name() + " read a line that does not parse once cut: "
                        + e.getMessage());
            }
            org.assertj.core.api.Assertions.assertThat(foundEnd).isEqualTo(lineEnd);
            org.assertj.core.api.Assertions.assertThat(found).isEqualTo(cut);
        }
    }

    @Provide
    Arbitrary<byte[]> chunks() {
        return FuzzLines.chunkMutationsOf(GOOD, GOOD, VHOST_COMMON,
                "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /a\\\"b HTTP/1.1\" 200 5 \"-\" \"Mozilla \\\"x\\\\\" (Googlebot)\" 0.012",
                "1.2.3.4 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.0\" 200 1234",
                "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /*a**b* HTTP/1.1\" 200 5 \"*/*\" \"Mozilla*\u0002* (Googlebot)*\" 0.012");
    }

    /** Keeps every line, and fails when the hash a parser passes is not the agent's. */
    private static final AgentFilter HASH_CHECKING = new AgentFilter() {
        @Override
        public boolean mayBeCrawler(byte[] line, int from, int to) {
            return true;
        }

        @Override
        public boolean mayBeCrawler(byte[] line, int from, int to, int hash) {
            if (hash != AgentFilter.hash(line, from, to)) {
                throw new AssertionError("the hash passed for '" + new String(line, from, to - from, java.nio.charset.StandardCharsets.ISO_8859_1)
                        + "' is not its own");
            }
            return true;
        }
    };

    private static void parseOrBadLine(byte[] line) {
        for (LineParser parser : VARIANTS) {
            FuzzLines.parseOrBadLine(parser, line, AgentFilter.ALL);
        }
    }
}
