package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** Inputs for the parser fuzzers: good lines with a few bytes changed and cut short anywhere. */
public final class FuzzLines {

    private FuzzLines() {
    }

    /** One of {@code good}, with up to six bytes overwritten by arbitrary ones, then truncated at an arbitrary point. */
    public static Arbitrary<byte[]> mutationsOf(String... good) {
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

    /**
     * As {@link #mutationsOf}, with the bytes written taken mostly from the ones that end fields and
     * lines (newline, carriage return, quote, backslash, space), and {@code next} after the line
     * half the time: lines as they stand in a chunk of log.
     */
    public static Arbitrary<byte[]> chunkMutationsOf(String next, String... good) {
        Arbitrary<Byte> special = Arbitraries.of((byte) '\n', (byte) '\r', (byte) '"', (byte) '\\', (byte) ' ', (byte) '-');
        Arbitrary<Byte> written = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, special), net.jqwik.api.Tuple.of(1, Arbitraries.bytes()));
        return Arbitraries.of(good).flatMap(line -> {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            return Arbitraries.integers().between(0, bytes.length - 1).list().ofMaxSize(4)
                    .flatMap(positions -> written.list().ofSize(positions.size()).map(values -> {
                        byte[] copy = bytes.clone();
                        for (int i = 0; i < positions.size(); i++) {
                            copy[positions.get(i)] = values.get(i);
                        }
                        return copy;
                    }))
                    .flatMap(mutated -> Arbitraries.integers().between(0, mutated.length).map(cut -> Arrays.copyOf(mutated, cut)))
                    .flatMap(cut -> Arbitraries.of("", "\n", "\r\n", "\n" + next).map(after -> {
                        byte[] tail = after.getBytes(StandardCharsets.UTF_8);
                        byte[] chunk = Arrays.copyOf(cut, cut.length + tail.length);
                        System.arraycopy(tail, 0, chunk, cut.length, tail.length);
                        return chunk;
                    }));
        });
    }

    /** Parses {@code line}; a {@link BadLineException} is the declared outcome for bad input, anything else fails the property. */
    public static void parseOrBadLine(LineParser parser, byte[] line, AgentFilter filter) {
        try {
            parser.parse(line, 0, line.length, filter);
        } catch (BadLineException expected) {
            // the declared outcome for bad input
        }
    }

    /** A filter that keeps agents with an even first byte: both outcomes of the filter get exercised. */
    public static final AgentFilter SOME = (b, from, to) -> to > from && (b[from] & 1) == 0;
}
