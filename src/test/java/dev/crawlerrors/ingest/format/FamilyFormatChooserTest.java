package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A family of logs is detected once, and a log of another format among them is detected as what it is. */
class FamilyFormatChooserTest {

    private static final String COMBINED = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /a HTTP/1.1\" 404 0 \"-\" \"Googlebot/2.1\"\n";
    /** nginx's {@code $server_addr $remote_addr ...}: a virtual host that is an address, which a combined parser reads too. */
    private static final String VHOST_BY_ADDRESS = "192.0.2.10 " + COMBINED;
    private static final String VHOST_BY_NAME = "neutralbank.example:443 " + COMBINED;

    private final List<String> notices = new ArrayList<>();
    private final FamilyFormatChooser chooser = new FamilyFormatChooser(new FormatDetector(notices::add));

    private LogFormat choose(String log, String name) throws Exception {
        FormatChooser.Choice choice = chooser.choose(new ByteArrayInputStream(log.repeat(3).getBytes(StandardCharsets.UTF_8)), name);
        assertThat(new String(choice.in().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(log.repeat(3));
        return choice.format();
    }

    @Test
    void detectsTheFirstLogOfAFamilyAndKeepsItsFormatForTheNextSilently() throws Exception {
        assertThat(choose(COMBINED, "access.log.2")).isEqualTo(LogFormat.COMBINED);
        assertThat(choose(COMBINED, "access.log.1")).isEqualTo(LogFormat.COMBINED);

        assertThat(notices).hasSize(1);
    }

    @Test
    void detectsALogWhoseFirstLinesAreBadInTheFamilysFormat() throws Exception {
        assertThat(choose(COMBINED, "access.log.1")).isEqualTo(LogFormat.COMBINED);
        assertThat(choose(VHOST_BY_NAME, "other_vhosts_access.log.1")).isEqualTo(LogFormat.COMBINED_VHOST);
        assertThat(choose(COMBINED, "access.log")).isEqualTo(LogFormat.COMBINED);

        assertThat(notices).hasSize(3);
    }

    @Test
    void detectsALogThatTheFamilysFormatReadsButDetectionWouldNotChoose() throws Exception {
        assertThat(choose(COMBINED, "access.log.1")).isEqualTo(LogFormat.COMBINED);
        assertThat(choose(VHOST_BY_ADDRESS, "vhosts.log")).isEqualTo(LogFormat.COMBINED_VHOST);
    }

    @Test
    void aFormatIsDetectedInALogOnlyWhereDetectionWouldChooseIt() {
        assertThat(LogFormat.COMBINED.isDetectedIn(bytes(COMBINED), lines(COMBINED))).isTrue();
        assertThat(LogFormat.COMBINED_VHOST.isDetectedIn(bytes(COMBINED), lines(COMBINED))).isFalse();
        assertThat(LogFormat.COMBINED.isDetectedIn(bytes(VHOST_BY_ADDRESS), lines(VHOST_BY_ADDRESS))).isFalse();
        assertThat(LogFormat.COMBINED_VHOST.isDetectedIn(bytes(VHOST_BY_ADDRESS), lines(VHOST_BY_ADDRESS))).isTrue();
        assertThat(LogFormat.COMBINED.isDetectedIn(bytes(VHOST_BY_NAME), lines(VHOST_BY_NAME))).isFalse();
        // directives alone are no request: a W3C log is checked on its requests too
        String header = "#Software: Microsoft Internet Information Services 10.0\n#Fields: date time c-ip cs-method cs-uri-stem sc-status\n";
        assertThat(LogFormat.W3C.isDetectedIn(bytes(header), lines(header))).isFalse();
        String w3c = header + "2025-05-14 07:31:02 66.249.66.1 GET / 404\n";
        assertThat(LogFormat.W3C.isDetectedIn(bytes(w3c), lines(w3c))).isTrue();
    }

    private static byte[] bytes(String log) {
        return log.getBytes(StandardCharsets.UTF_8);
    }

    private static int[] lines(String log) {
        return LogHead.read(new ByteArrayInputStream(bytes(log)), FamilyFormatChooser.CHECK_LINES, 1 << 14).lines(FamilyFormatChooser.CHECK_LINES);
    }
}
