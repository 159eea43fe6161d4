package dev.crawlerrors.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Where a file stands in its rotated family, by its name alone, as the regular expressions it was first written with say. */
class RotationOrderTest {

    private static final Pattern NUMBERED = Pattern.compile("(.+)\\.(\\d{1,7})");
    private static final Pattern DATED = Pattern.compile("(.+?)[.\\-_](\\d{4}-?\\d{2}-?\\d{2}(?:[-_T]?\\d{2,})*|\\d{8,})");

    /** What the expressions made of {@code base} (the name without its compression extension). */
    private static List<Object> byExpressions(String base) {
        Matcher numbered = NUMBERED.matcher(base);
        if (numbered.matches()) {
            return List.of(numbered.group(1), 0, Long.parseLong(numbered.group(2)), "");
        }
        Matcher dated = DATED.matcher(base);
        if (dated.matches()) {
            return List.of(dated.group(1), 1, 0L, dated.group(2).replaceAll("\\D", ""));
        }
        return List.of(base, 2, 0L, "");
    }

    @Test
    void placesEveryKindOfNameAsTheExpressionsDid() {
        List<String> names = List.of("access.log", "access.log.1", "access.log.10", "access.log.1234567", "access.log.12345678",
                "access.log-20251102", "access.log-2025-11-02", "access.log.2025-11-02-13", "access.log_20251102T1300",
                "access.log-2025-11-02T13_00_00", "access.log-2025110", "access.log-2025-11-0", "access.log-2025-11-02-1",
                "access.log.1762041600", "E2BENCH.2025-05-14-09.b0000042", "E2BENCH.2025-05-14-09.a1b2c3d4", "u_ex251102.log",
                "site-a.log", "a.1", ".1", "1", "x-12345678", "x.y.12", "access-2025-11-02.log", "a_2025_11_02", "a.2025-11-02--13",
                "a-20251102-", "a-20251102TT13", "a-2025-1102", "a--20251102", "-20251102", "access.log.0");
        for (String name : names) {
            RotationOrder order = RotationOrder.of(name);
            assertThat(List.of(order.family(), order.rank(), order.number(), order.date())).as(name).isEqualTo(byExpressions(name));
        }
    }

    @Test
    void takesTheCompressionExtensionOffFirst() {
        assertThat(RotationOrder.of("access.log.10.gz").number()).isEqualTo(10);
        assertThat(RotationOrder.of("access.log-20251102.zst").date()).isEqualTo("20251102");
        assertThat(RotationOrder.of("access.log.gz").family()).isEqualTo("access.log");
    }
}
