package dev.crawlerrors.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadsTest {

    @Test
    void waitsForAThreadToEndAndNotForOneThatIsMissing() throws InterruptedException {
        Threads.awaitEnd(null, Duration.ofSeconds(1));
        CountDownLatch go = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        go.countDown();
        Threads.awaitEnd(worker, Duration.ofMinutes(1));
        assertThat(worker.isAlive()).isFalse();
    }

    @Test
    void aCloseThatIsInterruptedKeepsTheInterruptForItsCaller() throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        Thread stuck = new Thread(() -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stuck.start();
        Thread.currentThread().interrupt();
        Threads.awaitEnd(stuck, Duration.ofMinutes(1));
        assertThat(Thread.interrupted()).isTrue();
        stuck.interrupt();
        stuck.join();
    }
}
