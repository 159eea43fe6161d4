package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A view's count and first rows are read from the store once a fold, and its pages from them. */
class KeptPagesTest {

    /** A store of {@code n} kept states (numbered 0 to n-1, in that order) that counts its reads. */
    private static final class Counted implements KeptPages.Source {
        final List<UrlState> states = new ArrayList<>();
        int reads;

        Counted(int n) {
            for (int k = 0; k < n; k++) {
                states.add(new UrlState(k, "", "/u/" + k, 0, 0, 0, 1, 0, 1, 1, 404, 1, 404, 1, 404, UrlState.NONE, 0));
            }
        }

        @Override
        public UrlPage kept(UrlQuery query, String scope, Set<Long> excluded, long offset, int limit) {
            reads++;
            List<UrlState> left = states.stream().filter(s -> !excluded.contains(s.key())).toList();
            return new UrlPage(left.size(), left.subList((int) Math.min(offset, left.size()), (int) Math.min(left.size(), offset + limit)));
        }
    }

    private final KeptPages kept = new KeptPages();

    @Test
    void readsAViewsFirstPagesFromTheStoreOnceAFold() {
        Counted store = new Counted(1200);
        UrlPage first = kept.page("fold 1", null, UrlQuery.BROKEN, "", Set.of(), 0, 100, store);
        UrlPage third = kept.page("fold 1", null, UrlQuery.BROKEN, "", Set.of(), 200, 100, store);
        assertThat(store.reads).isEqualTo(1);
        assertThat(first).isEqualTo(store.kept(UrlQuery.BROKEN, "", Set.of(), 0, 100));
        assertThat(third).isEqualTo(store.kept(UrlQuery.BROKEN, "", Set.of(), 200, 100));
        store.reads = 0;
        kept.page("fold 1", null, UrlQuery.BROKEN, "Googlebot Desktop", Set.of(), 0, 100, store);
        kept.page("fold 2", null, UrlQuery.BROKEN, "", Set.of(), 0, 100, store);
        kept.page("fold 2", null, UrlQuery.BROKEN, "", Set.of(), 0, 100, store);
        assertThat(store.reads).as("another scope, then another fold").isEqualTo(2);
    }

    @Test
    void readsFromTheStoreWhatItsFirstRowsCannotTell() {
        Counted store = new Counted(1200);
        kept.page("fold", null, UrlQuery.BROKEN, "", Set.of(), 0, 100, store);
        store.reads = 0;
        assertThat(kept.page("fold", null, UrlQuery.BROKEN, "", Set.of(), KeptPages.FIRST_ROWS, 100, store).rows().get(0).key())
                .isEqualTo(KeptPages.FIRST_ROWS);
        assertThat(kept.page("fold", null, UrlQuery.BROKEN, "", Set.of(3L), 0, 100, store).total()).as("less a URL changed since").isEqualTo(1199);
        UrlQuery sitemap = new UrlQuery(HitFilter.ERRORS.withInSitemap(true), Set.of(), false, false, UrlSort.errors);
        kept.page("fold", null, sitemap, "", Set.of(), 0, 100, store);
        kept.page("fold", null, sitemap, "", Set.of(), 0, 100, store);
        assertThat(store.reads).as("a sitemap view whose sitemaps' reads are not named").isEqualTo(4);
    }

    @Test
    void keepsASitemapViewUntilASitemapIsReadAgain() {
        Counted store = new Counted(1200);
        UrlQuery sitemap = new UrlQuery(HitFilter.ERRORS.withInSitemap(true), Set.of(), false, false, UrlSort.errors);
        List<StoredSitemap> first = List.of(new StoredSitemap("https://example.org/sitemap.xml", Instant.ofEpochSecond(1000), 10));
        UrlPage page = kept.page("fold", first, sitemap, "", Set.of(), 0, 100, store);
        kept.page("fold", List.copyOf(first), sitemap, "", Set.of(), 100, 100, store);
        assertThat(store.reads).as("its first rows, then its second page from them").isEqualTo(1);
        assertThat(page).isEqualTo(store.kept(sitemap, "", Set.of(), 0, 100));
        store.reads = 1;
        kept.page("fold", null, UrlQuery.BROKEN, "", Set.of(), 0, 100, store);
        assertThat(store.reads).as("the same view without the sitemap is another").isEqualTo(2);
        List<StoredSitemap> again = List.of(new StoredSitemap("https://example.org/sitemap.xml", Instant.ofEpochSecond(4600), 11));
        kept.page("fold", again, sitemap, "", Set.of(), 0, 100, store);
        kept.page("fold", again, sitemap, "", Set.of(), 0, 100, store);
        assertThat(store.reads).as("the sitemap read again: read once more, then kept").isEqualTo(3);
        kept.page("fold 2", again, sitemap, "", Set.of(), 0, 100, store);
        assertThat(store.reads).as("another fold").isEqualTo(4);
    }

    @Test
    void takesTheUrlsChangedSinceTheFoldOutOfAWholeView() {
        Counted store = new Counted(300);
        kept.page("fold", null, UrlQuery.BROKEN, "", Set.of(), 0, 100, store);
        UrlPage less = kept.page("fold", null, UrlQuery.BROKEN, "", Set.of(0L, 150L), 100, 100, store);
        assertThat(store.reads).isEqualTo(1);
        assertThat(less).isEqualTo(store.kept(UrlQuery.BROKEN, "", Set.of(0L, 150L), 100, 100));
    }
}
