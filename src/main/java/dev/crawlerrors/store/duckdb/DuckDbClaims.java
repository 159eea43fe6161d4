package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The verdict of every claim (an address claiming a crawler), as committed, with each claim's
 * history of verdicts: hits carry their claim's number, not its verdict, so a report reads the
 * verdict of each hit as of its snapshot from here, and filters by verdict with a list of claim
 * numbers instead of joining the verdicts table (a join of 10,000,000 hits with it took 1.7 s).
 *
 * <p>Reads take no lock: a claim's history is an immutable array replaced whole when a verdict is
 * committed, and a reader at a snapshot skips the entries newer than it.
 */
final class DuckDbClaims {

    private static final String NOT_CHECKED = "not checked yet";
    private static final Verification[] VERIFICATIONS = Verification.values();

    /**
     * Each claim's history, by its number: for each verdict its version, then its verification's ordinal and its reason's
     * number ({@link #reasonList}) in one long, oldest first. A signed line waiting is a claim of its own, so a serve holds
     * one for each signed line it ever settled: as records in an array each held 88 bytes, as numbers 48.
     */
    private volatile AtomicReferenceArray<long[]> histories = new AtomicReferenceArray<>(1024);
    /** The oldest verdict version a snapshot may have: older histories were pruned. */
    private volatile long horizon;
    /** Claim lists of recent views, by verifications and version: a view's pages ask for the same one. */
    private final Map<String, ClaimSet> sets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ClaimSet> eldest) {
            return size() > 32;
        }
    };

    /**
     * The reasons recorded, by number; each once while at most {@value #REASONS_KEPT} are (then a reason is added as
     * given): the verdicts settled in the background each bring their own copy of a reason a hundred thousand others
     * share (100,000 signatures settled by serve held some 13 MB of equal reasons, of 72 MB live). Written under this
     * object's lock before the history that names it is published, so a reader that sees a history sees its reasons.
     */
    private volatile String[] reasonList = new String[64];
    private int reasonCount;
    private final Map<String, Integer> reasons = new java.util.HashMap<>();
    private static final int REASONS_KEPT = 4_096;

    /** Records a committed verdict of claim {@code claim} (called in version order, by the writer after its commit). */
    synchronized void record(int claim, long version, Verification verification, String reason) {
        Integer known = reasons.get(reason);
        int number;
        if (known != null) {
            number = known;
        } else {
            number = reasonCount++;
            String[] list = reasonList;
            if (number >= list.length) {
                list = java.util.Arrays.copyOf(list, list.length * 2);
            }
            list[number] = reason;
            reasonList = list;
            if (reasons.size() < REASONS_KEPT) {
                reasons.put(reason, number);
            }
        }
        AtomicReferenceArray<long[]> current = histories;
        if (claim >= current.length()) {
            AtomicReferenceArray<long[]> grown = new AtomicReferenceArray<>(Math.max(claim + 1, current.length() * 2));
            for (int i = 0; i < current.length(); i++) {
                grown.set(i, current.get(i));
            }
            histories = grown;
            current = grown;
        }
        long[] before = current.get(claim);
        long[] after = before == null ? new long[2] : java.util.Arrays.copyOf(before, before.length + 2);
        after[after.length - 2] = version;
        after[after.length - 1] = ((long) verification.ordinal() << 32) | number;
        current.set(claim, after);
    }

    /**
     * Gives claim {@code to}, new, the history of claim {@code from} as committed: a hit moved from one to the
     * other reads the same verdict at every snapshot before the move ({@link DuckDbHitWriter#settleWaitingHits}),
     * so a count, a page or a URL's state made then stands. The claim lists made for views are made again, as
     * they may leave {@code to} out.
     *
     * @return the verdicts copied, oldest first, for the verdict log
     */
    synchronized List<Verdict> copy(int from, int to, List<Long> versions) {
        return copy(from, to, versions, true);
    }

    /** Claim {@code from}'s history as committed, oldest first, its versions added to {@code versions}; nothing recorded. */
    synchronized List<Verdict> history(int from, List<Long> versions) {
        return copy(from, 0, versions, false);
    }

    private List<Verdict> copy(int from, int to, List<Long> versions, boolean record) {
        long[] history = from > 0 && from < histories.length() ? histories.get(from) : null;
        List<Verdict> copied = new ArrayList<>();
        if (history == null) {
            return copied;
        }
        for (int i = 0; i < history.length; i += 2) {
            Verdict verdict = new Verdict(verification(history[i + 1]), reasonList[(int) history[i + 1]]);
            if (record) {
                record(to, history[i], verdict.verification(), verdict.reason());
            }
            versions.add(history[i]);
            copied.add(verdict);
        }
        if (record) {
            sets.clear();
        }
        return copied;
    }

    /** Snapshots older than {@code version} can no longer be answered exactly. */
    void horizon(long version) {
        horizon = Math.max(horizon, version);
    }

    long horizon() {
        return horizon;
    }

    /** The verdict of {@code claim} as of verdict version {@code version}: unverified when none was recorded by then. */
    Verdict verdict(int claim, long version) {
        long entry = entry(claim, version);
        return entry < 0 ? new Verdict(Verification.unverified, NOT_CHECKED) : new Verdict(verification(entry), reasonList[(int) entry]);
    }

    /** The latest committed verdict of {@code claim}; null when none is. */
    Verdict latest(int claim) {
        long entry = entry(claim, Long.MAX_VALUE);
        return entry < 0 ? null : new Verdict(verification(entry), reasonList[(int) entry]);
    }

    private static Verification verification(long entry) {
        return VERIFICATIONS[(int) (entry >>> 32)];
    }

    /** The verification's ordinal and the reason's number of {@code claim}'s verdict as of {@code version}; -1 for none. */
    private long entry(int claim, long version) {
        AtomicReferenceArray<long[]> current = histories;
        if (claim <= 0 || claim >= current.length()) {
            return -1;
        }
        long[] history = current.get(claim);
        if (history == null) {
            return -1;
        }
        for (int i = history.length - 2; i >= 0; i -= 2) {
            if (history[i] <= version) {
                return history[i + 1];
            }
        }
        return -1;
    }

    /**
     * The claims that had a verdict at version {@code from} and were given another after it, up to
     * {@code to}: the hits whose place in a view may have changed between two snapshots (a claim
     * first recorded after {@code from} has only hits newer than that snapshot).
     */
    int[] changedBetween(long from, long to) {
        AtomicReferenceArray<long[]> current = histories;
        List<Integer> changed = new ArrayList<>();
        for (int claim = 1; claim < current.length(); claim++) {
            long[] history = current.get(claim);
            if (history == null || history.length < 4 || history[0] > from) {
                continue;
            }
            for (int i = 0; i < history.length; i += 2) {
                if (history[i] > from && history[i] <= to) {
                    changed.add(claim);
                    break;
                }
            }
        }
        return toArray(changed);
    }

    /**
     * The claims whose verdict as of {@code version} is one of {@code verifications}, or those whose
     * verdict is not, whichever list is shorter: the condition a query puts on hits' claim numbers.
     * A claim first recorded after {@code version} may fall either way: its hits are all newer than
     * any snapshot with that version.
     */
    synchronized ClaimSet select(Set<Verification> verifications, long version) {
        String key = verifications + "@" + version;
        ClaimSet set = sets.get(key);
        if (set == null) {
            set = compute(verifications, version);
            sets.put(key, set);
        }
        return set;
    }

    private ClaimSet compute(Set<Verification> verifications, long version) {
        int claims = histories.length() - 1;
        if (verifications.containsAll(EnumSet.allOf(Verification.class))) {
            return ClaimSet.ALL;
        }
        List<Integer> in = new ArrayList<>();
        List<Integer> out = new ArrayList<>();
        for (int claim = 1; claim <= claims; claim++) {
            long entry = entry(claim, version);
            Verification verification = entry < 0 ? Verification.unverified : verification(entry);
            (verifications.contains(verification) ? in : out).add(claim);
        }
        return in.size() <= out.size() ? new ClaimSet(true, toArray(in)) : new ClaimSet(false, toArray(out));
    }

    private static int[] toArray(Collection<Integer> claims) {
        return claims.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Claims a view takes: those listed ({@code included}) or every one but those listed.
     */
    record ClaimSet(boolean included, int[] claims, java.util.BitSet listed) {

        static final ClaimSet ALL = new ClaimSet(false, new int[0]);

        ClaimSet(boolean included, int[] claims) {
            this(included, claims, bits(claims));
        }

        private static java.util.BitSet bits(int[] claims) {
            java.util.BitSet bits = new java.util.BitSet();
            for (int claim : claims) {
                if (claim >= 0) {
                    bits.set(claim);
                }
            }
            return bits;
        }

        /**
         * Whether a hit of claim {@code claim} is taken, as {@link #sql()} decides it in DuckDB: a hit
         * with no claim ({@code null}) only when every claim is taken.
         */
        boolean takes(int claim, boolean none) {
            if (claims.length == 0) {
                return !included;
            }
            if (none) {
                return false;
            }
            return included == (claim >= 0 && listed.get(claim));
        }

        /** The condition on {@code h.claim_id} (numbers only, so written into the statement). */
        String sql() {
            if (claims.length == 0) {
                return included ? "FALSE" : "TRUE";
            }
            StringBuilder sb = new StringBuilder(claims.length * 7 + 32);
            sb.append(included ? "h.claim_id IN (" : "h.claim_id NOT IN (");
            for (int i = 0; i < claims.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(claims[i]);
            }
            return sb.append(')').toString();
        }
    }
}
