package dev.crawlerrors.ingest.format;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Compiled format strings: arbitrary lines may only ever be a hit, a dropped line, or a
 * {@code BadLineException}; arbitrary format strings only a parser or an {@link IllegalArgumentException}.
 */
class FieldLineParserFuzzTest {

    private static final String NGINX_CUSTOM = "$host $remote_addr [$time_iso8601] $request_method $uri?$args $status "
            + "$bytes_sent rt=$request_time urt=\"$upstream_response_time\" ua=\"$http_user_agent\" \"$http_x_forwarded_for\"";
    private static final String APACHE_CUSTOM = "%v:%p %a %{msec}t \"%m %U%q %H\" %>s %B %{ms}T \"%{User-Agent}i\"";

    private static final LineParser[] PARSERS = {NginxFormat.compile(NginxFormatTest.COMBINED_WITH_TIME), NginxFormat.compile(NGINX_CUSTOM),
        ApacheFormat.compile(ApacheFormatTest.COMBINED_WITH_TIME), ApacheFormat.compile(APACHE_CUSTOM)};

    @Property(tries = 3000)
    void arbitraryBytesNeverThrowAnythingElse(@ForAll @Size(max = 300) byte[] line) {
        for (LineParser parser : PARSERS) {
            FuzzLines.parseOrBadLine(parser, line, FuzzLines.SOME);
        }
    }

    @Property(tries = 3000)
    void mutatedLinesNeverThrowAnythingElse(@ForAll("mutations") byte[] line) {
        for (LineParser parser : PARSERS) {
            FuzzLines.parseOrBadLine(parser, line, AgentFilter.ALL);
        }
    }

    @Provide
    Arbitrary<byte[]> mutations() {
        return FuzzLines.mutationsOf(
                "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /a?b HTTP/1.1\" 404 153 \"-\" \"Googlebot/2.1\" 0.012",
                "www.straatinfo.be:443 10.0.0.2 [2025-05-14T09:31:02+02:00] POST /api?q=1 503 390 rt=0.250 urt=\"0.100, 0.148\" "
                        + "ua=\"Googlebot\" \"66.249.66.1, 10.0.0.1\"",
                "h:80 2001:db8::7 1747207862123 \"GET /antwerpen?page=2 HTTP/2.0\" 500 0 87 \"Googlebot/2.1\"");
    }

    @Property(tries = 3000)
    void arbitraryFormatStringsCompileOrAreRejectedWithAMessage(@ForAll("formats") String format) {
        for (boolean nginx : new boolean[] {true, false}) {
            try {
                LineParser parser = nginx ? NginxFormat.compile(format) : ApacheFormat.compile(format);
                FuzzLines.parseOrBadLine(parser, format.getBytes(java.nio.charset.StandardCharsets.UTF_8), AgentFilter.ALL);
            } catch (IllegalArgumentException expected) {
                // the declared outcome for a format that cannot be used
            }
        }
    }

    @Provide
    Arbitrary<String> formats() {
        Arbitrary<String> pieces = Arbitraries.oneOf(
                Arbitraries.of("$remote_addr", "$time_local", "$time_iso8601", "$msec", "$request", "$status", "$request_uri",
                        "$http_user_agent", "$upstream_response_time", "${host}", "$", "${", "%h", "%t", "%r", "%>s", "%{User-Agent}i",
                        "%U", "%q", "%{msec}t", "%", "%{", "%400,501{Referer}i", "\"", " ", "[", "]", " - ", "'", "{\"k\":\"$status\"}"),
                Arbitraries.strings().ofMaxLength(4));
        return pieces.list().ofMaxSize(12).map(list -> String.join("", list));
    }
}
