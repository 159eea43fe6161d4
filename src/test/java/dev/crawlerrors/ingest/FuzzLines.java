package dev.crawlerrors.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** Inputs for the parser fuzzers: good lines with a few bytes changed and cut short anywhere. */
final class FuzzLines {

    private FuzzLines() {
    }

    /** One of {@code good}, with up to six bytes overwritten by arbitrary ones, then truncated at an arbitrary point. */
    static Arbitrary<byte[]> mutationsOf(String... good) {
        return Arbitraries.of(good).flatMap(line -> {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            return Arbitraries.integers().between(0, bytes.length - 1).list().ofMaxSize(6)
                    .flatMap(positions -> Arbitraries.bytes().list().ofSize(positions.size()).map(values -> {
                        byte[] copy = bytes.clone();
                        for (int i = 0; i < positions.size(); i++) {
                            copy[positions.get(i)] = values.get(i);
                        }
                        return copy;
                    }))
                    .flatMap(mutated -> Arbitraries.integers().between(0, mutated.length).map(cut -> Arrays.copyOf(mutated, cut)));
        });
    }

    /** Parses {@code line}; a {@link BadLineException} is the declared outcome for bad input, anything else fails the property. */
    static void parseOrBadLine(LineParser parser, byte[] line, AgentFilter filter) {
        try {
            parser.parse(line, 0, line.length, filter);
        } catch (BadLineException expected) {
            // the declared outcome for bad input
        }
    }

    /** A filter that keeps agents with an even first byte: both outcomes of the filter get exercised. */
    static final AgentFilter SOME = (b, from, to) -> to > from && (b[from] & 1) == 0;
}
