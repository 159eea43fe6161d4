package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.SampleLogs;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Arbitrary input may only ever be a hit, a dropped line, or a {@code BadLineException}. */
class JsonLineParserFuzzTest {

    private final LineParser parser = new JsonLineParser();

    @Property(tries = 3000)
    void arbitraryBytesNeverThrowAnythingElse(@ForAll @Size(max = 300) byte[] line) {
        FuzzLines.parseOrBadLine(parser, line, AgentFilter.ALL);
        FuzzLines.parseOrBadLine(parser, line, FuzzLines.SOME);
    }

    @Property(tries = 3000)
    void mutatedLinesNeverThrowAnythingElse(@ForAll("mutations") byte[] line) {
        FuzzLines.parseOrBadLine(parser, line, AgentFilter.ALL);
        FuzzLines.parseOrBadLine(parser, line, FuzzLines.SOME);
    }

    @Provide
    Arbitrary<byte[]> mutations() {
        return FuzzLines.mutationsOf(SampleLogs.NGINX_JSON, SampleLogs.CADDY, SampleLogs.TRAEFIK,
                "{\"http_user_agent\":\"a\\u00e9\\ud83d\\ude00\\\"\",\"ts\":1.5e9,\"ip\":\"::1\",\"uri\":\"/\",\"status\":200}");
    }
}
