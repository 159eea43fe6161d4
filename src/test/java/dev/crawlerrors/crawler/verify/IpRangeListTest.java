package dev.crawlerrors.crawler.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import inet.ipaddr.IPAddressString;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a published list must look like to be believed: the shapes operators publish, and what is refused. */
class IpRangeListTest {

    private static final Instant FETCHED = Instant.parse("2026-11-21T10:00:00Z");
    private static final String ORIGIN = "https://example.test/list.json";

    private static IpRangeList parse(String json) throws ListRefusedException {
        return IpRangeList.parse("list.json", json.getBytes(StandardCharsets.UTF_8), FETCHED, ORIGIN);
    }

    private static String listed(IpRangeList list, String ip) {
        return list.prefixContaining(new IPAddressString(ip).getAddress()).orElse(null);
    }

    @Test
    void readsGoogleStyleListsWithExtraKeysAndAnRfc3339CreationTime() throws Exception {
        // Common Crawl's shape: a sync token and notes beside the prefixes, the time in RFC 3339
        IpRangeList list = parse("""
                {"synctoken": "20261120100000", "creationTime": "2026-11-20T10:00:00Z", "notes": "CCBot ranges",
                 "prefixes": [{"ipv6Prefix": "2600:1f28:365:8000::/56"}, {"ipv4Prefix": "18.97.9.168/29"}]}
                """);

        assertThat(list.prefixCount()).isEqualTo(2);
        assertThat(listed(list, "18.97.9.170")).isEqualTo("18.97.9.168/29");
        assertThat(listed(list, "2600:1f28:365:8000::1")).isEqualTo("2600:1f28:365:8000::/56");
        assertThat(list.dated()).isEqualTo("created 2026-11-20");
        assertThat(list.describe()).isEqualTo("list.json: 2 prefixes, created 2026-11-20T10:00:00Z, fetched 2026-11-21T10:00Z from " + ORIGIN);
    }

    @Test
    void readsAListWithoutCreationTimeAndDatesItByItsFetch() throws Exception {
        // Ahrefs' range list states no creation time
        IpRangeList list = parse("{\"prefixes\": [{\"ipv4Prefix\": \"54.36.148.0/23\"}, {\"ipv4Prefix\": \"5.39.1.224/27\"}]}");

        assertThat(listed(list, "54.36.149.1")).isEqualTo("54.36.148.0/23");
        assertThat(list.dated()).isEqualTo("fetched 2026-11-21");
    }

    @Test
    void readsAListOfSingleAddresses() throws Exception {
        // Ahrefs' other list: {"ips": [{"ip_address": ...}]}
        IpRangeList list = parse("{\"ips\": [{\"ip_address\": \"54.36.148.1\"}, {\"ip_address\": \"2001:41d0:8:d7::1\"}]}");

        assertThat(list.prefixCount()).isEqualTo(2);
        assertThat(listed(list, "54.36.148.1")).isEqualTo("54.36.148.1");
        assertThat(listed(list, "54.36.148.2")).isNull();
    }

    @Test
    void refusesAnEmptyList() {
        assertThatThrownBy(() -> parse("{\"creationTime\": \"2026-11-21T00:00:00\", \"prefixes\": []}"))
                .isInstanceOf(ListRefusedException.class)
                .hasMessage("list.json from " + ORIGIN + " lists no address prefixes (it is empty)");
    }

    @Test
    void refusesAListWhoseEntriesAreAllUnderUnknownKeys() {
        assertThatThrownBy(() -> parse("{\"prefixes\": [{\"ipPrefix\": \"66.249.64.0/19\"}, {\"cidr\": \"66.249.96.0/20\"}]}"))
                .isInstanceOf(ListRefusedException.class)
                .hasMessage("list.json from " + ORIGIN + " lists no address prefixes it can read (2 entries such as "
                        + "{ipPrefix=66.249.64.0/19} are under keys other than ipv4Prefix and ipv6Prefix)");
    }

    @Test
    void refusesAMostlyUnreadableList() {
        assertThatThrownBy(() -> parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/19\"}, {\"v4\": \"66.249.96.0/20\"},"
                + " {\"v4\": \"66.249.112.0/20\"}]}"))
                .isInstanceOf(ListRefusedException.class)
                .hasMessage("list.json from " + ORIGIN + " is mostly unreadable: 2 of 3 entries, such as {v4=66.249.96.0/20},"
                        + " are under keys other than ipv4Prefix and ipv6Prefix");
    }

    @Test
    void keepsAListWithAFewUnreadableEntriesAndSaysHowMany() throws Exception {
        IpRangeList list = parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/19\"}, {\"ipv4Prefix\": \"66.249.96.0/20\"},"
                + " {\"comment\": \"new ranges soon\"}]}");

        assertThat(list.prefixCount()).isEqualTo(2);
        assertThat(list.describe()).startsWith("list.json: 2 prefixes (1 entry not read: unknown keys), created (not stated)");
    }

    @Test
    void refusesAListThatHoldsTheWholeInternet() {
        assertThatThrownBy(() -> parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/19\"}, {\"ipv4Prefix\": \"0.0.0.0/0\"}]}"))
                .isInstanceOf(ListRefusedException.class)
                .hasMessage("list.json from " + ORIGIN + " lists 0.0.0.0/0, broader than /8: no crawler's list holds such a block");
        assertThatThrownBy(() -> parse("{\"prefixes\": [{\"ipv6Prefix\": \"::/0\"}]}"))
                .hasMessage("list.json from " + ORIGIN + " lists ::/0, broader than /16: no crawler's list holds such a block");
    }

    @Test
    void refusesPrefixesJustBroaderThanTheBoundAndTakesTheBound() throws Exception {
        assertThatThrownBy(() -> parse("{\"prefixes\": [{\"ipv4Prefix\": \"64.0.0.0/7\"}]}"))
                .hasMessageContaining("lists 64.0.0.0/7, broader than /8");
        assertThatThrownBy(() -> parse("{\"prefixes\": [{\"ipv6Prefix\": \"2000::/15\"}]}"))
                .hasMessageContaining("lists 2000::/15, broader than /16");
        assertThat(parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.0.0.0/8\"}, {\"ipv6Prefix\": \"2001::/16\"}]}").prefixCount()).isEqualTo(2);
    }

    @Test
    void refusesAWebPageAndGooglesActionNeededDocument() {
        assertThatThrownBy(() -> parse("<!DOCTYPE html><html><body>Action needed: this page has moved</body></html>"))
                .isInstanceOf(ListRefusedException.class)
                .hasMessageStartingWith("list.json from " + ORIGIN + " is not JSON: ");
        assertThatThrownBy(() -> parse("{\"error\": {\"code\": 403, \"message\": \"Action needed\"}}"))
                .isInstanceOf(ListRefusedException.class)
                .hasMessage("list.json from " + ORIGIN + " has no \"prefixes\" array");
    }

    @Test
    void refusesACopyFarSmallerThanTheOneInUse() throws Exception {
        IpRangeList inUse = parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/27\"}, {\"ipv4Prefix\": \"66.249.64.32/27\"},"
                + " {\"ipv4Prefix\": \"66.249.64.64/27\"}, {\"ipv4Prefix\": \"66.249.64.96/27\"}, {\"ipv4Prefix\": \"66.249.64.128/27\"}]}");
        IpRangeList halved = parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/27\"}, {\"ipv4Prefix\": \"66.249.64.32/27\"},"
                + " {\"ipv4Prefix\": \"66.249.64.64/27\"}]}");
        IpRangeList shrunk = parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/27\"}, {\"ipv4Prefix\": \"66.249.64.32/27\"}]}");

        halved.requireNotFarSmallerThan(inUse, "the copy fetched 2026-11-20T10:00Z");
        assertThatThrownBy(() -> shrunk.requireNotFarSmallerThan(inUse, "the copy fetched 2026-11-20T10:00Z"))
                .isInstanceOf(ListRefusedException.class)
                .hasMessage("list.json from " + ORIGIN + " lists 2 prefixes, fewer than half of the 5 in the copy fetched 2026-11-20T10:00Z");
    }

    @Test
    void saysHowOldTheListIs() throws Exception {
        IpRangeList list = parse("{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.0/19\"}]}");

        assertThat(list.age(FETCHED.plusSeconds(3600))).isEqualTo("less than a day old");
        assertThat(list.age(FETCHED.plusSeconds(86_400))).isEqualTo("1 day old");
        assertThat(list.describe(FETCHED.plusSeconds(12 * 86_400))).isEqualTo(
                "list.json: 1 prefix, created (not stated), fetched 2026-11-21T10:00Z from " + ORIGIN + ", 12 days old");
    }
}
