package dev.crawlerrors.report.pattern;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which path segments are words of the site rather than values: a word is met under
 * {@value #PARENTS} or more different parent segments ({@code parkeren} under many streets,
 * {@code straten} under every city), where a value (a street, a city, an id) sits under the one
 * parent it belongs to. Two parents are not enough: a name can be a value of two parents (a user
 * under {@code /users/} and {@code /team/}).
 *
 * <p>Bounded: at most {@link #MAX_SEEN} segments not yet known as words are remembered; past that
 * they are forgotten (the words found stay), so a value seen again starts afresh, and a word whose
 * parents were forgotten is found again when it meets enough of them.
 */
final class RecurringWords {

    static final int PARENTS = 3;
    static final int MAX_SEEN = 50_000;
    static final int MAX_WORDS = 50_000;

    /** The parents under which each segment was met, until it is a word. */
    private final Map<String, String[]> parents = new HashMap<>();
    private final Set<String> words = new HashSet<>();

    void see(String segment, String parent) {
        if (words.contains(segment)) {
            return;
        }
        String[] met = parents.get(segment);
        if (met == null) {
            if (parents.size() >= MAX_SEEN) {
                parents.clear();
            }
            met = new String[PARENTS - 1];
            met[0] = parent;
            parents.put(segment, met);
            return;
        }
        for (int i = 0; i < met.length; i++) {
            if (met[i] == null) {
                met[i] = parent;
                return;
            }
            if (met[i].equals(parent)) {
                return;
            }
        }
        if (words.size() < MAX_WORDS) {
            words.add(segment);
            parents.remove(segment);
        }
    }

    boolean isWord(String segment) {
        return words.contains(segment);
    }
}
