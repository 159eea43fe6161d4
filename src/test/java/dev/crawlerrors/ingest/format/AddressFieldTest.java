package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every format's client field takes an address and nothing else: a host name there makes a bad
 * line, wherever a hit would be made of it. A line the agent filter drops is not looked at further.
 */
class AddressFieldTest {

    private static final String TAIL = " - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"" + SampleLogs.GOOGLEBOT + "\"";
    private static final AgentFilter NOBODY = (line, from, to) -> false;

    private static Hit parse(LineParser parser, String line, AgentFilter filter) throws BadLineException {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return parser.parse(b, 0, b.length, filter);
    }

    /** {@code host} in the client field of a line of each format. */
    private static void assertBadInEveryFormat(String host) throws Exception {
        assertThatThrownBy(() -> parse(CombinedLineParser.combined(), host + TAIL, AgentFilter.ALL))
                .isInstanceOf(BadLineException.class).extracting(e -> ((BadLineException) e).reason()).isEqualTo("no client address");
        assertThatThrownBy(() -> parse(CombinedLineParser.common(), host + " - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5",
                AgentFilter.ALL)).extracting(e -> ((BadLineException) e).reason()).isEqualTo("no client address");
        assertThatThrownBy(() -> parse(NginxFormat.compile("$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                + "\"$http_referer\" \"$http_user_agent\""), host + TAIL, AgentFilter.ALL))
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("no client address");
        W3cLineParser iis = new W3cLineParser();
        for (String directive : SampleLogs.IIS_HEADER.split("\n")) {
            parse(iis, directive, AgentFilter.ALL);
        }
        assertThatThrownBy(() -> parse(iis, SampleLogs.IIS_LINE.replace(" 66.249.66.1 ", " " + host + " "), AgentFilter.ALL))
                .extracting(e -> ((BadLineException) e).reason()).isEqualTo("no client address");
        assertThatThrownBy(() -> parse(new JsonLineParser(), SampleLogs.NGINX_JSON.replace("\"66.249.66.1\"", "\"" + host + "\""),
                AgentFilter.ALL)).extracting(e -> ((BadLineException) e).reason()).isEqualTo("no client address");
    }

    @ParameterizedTest
    @ValueSource(strings = {"neutralbank.example", "www.example.org", "crawl-66-249-66-1.googlebot.com", "unknown", "999.1.1.1"})
    void aHostNameIsNoClientAddressInAnyFormat(String host) throws Exception {
        assertBadInEveryFormat(host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"66.249.66.1", "2001:4860:4801:10::1", "[2001:4860:4801:10::1]"})
    void anAddressIsOneInEveryFormat(String address) throws Exception {
        String bare = address.replace("[", "").replace("]", "");
        assertThat(parse(CombinedLineParser.combined(), address + TAIL, AgentFilter.ALL).ip()).isEqualTo(bare);
        assertThat(parse(NginxFormat.compile("$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
                + "\"$http_referer\" \"$http_user_agent\""), address + TAIL, AgentFilter.ALL).ip()).isEqualTo(bare);
    }

    @ParameterizedTest
    @ValueSource(strings = {"neutralbank.example:443", "www.example.org"})
    void aLineTheAgentFilterDropsIsDroppedWhateverItsClient(String host) throws Exception {
        assertThat(parse(CombinedLineParser.combined(), host + TAIL, NOBODY)).isNull();
    }
}
