package dev.crawlerrors.report.pattern;

import java.util.HashMap;
import java.util.Map;

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

    /** A segment not yet known as a word: the parents it was met under, and at which places. */
    private static final class Seen {
        final String[] parents = new String[PARENTS - 1];
        int places;
    }

    private final Map<String, Seen> seen = new HashMap<>();
    /** The words, each with the places (a bit per depth in the path) it was met at. */
    private final Map<String, Integer> words = new HashMap<>();

    /** Notes {@code segment} met under {@code parent} at place {@code depth} (0 for the first segment). */
    void see(String segment, String parent, int depth) {
        int place = 1 << Math.min(depth, 31);
        Integer places = words.get(segment);
        if (places != null) {
            if ((places & place) == 0) {
                words.put(segment, places | place);
            }
            return;
        }
        Seen met = seen.get(segment);
        if (met == null) {
            if (seen.size() >= MAX_SEEN) {
                seen.clear();
            }
            met = new Seen();
            met.parents[0] = parent;
            met.places = place;
            seen.put(segment, met);
            return;
        }
        met.places |= place;
        for (int i = 0; i < met.parents.length; i++) {
            if (met.parents[i] == null) {
                met.parents[i] = parent;
                return;
            }
            if (met.parents[i].equals(parent)) {
                return;
            }
        }
        if (words.size() < MAX_WORDS) {
            words.put(segment, met.places);
            seen.remove(segment);
        }
    }

    boolean isWord(String segment) {
        return words.containsKey(segment);
    }

    /**
     * Whether a word was met at one place of the path only: a street name shared by many cities is;
     * {@code parkeren}, a section under streets and a page under cities, is not.
     */
    boolean atOnePlace(String word) {
        Integer places = words.get(word);
        return places != null && Integer.bitCount(places) == 1;
    }
}
