package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** A state resumed from its carry and given the later hits is the state of all the hits. */
class UrlStateBuilderTest {

    private static final int[] STATUSES = {200, 304, 301, 404, 503};

    @Test
    void aStateResumedFromItsCarryGoesOnAsTheWholeHistory() {
        Random random = new Random(7);
        for (int run = 0; run < 2_000; run++) {
            int n = 1 + random.nextInt(12);
            int[] statuses = new int[n];
            for (int i = 0; i < n; i++) {
                statuses[i] = STATUSES[random.nextInt(STATUSES.length)];
            }
            int split = random.nextInt(n + 1);
            UrlStateBuilder whole = new UrlStateBuilder(1, "h", "/u");
            UrlStateBuilder first = new UrlStateBuilder(1, "h", "/u");
            for (int i = 0; i < n; i++) {
                whole.add(1_000L * (i + 1), statuses[i]);
                if (i < split) {
                    first.add(1_000L * (i + 1), statuses[i]);
                }
            }
            UrlStateBuilder resumed = first.isEmpty() ? new UrlStateBuilder(1, "h", "/u")
                    : UrlStateBuilder.resume(first.build(), first.carry());
            for (int i = split; i < n; i++) {
                resumed.add(1_000L * (i + 1), statuses[i]);
            }
            assertThat(resumed.build()).as("statuses %s split at %d", java.util.Arrays.toString(statuses), split).isEqualTo(whole.build());
            assertThat(resumed.carry()).isEqualTo(whole.carry());
        }
    }
}
