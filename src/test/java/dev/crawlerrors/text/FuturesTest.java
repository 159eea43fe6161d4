package dev.crawlerrors.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class FuturesTest {

    @Test
    void unwrapTakesOffEveryWrapperAndKeepsTheCause() {
        IOException cause = new IOException("disk full");
        assertThat(Futures.unwrap(new CompletionException(new ExecutionException(cause)))).isSameAs(cause);
        assertThat(Futures.unwrap(cause)).isSameAs(cause);
        CompletionException bare = new CompletionException("no cause", null);
        assertThat(Futures.unwrap(bare)).isSameAs(bare);
    }

    @Test
    void joinThrowsATasksUncheckedExceptionAsItself() {
        IllegalStateException thrown = new IllegalStateException("store closed");
        CompletableFuture<String> failed = CompletableFuture.supplyAsync(() -> {
            throw thrown;
        });
        assertThatThrownBy(() -> Futures.join(failed)).isSameAs(thrown);
        assertThat(Futures.join(CompletableFuture.completedFuture("done"))).isEqualTo("done");
    }

    @Test
    void joinKeepsACheckedCauseWrapped() {
        CompletableFuture<String> failed = CompletableFuture.failedFuture(new IOException("unreadable"));
        assertThatThrownBy(() -> Futures.join(failed)).isInstanceOf(CompletionException.class).hasCauseInstanceOf(IOException.class);
    }

    @Test
    void getThrowsATasksCheckedExceptionAsItself() {
        IOException thrown = new IOException("unreadable");
        assertThatThrownBy(() -> Futures.get(CompletableFuture.failedFuture(thrown))).isSameAs(thrown);
    }

    @Test
    void getKeepsAnErrorWrapped() {
        CompletableFuture<String> failed = CompletableFuture.failedFuture(new AssertionError("bug"));
        assertThatThrownBy(() -> Futures.get(failed)).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(AssertionError.class);
    }
}
