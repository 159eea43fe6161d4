package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.report.ReportPage;
import dev.crawlerrors.report.ReportRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The JSON page written by hand is Jackson's, byte for byte, whatever a log put in its rows. */
class PageJsonTest {

    private static final ObjectMapper JACKSON = new ObjectMapper();

    /** Characters a log line can bring: controls, quotes, DEL, Latin-1, the BMP, paired and lone surrogates, separators. */
    private static final String ODD = "\u0000\u0001\b\t\n\u000b\f\r\u001f \"\\/'<>&\u007f\u0080\u00e9\u00ff\u07ff\u0800\u2028\u2029"
            + "\ufeff\uffff\ud83d\ude00\ud800\udfff";

    @Test
    void writesTheBytesJacksonWritesForRowsOfEveryKindOfText() throws Exception {
        Random random = new Random(34);
        for (int n = 0; n < 400; n++) {
            ReportPage page = page(random, n % 7 == 0 ? 0 : 1 + random.nextInt(100));
            assertThat(new String(PageJson.of(page), StandardCharsets.UTF_8)).as("page " + n)
                    .isEqualTo(new String(JACKSON.writeValueAsBytes(page), StandardCharsets.UTF_8));
            assertThat(PageJson.of(page)).as("page " + n + ", its bytes").isEqualTo(JACKSON.writeValueAsBytes(page));
        }
    }

    @Test
    void writesDurationsAsJacksonDoes() throws Exception {
        List<ReportRow> rows = new ArrayList<>();
        double[] durations = {0.0, -0.0, 1.0, 12.5, 0.1, 1e7, 1.0e-5, 123456789.1, 9.99e20, Double.MAX_VALUE, Double.MIN_VALUE,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double d : durations) {
            rows.add(row(1, "/d", d, null));
        }
        rows.add(row(2, "/none", null, Boolean.TRUE));
        ReportPage page = new ReportPage(ReportPage.TITLE, Long.MAX_VALUE, 1, Integer.MAX_VALUE, 100, "Asia/Kolkata", "12.3", true, rows, true);
        assertThat(new String(PageJson.of(page), StandardCharsets.UTF_8)).isEqualTo(JACKSON.writeValueAsString(page));
    }

    private static ReportPage page(Random random, int size) {
        List<ReportRow> rows = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Boolean listed = switch (random.nextInt(3)) {
                case 0 -> null;
                case 1 -> Boolean.TRUE;
                default -> Boolean.FALSE;
            };
            rows.add(new ReportRow(random.nextLong(), text(random), text(random), text(random), text(random), random.nextInt(),
                    random.nextBoolean() ? null : Math.round(random.nextDouble() * 1e6) / 10.0, text(random), text(random),
                    text(random), text(random), text(random), text(random), listed));
        }
        return new ReportPage(text(random), random.nextLong(), random.nextInt(), random.nextInt(), 100, text(random), text(random),
                random.nextBoolean(), rows, random.nextBoolean());
    }

    private static ReportRow row(long id, String url, Double duration, Boolean listed) {
        return new ReportRow(id, "2026-10-14T08:00", "66.249.66.1", "GET", url, 404, duration, "crawler_search", "verified",
                "Googlebot", "reverse DNS", "Googlebot/2.1", null, listed);
    }

    /** Null, plain ASCII, or a mix with the odd characters. */
    private static String text(Random random) {
        int kind = random.nextInt(6);
        if (kind == 0) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(kind == 1 ? 3 : 80);
        for (int i = 0; i < length; i++) {
            text.append(kind < 4 ? (char) (' ' + random.nextInt(95)) : random.nextInt(4) == 0
                    ? ODD.charAt(random.nextInt(ODD.length())) : (char) random.nextInt(0x10000));
        }
        return text.toString();
    }
}
