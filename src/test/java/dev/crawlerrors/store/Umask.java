package dev.crawlerrors.store;

/** The test JVM's umask, set as a careless shell would have it, and put back after. */
public final class Umask implements AutoCloseable {

    private final int before;

    private Umask(int before) {
        this.before = before;
    }

    /** Sets the umask to {@code mask} until {@link #close()}. */
    public static Umask of(int mask) {
        return new Umask(ProcessUmask.set(mask).orElseThrow(() -> new IllegalStateException("the umask cannot be set in this JVM")));
    }

    @Override
    public void close() {
        ProcessUmask.set(before);
    }
}
