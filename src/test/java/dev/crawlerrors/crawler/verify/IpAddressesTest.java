package dev.crawlerrors.crawler.verify;

import static org.assertj.core.api.Assertions.assertThat;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

class IpAddressesTest {

    @Test
    void readsDottedQuadsItselfAndTheRestThroughTheLibrary() {
        assertThat((Object) IpAddresses.dottedQuad("66.249.66.1")).isNotNull();
        assertThat((Object) IpAddresses.dottedQuad("66.249.64.0/19")).isNotNull();
        assertThat((Object) IpAddresses.dottedQuad("0.0.0.0/0")).isNotNull();
        for (String other : new String[] {"066.249.66.1", "66.249.66", "66.249.66.1.", "66.249.66.256", "66.249.66.1/33",
                "66.249.66.1/019", "66.249.66.1/", "66.249.66.1 ", "1.2.3.4/x", "2001:4860:4801:10::1", "", "-", "1..2.3"}) {
            assertThat((Object) IpAddresses.dottedQuad(other)).as(other).isNull();
            assertThat((Object) IpAddresses.parse(other)).as(other).isEqualTo(single(new IPAddressString(other).getAddress()));
        }
        assertThat((Object) IpAddresses.parse("-")).as("the library's '-', every address").isNull();
    }

    @Test
    void aRangeTheLibraryReadsIsNoAddress() {
        // a log's client address of '-6.249.66.3' (a range, 0-6.249.66.3, to the library) threw from the lists' trie
        for (String range : new String[] {"-6.249.66.3", "1.2.3.*", "1.2.3.4-5", "2001:db8::1-ff"}) {
            assertThat((Object) IpAddresses.parse(range)).as(range).isNull();
        }
        assertThat(IpAddresses.parse("2001:4860:4801:10::/64").isPrefixBlock()).isTrue();
        assertThat(IpAddresses.parse("2001:4860:4801:10::1").toCanonicalString()).isEqualTo("2001:4860:4801:10::1");
    }

    @Property(tries = 3000)
    void givesWhatTheLibraryGives(@ForAll("addressLike") String text) {
        IPAddress library = single(new IPAddressString(text).getAddress());
        IPAddress ours = IpAddresses.parse(text);

        assertThat((Object) ours).as(text).isEqualTo(library);
        if (library != null) {
            assertThat(ours.getNetworkPrefixLength()).as(text).isEqualTo(library.getNetworkPrefixLength());
            assertThat((Object) ours.toPrefixBlock()).as(text).isEqualTo(library.toPrefixBlock());
            assertThat(ours.toCanonicalString()).as(text).isEqualTo(library.toCanonicalString());
        }
    }

    /** What the library read, when it is one address or one prefix block. */
    private static IPAddress single(IPAddress read) {
        return read != null && read.isMultiple() && !read.isPrefixBlock() ? null : read;
    }

    @Provide
    Arbitrary<String> addressLike() {
        Arbitrary<String> number = Arbitraries.frequencyOf(
                Tuple.of(16, Arbitraries.integers().between(0, 255).map(String::valueOf)),
                Tuple.of(2, Arbitraries.integers().between(256, 999).map(String::valueOf)),
                Tuple.of(2, Arbitraries.strings().withChars("0123456789x ").ofMaxLength(4)));
        Arbitrary<String> quad = Arbitraries.frequencyOf(
                Tuple.of(8, number.list().ofSize(4)),
                Tuple.of(2, number.list().ofMinSize(1).ofMaxSize(5))).map(parts -> String.join(".", parts));
        Arbitrary<String> prefix = Arbitraries.oneOf(Arbitraries.just(""),
                Arbitraries.integers().between(0, 40).map(n -> "/" + n),
                Arbitraries.strings().withChars("0123456789/").ofMaxLength(4).map(s -> "/" + s));
        return net.jqwik.api.Combinators.combine(quad, prefix).as(String::concat);
    }
}
