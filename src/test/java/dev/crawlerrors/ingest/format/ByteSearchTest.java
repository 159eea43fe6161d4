package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ByteSearchTest {

    @Test
    void findsTheFirstMatchInWordsAndInTheTail() {
        byte[] b = "abcdefghijklmnop\"qrs\\t".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

        assertThat(ByteSearch.indexOf(b, 0, b.length, (byte) '"')).isEqualTo(16);
        assertThat(ByteSearch.indexOf(b, 0, b.length, (byte) 't')).isEqualTo(21);
        assertThat(ByteSearch.indexOf(b, 0, 16, (byte) '"')).isEqualTo(-1);
        assertThat(ByteSearch.indexOfEither(b, 0, b.length, (byte) '\\', (byte) 'q')).isEqualTo(17);
        assertThat(ByteSearch.indexOfEither(b, 18, b.length, (byte) '\\', (byte) 'q')).isEqualTo(20);
    }

    @Test
    void findsBytesWithTheHighBitSet() {
        byte[] b = {1, 2, 3, (byte) 0x80, (byte) 0xff, 5, 6, 7, 8, (byte) 0xff};

        assertThat(ByteSearch.indexOf(b, 0, b.length, (byte) 0xff)).isEqualTo(4);
        assertThat(ByteSearch.indexOf(b, 5, b.length, (byte) 0xff)).isEqualTo(9);
    }

    @Property(tries = 3000)
    void agreesWithAPlainLoop(@ForAll @Size(max = 80) byte[] b, @ForAll byte c, @ForAll byte d,
            @ForAll @IntRange(min = 0, max = 80) int from) {
        int start = Math.min(from, b.length);
        int plain = -1;
        int plainEither = -1;
        for (int i = start; i < b.length; i++) {
            if (plain < 0 && b[i] == c) {
                plain = i;
            }
            if (plainEither < 0 && (b[i] == c || b[i] == d)) {
                plainEither = i;
            }
        }
        assertThat(ByteSearch.indexOf(b, start, b.length, c)).isEqualTo(plain);
        assertThat(ByteSearch.indexOfEither(b, start, b.length, c, d)).isEqualTo(plainEither);
    }

    @Property(tries = 3000)
    void hashesAsItsDefinitionSaysWhereverTheBytesStand(@ForAll @Size(max = 60) byte[] bytes,
            @ForAll @IntRange(min = 0, max = 9) int before, @ForAll @IntRange(min = 0, max = 9) int after) {
        // the definition: little-endian words from the start, the last one zero-padded, then the length
        long h = ByteSearch.HASH_SEED;
        for (int i = 0; i < bytes.length; i += 8) {
            long word = 0;
            for (int k = Math.min(bytes.length, i + 8) - 1; k >= i; k--) {
                word = word << 8 | (bytes[k] & 0xFF);
            }
            h = ByteSearch.mixWord(h, word);
        }
        int expected = ByteSearch.finish(h, bytes.length);
        byte[] line = new byte[before + bytes.length + after];
        java.util.Arrays.fill(line, (byte) '"');
        System.arraycopy(bytes, 0, line, before, bytes.length);

        assertThat(ByteSearch.hash(line, before, before + bytes.length)).isEqualTo(expected);
        assertThat(AgentFilter.hash(bytes, 0, bytes.length)).isEqualTo(expected);
    }

    @Test
    void agentsThatDifferOnlyInTheirVersionsHashApart() {
        // browsers' agents differ in a few digits at fixed places; a hash that folds words in
        // linearly (rotate and xor) let such differences cancel, and 753 of the benchmark log's
        // 2,079 agents shared a hash, so the agent table compared whole agents again and again
        java.util.Set<Integer> hashes = new java.util.HashSet<>();
        int agents = 0;
        for (int android = 5; android <= 15; android++) {
            for (String model : new String[] {"K", "Pixel 8", "SM-S918B", "Nexus 5X", "moto g(60)"}) {
                for (int chrome = 100; chrome <= 140; chrome++) {
                    byte[] agent = ("Mozilla/5.0 (Linux; Android " + android + "; " + model
                            + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + chrome + ".0.0.0 Mobile Safari/537.36")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    hashes.add(ByteSearch.hash(agent, 0, agent.length));
                    agents++;
                }
            }
        }

        assertThat(hashes).hasSize(agents);
    }

    @Test
    void hashesOfAgentsThatDifferOnlyInLengthOrOneByteDiffer() {
        byte[] a = "Mozilla/5.0 Chrome/115.0.0.0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] b = "Mozilla/5.0 Chrome/119.0.0.0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] padded = {'a', 'b', 'c', 0};

        assertThat(ByteSearch.hash(a, 0, a.length)).isNotEqualTo(ByteSearch.hash(b, 0, b.length));
        assertThat(ByteSearch.hash(padded, 0, 3)).isNotEqualTo(ByteSearch.hash(padded, 0, 4));
    }
}
