package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogFormatTest {

    private final List<String> notices = new ArrayList<>();

    private LineParser parserFor(String value) throws Exception {
        return NamedFormats.chooser(value, notices::add).choose(new ByteArrayInputStream(new byte[0]), "access.log").parser();
    }

    @Test
    void mapsEachNameToItsParser() throws Exception {
        assertThat(NamedFormats.chooser("auto", notices::add)).isInstanceOf(FormatDetector.class);
        assertThat(((CombinedLineParser) parserFor("combined")).name()).isEqualTo("combined");
        assertThat(((CombinedLineParser) parserFor("combined-vhost")).name()).isEqualTo("combined-vhost");
        assertThat(((CombinedLineParser) parserFor("common")).name()).isEqualTo("common");
        assertThat(((CombinedLineParser) parserFor("Common-Vhost")).name()).isEqualTo("common-vhost");
        assertThat(parserFor("json")).isInstanceOf(JsonLineParser.class);
        assertThat(parserFor("W3C")).isInstanceOf(W3cLineParser.class);
        assertThat(parserFor("nginx:" + NginxFormatTest.COMBINED_WITH_TIME)).isInstanceOf(FieldLineParser.class);
        assertThat(parserFor("apache:" + ApacheFormatTest.COMBINED_WITH_TIME)).isInstanceOf(FieldLineParser.class);
        assertThat(parserFor("nginx:{\"t\":\"$msec\",\"ip\":\"$remote_addr\",\"r\":\"$request\",\"s\":$status}")).isInstanceOf(JsonLineParser.class);
    }

    @Test
    void rejectsAnUnknownNameListingTheAcceptedForms() {
        assertThatThrownBy(() -> NamedFormats.chooser("xml", notices::add))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'xml' is not a log format; use auto, combined, common, combined-vhost, common-vhost, json, w3c, "
                        + "nginx:'<log_format>' or apache:'<LogFormat>'");
        assertThatThrownBy(() -> NamedFormats.chooser("nginx", notices::add)).hasMessageStartingWith("'nginx' is not a log format");
    }

    @Test
    void rejectsAFormatStringItCannotUse() {
        assertThatThrownBy(() -> NamedFormats.chooser("nginx:$remote_addr \"$request\" $status", notices::add))
                .hasMessage("the nginx format has no field for a time: $time_local, $time_iso8601 or $msec; the report needs it");
    }

    @Test
    void saysOnceThatFormatsWithoutAnAgentStoreNothing() {
        NamedFormats.chooser("common", notices::add);
        NamedFormats.chooser("apache:%h %t \"%r\" %>s %b", notices::add);

        assertThat(notices).containsExactly(
                "format: common lines carry no user agent, so no crawler can be identified in them: lines are read and counted, "
                        + "and none is stored; log the user agent (combined format) to get a report",
                "format: this Apache format has no user agent (%{User-Agent}i), so no crawler can be identified in them: lines are read "
                        + "and counted, and none is stored; log the user agent (combined format) to get a report");
    }
}
