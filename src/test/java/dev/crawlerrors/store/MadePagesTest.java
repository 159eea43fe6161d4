package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A view made from the histories is made once a snapshot, and its first pages read from what was made. */
class MadePagesTest {

    /** A view of {@code n} states (numbered 0 to n-1, in that order) that counts how often it is made. */
    private static final class Counted {
        final List<UrlState> states = new ArrayList<>();
        int made;

        Counted(int n) {
            for (int k = 0; k < n; k++) {
                states.add(new UrlState(k, "", "/u/" + k, 0, 0, 0, 1, 0, 1, 1, 404, 1, 404, 1, 404, UrlState.NONE, 0));
            }
        }

        UrlPage first(long wanted) {
            made++;
            return new UrlPage(states.size(), states.subList(0, (int) Math.min(wanted, states.size())));
        }
    }

    private final MadePages made = new MadePages();
    private final UrlQuery oneDay = new UrlQuery(HitFilter.ERRORS.withTimes(java.time.Instant.EPOCH, java.time.Instant.ofEpochSecond(86_400)),
            Set.of(), false, false, UrlSort.errors);

    @Test
    void makesAViewOnceASnapshot() {
        Counted store = new Counted(1200);
        Snapshot at = new Snapshot(100, 1);
        UrlPage first = made.page(oneDay, at, null, 0, 100, store::first);
        UrlPage third = made.page(oneDay, at, null, 200, 100, store::first);
        assertThat(store.made).isEqualTo(1);
        assertThat(first.total()).isEqualTo(1200);
        assertThat(first.rows()).isEqualTo(store.states.subList(0, 100));
        assertThat(third.rows()).isEqualTo(store.states.subList(200, 300));
        made.page(oneDay, new Snapshot(101, 1), null, 0, 100, store::first);
        made.page(oneDay, new Snapshot(100, 2), null, 0, 100, store::first);
        assertThat(store.made).as("another snapshot's hits, then its verdicts").isEqualTo(3);
    }

    @Test
    void makesAgainWhatItsFirstRowsCannotTell() {
        Counted store = new Counted(1200);
        Snapshot at = new Snapshot(100, 1);
        made.page(oneDay, at, null, 0, 100, store::first);
        UrlPage past = made.page(oneDay, at, null, MadePages.FIRST_ROWS, 100, store::first);
        assertThat(past.rows().get(0).key()).isEqualTo(MadePages.FIRST_ROWS);
        UrlQuery sitemap = new UrlQuery(oneDay.filter().withInSitemap(true), Set.of(), false, false, UrlSort.errors);
        made.page(sitemap, at, null, 0, 100, store::first);
        made.page(sitemap, at, null, 0, 100, store::first);
        assertThat(store.made).as("a sitemap view whose sitemaps' reads are not named").isEqualTo(4);
        List<StoredSitemap> reads = List.of(new StoredSitemap("https://example.org/sitemap.xml", Instant.ofEpochSecond(1000), 10));
        made.page(sitemap, at, reads, 0, 100, store::first);
        made.page(sitemap, at, List.copyOf(reads), 100, 100, store::first);
        assertThat(store.made).as("kept while the sitemaps are not read again").isEqualTo(5);
        made.page(sitemap, at, List.of(new StoredSitemap("https://example.org/sitemap.xml", Instant.ofEpochSecond(4600), 11)), 0, 100,
                store::first);
        assertThat(store.made).as("made again once a sitemap is read again").isEqualTo(6);
        assertThat(made.page(oneDay, at, null, 1300, 100, store::first).rows()).isEmpty();
    }
}
