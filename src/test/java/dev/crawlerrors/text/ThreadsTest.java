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

    @Test
    void workerThreadsAreNamedDaemons() throws InterruptedException {
        Thread started = Threads.startDaemon("log-follower", () -> { });
        started.join(Duration.ofMinutes(1).toMillis());
        assertThat(started.getName()).isEqualTo("log-follower");
        assertThat(started.isDaemon()).isTrue();
        Thread made = Threads.daemons("store-writer").newThread(() -> { });
        assertThat(made.getName()).isEqualTo("store-writer");
        assertThat(made.isDaemon()).isTrue();
        var numbered = Threads.numberedDaemons("dns-verifier-");
        assertThat(numbered.newThread(() -> { }).getName()).isEqualTo("dns-verifier-1");
        Thread second = numbered.newThread(() -> { });
        assertThat(second.getName()).isEqualTo("dns-verifier-2");
        assertThat(second.isDaemon()).isTrue();
    }
}
