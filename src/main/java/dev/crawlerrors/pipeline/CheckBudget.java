package dev.crawlerrors.pipeline;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The CPU an import's signature checks may take: a share of what the rest of the process has
 * taken so far, so a log in which every line is signed imports at about the cost of the same log
 * unsigned. What the budget does not cover waits in the store for {@code serve}, counted in the
 * import's summary; a followed log and serve's own checks are not bounded.
 */
final class CheckBudget {

    /** Checks without bound. */
    static final CheckBudget UNBOUNDED = new CheckBudget(0);
    /** An import's checks take at most a tenth of the CPU the rest of the import takes. */
    static final int IMPORT_SHARE = 10;

    private final int share;
    private final AtomicLong spentNanos = new AtomicLong();

    /** @param share the checks' CPU at most one part in {@code share} of the rest; 0: unbounded */
    CheckBudget(int share) {
        this.share = share;
    }

    /** Whether another check may start now. */
    boolean allows() {
        if (share == 0) {
            return true;
        }
        long spent = spentNanos.get();
        return spent * share <= Cpu.processNanos() - spent;
    }

    /** The CPU time of the calling thread, to be given to {@link #spentSince} after a check. */
    long start() {
        return share == 0 ? 0 : Cpu.THREADS.getCurrentThreadCpuTime();
    }

    /** Counts the calling thread's CPU since {@code start} ({@link #start}) as the checks'. */
    void spentSince(long start) {
        if (share != 0) {
            spentNanos.addAndGet(Math.max(0, Cpu.THREADS.getCurrentThreadCpuTime() - start));
        }
    }

    /** The process's and threads' CPU clocks, loaded only when a budget is kept. */
    private static final class Cpu {
        static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private static final com.sun.management.OperatingSystemMXBean SYSTEM =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        static long processNanos() {
            return SYSTEM.getProcessCpuTime();
        }
    }
}
