package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import inet.ipaddr.IPAddressString;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.ByteRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Only addresses are addresses: a host name, with a port or not, is not. */
class AddressTextTest {

    private static boolean address(String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        return AddressText.isAddress(b, 0, b.length);
    }

    private static boolean addressWithPort(String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        return AddressText.isAddressWithPort(b, 0, b.length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"66.249.66.1", "0.0.0.0", "255.255.255.255", "2001:4860:4801:10::1", "::1", "::", "1::", "fe80::1%eth0",
            "::ffff:192.0.2.1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:192.0.2.1", "[2001:db8::1]", "2001:DB8::A"})
    void acceptsAddresses(String text) {
        assertThat(address(text)).isTrue();
        assertThat(addressWithPort(text)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"neutralbank.app:443", "neutralbank.app", "www.example.org", "localhost", "-", "", "unknown",
            "66.249.66", "66.249.66.1.5", "256.1.1.1", "1.2.3.4567", "66.249.66.1:443", "1:2:3:4:5:6:7:8:9", "1::2::3", ":::",
            "1:", ":1", "12345::1", "fe80::1%", "[66.249.66.1]", "[::1", "::1]", "g::1", "1.2.3.4%eth0"})
    void rejectsWhatIsNoAddress(String text) {
        assertThat(address(text)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"66.249.66.1:443", "[2001:db8::1]:8080", "192.0.2.1:0", "[::1]:65535"})
    void acceptsAPortWhereTheFormatWritesOne(String text) {
        assertThat(address(text)).isFalse();
        assertThat(addressWithPort(text)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"neutralbank.app:443", "66.249.66.1:65536", "66.249.66.1:", "66.249.66.1:x", "2001:db8::1:99999",
            "[::1]:", "host:80"})
    void rejectsAHostNameOrABadPortWithAPort(String text) {
        assertThat(addressWithPort(text)).isFalse();
    }

    /** Whatever the bytes, what is taken for an address is one to the address library the verifier uses. */
    @Property(tries = 3000)
    void takesForAnAddressOnlyWhatIsOne(@ForAll @Size(max = 24) @ByteRange(min = '.', max = 'f') byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        if (address(text)) {
            assertThat(new IPAddressString(text).isIPAddress()).as(text).isTrue();
        }
    }
}
