package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MinuteChangeTest {

    @Test
    void keepsEachMinuteThatChangedAndLeavesOutThoseThatCameBackToNought() {
        Map<Long, Long> change = new LinkedHashMap<>();
        change.put(29_000_000L, 3L);
        change.put(29_000_001L, 0L); // a hit in, and its verdict moved it out again
        change.put(29_000_002L, -2L);

        MinuteChange minutes = MinuteChange.of(change);

        assertThat(minutes.minutes()).containsExactly(29_000_000L, 29_000_002L);
        assertThat(minutes.counts()).containsExactly(3L, -2L);
        assertThat(MinuteChange.of(Map.of(29_000_001L, 0L)).isEmpty()).isTrue();
    }
}
