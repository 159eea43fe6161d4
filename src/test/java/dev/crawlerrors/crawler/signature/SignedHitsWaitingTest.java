package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where a recorder's unchecked signed lines wait ({@link SignedHits.Waiting}): the first ones apart, to be
 * checked at the import's end, until a batch takes the import past them; from then on every line waits in
 * its hit's row, the batch that crossed included (they are all left to serve then).
 */
class SignedHitsWaitingTest {

    @Test
    void linesGoApartUntilABatchTakesTheImportPastThem() {
        SignedHits.Waiting waiting = new SignedHits.Waiting(3);
        assertThat(batch(waiting, 2)).containsExactly(false, false);
        assertThat(batch(waiting, 2)).as("2 + 2 is past 3: the whole batch waits in rows").containsExactly(true, true);
        assertThat(batch(waiting, 1)).containsExactly(true);
        assertThat(waiting.inRows()).isEqualTo(3);
    }

    @Test
    void aBatchOfJustTheLinesKeptApartGoesApart() {
        SignedHits.Waiting waiting = new SignedHits.Waiting(3);
        assertThat(batch(waiting, 3)).containsExactly(false, false, false);
        assertThat(batch(waiting, 1)).containsExactly(true);
        assertThat(waiting.inRows()).isEqualTo(1);
    }

    @Test
    void aFirstBatchPastTheLinesKeptApartWaitsInRowsWhole() {
        SignedHits.Waiting waiting = new SignedHits.Waiting(1_000);
        assertThat(batch(waiting, 1_580)).containsOnly(true).hasSize(1_580);
        assertThat(waiting.inRows()).isEqualTo(1_580);
    }

    /** Where each of a batch of {@code lines} waits, as {@link SignedHits#verifyAll} asks: true for its row. */
    private static List<Boolean> batch(SignedHits.Waiting waiting, int lines) {
        waiting.coming(lines);
        List<Boolean> inRow = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            inRow.add(waiting.inRow());
        }
        return inRow;
    }
}
