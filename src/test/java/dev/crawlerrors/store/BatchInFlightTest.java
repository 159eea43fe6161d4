package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BatchInFlightTest {

    @Test
    void anInterruptedWaiterStillWaitsForTheBatchAndKeepsItsInterrupt() throws Exception {
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean written = new AtomicBoolean();
            Future<?> batch = writer.submit(() -> {
                release.await(10, TimeUnit.SECONDS);
                written.set(true);
                return null;
            });
            Thread.currentThread().interrupt();
            CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(release::countDown);

            BatchInFlight.await(batch);

            assertThat(written).isTrue();
            assertThat(Thread.interrupted()).as("the interrupt kept for the caller").isTrue();
        } finally {
            writer.shutdownNow();
        }
    }

    @Test
    void aFailedBatchIsTheWaitersFailure() {
        Future<?> batch = CompletableFuture.failedFuture(new IllegalStateException("disk full"));

        assertThatThrownBy(() -> BatchInFlight.await(batch)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
    }
}
