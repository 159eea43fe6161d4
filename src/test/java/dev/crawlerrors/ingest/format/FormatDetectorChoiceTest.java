package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SampleLogs;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The detector stops trying a format once it cannot tie the best one, and tries first the formats
 * that read the first line: neither may change what it decides. Checked against every format
 * parsing every line, on logs that mix the formats (and garbage) in any proportion.
 */
class FormatDetectorChoiceTest {

    private static final String COMBINED = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /a HTTP/1.1\" 404 0 \"-\" \"Googlebot/2.1\" 0.012";

    /** One line of each kind, W3C with the directive that makes its lines readable. */
    private static final List<String> KINDS = List.of(
            COMBINED,
            COMBINED.replace(" 0.012", " 1530"),
            "www.straatinfo.be:443 " + COMBINED.replace(" 0.012", ""),
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /b HTTP/1.1\" 200 512",
            "straatinfo.be 66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /c HTTP/1.1\" 200 512",
            SampleLogs.NGINX_JSON,
            SampleLogs.CADDY,
            SampleLogs.TRAEFIK,
            SampleLogs.IIS_HEADER.strip().lines().reduce((a, b) -> b).orElseThrow() + "\n" + SampleLogs.IIS_LINE,
            "2025-05-14T09:31:02 ERROR something failed",
            "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /truncated");

    @Property(tries = 300)
    void decidesAsTryingEveryFormatOnEveryLineWould(@ForAll("logs") List<String> lines) throws Exception {
        String log = String.join("\n", lines) + "\n";
        List<String> sample = log.lines().limit(FormatDetector.SAMPLE_LINES).toList();
        Reference expected = Reference.of(sample);
        List<String> notices = new ArrayList<>();
        FormatDetector detector = new FormatDetector(notices::add);

        if (expected.unparsed * 2 > sample.size()) {
            assertThatThrownBy(() -> detector.choose(stream(log), "access.log"))
                    .isInstanceOf(UnrecognizedFormatException.class)
                    .hasMessageContaining(sample.size() == 1 ? "its only line is" : expected.unparsed + " of all " + sample.size() + " lines are");
            return;
        }
        FormatChooser.Choice choice = detector.choose(stream(log), "access.log");

        assertThat(choice.detected().getClass()).isEqualTo(expected.best.getClass());
        assertThat(choice.detected().describe()).isEqualTo(expected.best.describe());
        assertThat(notices.get(0)).contains(", " + expected.bestParsed + " parsed");
        assertThat(notices.get(0).contains("carry no user agent")).isEqualTo(expected.bestAgents == 0);
    }

    @Provide
    Arbitrary<List<String>> logs() {
        // a main kind with the others sprinkled in, or any mix at all
        Arbitrary<Integer> kind = Arbitraries.integers().between(0, KINDS.size() - 1);
        Arbitrary<List<String>> mostlyOne = Combinators.combine(kind, kind.list().ofMaxSize(8), Arbitraries.integers().between(1, 40))
                .as((main, others, n) -> {
                    List<String> lines = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        lines.add(KINDS.get(main));
                    }
                    for (int i = 0; i < others.size(); i++) {
                        lines.add((i * 7) % (lines.size() + 1), KINDS.get(others.get(i)));
                    }
                    return lines;
                });
        Arbitrary<List<String>> anyMix = kind.map(KINDS::get).list().ofMinSize(1).ofMaxSize(30);
        return Arbitraries.oneOf(mostlyOne, anyMix);
    }

    private static ByteArrayInputStream stream(String log) {
        return new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8));
    }

    /** The decision with every format tried on every line: most lines parsed, then the format listed first. */
    private record Reference(LineParser best, int bestParsed, int bestAgents, int unparsed) {

        static Reference of(List<String> sample) {
            boolean[] parsedByAny = new boolean[sample.size()];
            LineParser best = null;
            int bestParsed = -1;
            int bestAgents = 0;
            for (LogFormat format : LogFormat.DETECTED) {
                LineParser parser = format.parser();
                int parsed = 0;
                int agents = 0;
                for (int i = 0; i < sample.size(); i++) {
                    byte[] line = sample.get(i).getBytes(StandardCharsets.UTF_8);
                    try {
                        Hit hit = parser.parse(line, 0, line.length, AgentFilter.ALL);
                        parsed++;
                        parsedByAny[i] = true;
                        if (hit != null && hit.userAgent() != null) {
                            agents++;
                        }
                    } catch (BadLineException | RuntimeException e) {
                        // not this format
                    }
                }
                if (parsed > bestParsed) {
                    best = parser;
                    bestParsed = parsed;
                    bestAgents = agents;
                }
            }
            int unparsed = 0;
            for (boolean parsed : parsedByAny) {
                unparsed += parsed ? 0 : 1;
            }
            return new Reference(best, bestParsed, bestAgents, unparsed);
        }
    }
}
