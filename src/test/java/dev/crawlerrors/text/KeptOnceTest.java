package dev.crawlerrors.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeptOnceTest {

    @Test
    void anAnswerIsMadeOnceAndKeptUpToTheBoundLeastLatelyAskedLetGoFirst() {
        KeptOnce<String, String> kept = new KeptOnce<>(2);
        AtomicInteger made = new AtomicInteger();
        assertThat(kept.get("a", () -> "A" + made.incrementAndGet(), v -> true)).isEqualTo("A1");
        assertThat(kept.get("a", () -> "A" + made.incrementAndGet(), v -> true)).isEqualTo("A1");
        kept.get("b", () -> "B", v -> true);
        kept.get("a", () -> "A" + made.incrementAndGet(), v -> true); // asked lately: b is the eldest now
        kept.get("c", () -> "C", v -> true);
        assertThat(kept.get("a", () -> "A" + made.incrementAndGet(), v -> true)).isEqualTo("A1");
        assertThat(kept.get("b", () -> "B again", v -> true)).isEqualTo("B again");
    }

    @Test
    void anAnswerNotToKeepOrAFailureIsMadeAgainByTheNextReader() {
        KeptOnce<String, String> kept = new KeptOnce<>(4);
        assertThat(kept.get("a", () -> null, v -> v != null)).isNull();
        assertThat(kept.get("a", () -> "made", v -> v != null)).isEqualTo("made");
        assertThatThrownBy(() -> kept.get("b", () -> {
            throw new IllegalStateException("the store is closed");
        }, v -> true)).isInstanceOf(IllegalStateException.class).hasMessage("the store is closed");
        assertThat(kept.get("b", () -> "made", v -> true)).isEqualTo("made");
    }

    @Test
    void readersAskingWhileItIsMadeWaitForItsAnswerOrItsFailure() throws Exception {
        KeptOnce<String, String> kept = new KeptOnce<>(4);
        CountDownLatch making = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger made = new AtomicInteger();
        ExecutorService readers = Executors.newFixedThreadPool(3);
        try {
            Future<String> first = readers.submit(() -> kept.get("a", () -> {
                made.incrementAndGet();
                making.countDown();
                await(letGo);
                throw new IllegalStateException("the count failed");
            }, v -> true));
            await(making);
            Future<String> second = readers.submit(() -> kept.get("a", () -> "made again " + made.incrementAndGet(), v -> true));
            Future<String> third = readers.submit(() -> kept.get("a", () -> "made again " + made.incrementAndGet(), v -> true));
            letGo.countDown();
            for (Future<String> reader : java.util.List.of(first, second, third)) {
                try {
                    // a reader who came after the failure made it again, and may be answered so
                    assertThat(reader.get(60, TimeUnit.SECONDS)).startsWith("made again");
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessage("the count failed");
                }
            }
            assertThatThrownBy(() -> first.get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
            assertThat(made.get()).as("the failure made again at most once, by the next reader").isLessThanOrEqualTo(2);
        } finally {
            letGo.countDown();
            readers.shutdownNow();
        }
    }

    @Test
    void answersReservedTogetherAreWaitedForAndNotReservedTwice() throws Exception {
        KeptOnce<String, String> kept = new KeptOnce<>(8);
        var mine = kept.reserve(java.util.List.of("a", "b"));
        assertThat(mine).containsOnlyKeys("a", "b");
        assertThat(kept.holdsAny(java.util.List.of("b", "c"))).isTrue();
        assertThat(kept.reserve(java.util.List.of("b", "c"))).as("b is being made").isNull();
        assertThat(kept.holdsAny(java.util.List.of("c"))).as("nothing of a refused reservation kept").isFalse();
        ExecutorService readers = Executors.newSingleThreadExecutor();
        try {
            Future<String> waiting = readers.submit(() -> kept.get("a", () -> "made by the reader", v -> true));
            mine.get("a").complete("made together");
            mine.get("b").complete("made together too");
            assertThat(waiting.get(60, TimeUnit.SECONDS)).isEqualTo("made together");
            assertThat(kept.get("b", () -> "made again", v -> true)).isEqualTo("made together too");
        } finally {
            readers.shutdownNow();
        }
        var failing = kept.reserve(java.util.List.of("c", "d"));
        kept.fail(failing, null, new IllegalStateException("the walk failed"));
        assertThatThrownBy(() -> failing.get("c").join()).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(kept.get("c", () -> "made again", v -> true)).as("a failure is not kept").isEqualTo("made again");
        var notNow = kept.reserve(java.util.List.of("e"));
        kept.fail(notNow, "nothing yet", null);
        assertThat(notNow.get("e").join()).isEqualTo("nothing yet");
        assertThat(kept.holdsAny(java.util.List.of("e"))).as("given to the readers waiting, not kept").isFalse();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(60, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
