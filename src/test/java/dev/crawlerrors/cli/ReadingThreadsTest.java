package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * serve's threads that read the store beside its readers: stopping them interrupts each and returns once they ended,
 * so the store is closed after their reads; one the warm-up starts after the stop never runs.
 */
class ReadingThreadsTest {

    @Test
    void theStopReturnsOnceTheReadersEndedAndNoneStartsAfterIt() throws Exception {
        ServeCommand.ReadingThreads reading = new ServeCommand.ReadingThreads();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        Thread reader = reading.start("a-read", () -> {
            started.countDown();
            try {
                Thread.sleep(TimeUnit.MINUTES.toMillis(1)); // a read under way, cancelled by the interrupt
            } catch (InterruptedException e) {
                // stopped
            }
            try {
                Thread.sleep(200); // what it does as it ends, before the store may be closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended.set(true);
        });
        assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();

        reading.stop();

        assertThat(ended).as("ended before the stop returned").isTrue();
        assertThat(reader.isAlive()).isFalse();
        AtomicBoolean ran = new AtomicBoolean();
        assertThat(reading.start("late", () -> ran.set(true))).as("started after the stop").isNull();
        assertThat(ran).isFalse();
    }
}
