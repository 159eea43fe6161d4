package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.store.DamagedStoreException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CheckBesideTest {

    @Test
    void theCheckRunsWhileTheCallerGoesOn() {
        CountDownLatch callerWentOn = new CountDownLatch(1);
        AtomicReference<String> checkThread = new AtomicReference<>();
        CheckBeside check = CheckBeside.start("store-check-newest", () -> {
            checkThread.set(Thread.currentThread().getName());
            try {
                if (!callerWentOn.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the caller waited for the check");
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        callerWentOn.countDown(); // as serve starts its server
        check.await();
        assertThat(checkThread.get()).isEqualTo("store-check-newest");
    }

    @Test
    void aDamagedStoreIsRefusedWithTheChecksOwnSentence() {
        DamagedStoreException damage = new DamagedStoreException("/tmp/x.duckdb", "a block cannot be read", null);
        CheckBeside check = CheckBeside.start("store-check-newest", () -> {
            throw damage;
        });
        assertThatThrownBy(check::await).isSameAs(damage);
    }
}
