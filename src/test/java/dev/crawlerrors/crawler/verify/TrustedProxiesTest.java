package dev.crawlerrors.crawler.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The client behind the proxies a user trusts: the rightmost address of the forwarded field that is not one of them. */
class TrustedProxiesTest {

    // Cloudflare-like edge ranges, and a load balancer's network
    private final TrustedProxies proxies = TrustedProxies.parse("173.245.48.0/20, 2400:cb00::/32,10.0.0.0/8");

    @Test
    void anAddressThatIsNoTrustedProxyIsTheClient() {
        assertThat(proxies.client("66.249.66.1", "203.0.113.9")).isEqualTo("66.249.66.1");
    }

    @Test
    void behindATrustedProxyTheClientIsTheRightmostUntrustedForwardedAddress() {
        assertThat(proxies.client("173.245.48.5", "66.249.66.1")).isEqualTo("66.249.66.1");
        // a client that sends X-Forwarded-For itself cannot choose its address: the proxy appends the real one
        assertThat(proxies.client("173.245.48.5", "66.249.66.1, 203.0.113.9")).isEqualTo("203.0.113.9");
        // through a load balancer behind the CDN: both hops trusted
        assertThat(proxies.client("10.0.0.2", "66.249.66.1, 173.245.50.1")).isEqualTo("66.249.66.1");
        assertThat(proxies.client("2400:cb00:2048:1::c629:d7a2", "2001:4860:4801:10::1")).isEqualTo("2001:4860:4801:10::1");
        assertThat(proxies.client("::ffff:173.245.48.5", "66.249.66.1")).as("IPv4-mapped").isEqualTo("66.249.66.1");
    }

    @Test
    void portsAndSpacesAroundForwardedAddressesAreDropped() {
        assertThat(proxies.client("173.245.48.5", " 66.249.66.1:51234 ,")).isEqualTo("66.249.66.1");
        assertThat(proxies.client("173.245.48.5", "[2001:4860:4801:10::1]:443")).isEqualTo("2001:4860:4801:10::1");
    }

    @Test
    void noClientWhenTheProxyRecordsNoneOrOnlyProxiesOrGarbage() {
        assertThat(proxies.client("173.245.48.5", null)).isNull();
        assertThat(proxies.client("173.245.48.5", "173.245.50.1, 10.0.0.3")).isNull();
        assertThat(proxies.client("173.245.48.5", "66.249.66.1, unknown")).isNull();
        assertThat(proxies.client("173.245.48.5", "")).isNull();
    }

    @Test
    void noProxiesMeansTheLoggedAddressIsAlwaysTheClient() {
        assertThat(TrustedProxies.NONE.client("173.245.48.5", "66.249.66.1")).isEqualTo("173.245.48.5");
        assertThat(TrustedProxies.NONE.isEmpty()).isTrue();
    }

    @Test
    void refusesAnEntryThatIsNoAddressOrPrefixNamingIt() {
        assertThatThrownBy(() -> TrustedProxies.parse("173.245.48.0/20,cloudflare"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'cloudflare' is not an IP address or CIDR prefix such as 173.245.48.0/20 or 2400:cb00::/32");
    }
}
