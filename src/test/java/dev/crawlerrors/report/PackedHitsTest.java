package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.StoredHit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A packed page unpacks to the records packed, field for field and bit for bit. */
class PackedHitsTest {

    private static final String[] TEXTS = {null, "", "GET", "/a?q=1", "/straße/€", "\uD83D\uDE00 emoji", "half \uD800 surrogate",
            "ÿ latin", "Mozilla/5.0 (compatible; Googlebot/2.1)", "verified", "x".repeat(300)};
    private static final Double[] DURATIONS = {null, 0.0, -0.0, 12.5, 3.0, -4.0, 1e300, Double.NaN, Double.POSITIVE_INFINITY,
            9007199254740993.0, 0.1, 1234567.0};

    @Test
    void randomPagesUnpackToWhatWasPacked() {
        SplittableRandom random = new SplittableRandom(34);
        for (int page = 0; page < 200; page++) {
            List<StoredHit> hits = new ArrayList<>();
            int n = random.nextInt(120);
            for (int i = 0; i < n; i++) {
                hits.add(new StoredHit(random.nextLong(), random.nextLong(-1L << 45, 1L << 45), random.nextInt(-900, 900), text(random),
                        text(random), text(random), random.nextInt(-1, 1000), DURATIONS[random.nextInt(DURATIONS.length)], text(random),
                        text(random), text(random), text(random), text(random), text(random)));
            }
            List<StoredHit> unpacked = PackedHits.unpack(PackedHits.pack(hits));
            assertThat(unpacked).isEqualTo(hits);
            for (int i = 0; i < n; i++) {
                Double expected = hits.get(i).durationMs();
                Double actual = unpacked.get(i).durationMs();
                assertThat(actual == null ? null : Double.doubleToRawLongBits(actual))
                        .isEqualTo(expected == null ? null : Double.doubleToRawLongBits(expected));
            }
        }
    }

    @Test
    void aPageOfRepeatedTextsPacksSmall() {
        List<StoredHit> hits = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            hits.add(new StoredHit(1_000_000 - i, 1_790_000_000_000L - i * 7_000L, 0, "66.249.66.1", "GET", "/gent/straat-" + i, 404, 1.0,
                    "Googlebot Smartphone", "crawler_search", "verified", "reverse DNS", "Mozilla/5.0 (Linux; Android 6.0.1) Googlebot/2.1",
                    "www.example.org"));
        }
        assertThat(PackedHits.pack(hits).length).isLessThan(100 * 40);
    }

    private static String text(SplittableRandom random) {
        return TEXTS[random.nextInt(TEXTS.length)];
    }
}
