package dev.crawlerrors.crawler.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Finds which of many owners (patterns) have one of their literal strings in a text, ASCII letters
 * in any case, reading the text once: each literal (in ASCII lower case) is filed under a hash of
 * its first four characters (three for a literal of three), and each position of the text looks up
 * its own. A few thousand literals cost about what a dozen would, and the text is not copied.
 *
 * <p>Why four: filed by three, the bots' words beginning "web", "and" or "lin" were compared at
 * every AppleWebKit, Android and Linux of people's agents, some 80 comparisons an agent; by four,
 * "webk" and "andr" find none of them.
 */
final class LiteralIndex {

    /** The shortest literal that can be filed. */
    static final int PREFIX = 3;
    private static final int LONG = 4;
    private static final int SLOT_BITS = 13;
    private static final int SLOTS = 1 << SLOT_BITS;

    /** Literals of three characters, by those three. */
    private final String[][] short3 = new String[SLOTS][];
    private final int[][] shortOwners = new int[SLOTS][];
    /** Literals of four and more, by their first four. */
    private final String[][] long4 = new String[SLOTS][];
    private final int[][] longOwners = new int[SLOTS][];
    /**
     * Which slots hold anything, a bit each: 2 KiB that stay in the processor's nearest cache, where
     * the tables (a quarter MiB of references) do not. Most positions of an agent find their bit
     * clear and touch nothing else: looking at the tables first cost a cache miss a position.
     */
    private final long[] shortFilled = new long[SLOTS / 64];
    private final long[] longFilled = new long[SLOTS / 64];

    /** {@code literalsOf.get(owner)}: that owner's literals, each at least {@value #PREFIX} long, or null for none. */
    LiteralIndex(List<Set<String>> literalsOf) {
        for (int owner = 0; owner < literalsOf.size(); owner++) {
            Set<String> own = literalsOf.get(owner);
            if (own == null) {
                continue;
            }
            for (String literal : own) {
                if (literal.length() < PREFIX) {
                    throw new IllegalArgumentException("literal '" + literal + "' is shorter than " + PREFIX);
                }
                boolean isLong = literal.length() >= LONG;
                int slot = isLong ? slot(literal.charAt(0), literal.charAt(1), literal.charAt(2), literal.charAt(3))
                        : slot(literal.charAt(0), literal.charAt(1), literal.charAt(2), '\0');
                String[][] literals = isLong ? long4 : short3;
                int[][] owners = isLong ? longOwners : shortOwners;
                long[] filled = isLong ? longFilled : shortFilled;
                filled[slot >>> 6] |= 1L << slot;
                literals[slot] = literals[slot] == null ? new String[] {literal} : append(literals[slot], literal);
                owners[slot] = owners[slot] == null ? new int[] {owner} : append(owners[slot], owner);
            }
        }
    }

    /** Sets {@code found[owner]} for each owner one of whose literals {@code text} holds, ASCII letters in any case. */
    void search(String text, boolean[] found) {
        int n = text.length();
        if (n < PREFIX) {
            return;
        }
        char c0 = AgentText.lowerAscii(text.charAt(0));
        char c1 = AgentText.lowerAscii(text.charAt(1));
        char c2 = AgentText.lowerAscii(text.charAt(2));
        for (int i = 0; i + PREFIX <= n; i++) {
            boolean hasFourth = i + LONG <= n;
            char c3 = hasFourth ? AgentText.lowerAscii(text.charAt(i + 3)) : '\0';
            int shortSlot = slot(c0, c1, c2, '\0');
            if ((shortFilled[shortSlot >>> 6] & (1L << shortSlot)) != 0) {
                look(text, i, short3[shortSlot], shortOwners, shortSlot, found);
            }
            if (hasFourth) {
                int longSlot = slot(c0, c1, c2, c3);
                if ((longFilled[longSlot >>> 6] & (1L << longSlot)) != 0) {
                    look(text, i, long4[longSlot], longOwners, longSlot, found);
                }
            }
            c0 = c1;
            c1 = c2;
            c2 = c3;
        }
    }

    private static void look(String text, int at, String[] filed, int[][] owners, int slot, boolean[] found) {
        if (filed == null) {
            return;
        }
        int[] byOwner = owners[slot];
        for (int k = 0; k < filed.length; k++) {
            if (!found[byOwner[k]] && AgentText.holdsAt(text, at, filed[k])) {
                found[byOwner[k]] = true;
            }
        }
    }

    private static int slot(char c0, char c1, char c2, char c3) {
        int h = ((c0 * 31 + c1) * 31 + c2) * 31 + c3;
        h *= 0x9E3779B1;
        return h >>> (32 - SLOT_BITS);
    }

    private static String[] append(String[] array, String value) {
        String[] grown = Arrays.copyOf(array, array.length + 1);
        grown[array.length] = value;
        return grown;
    }

    private static int[] append(int[] array, int value) {
        int[] grown = Arrays.copyOf(array, array.length + 1);
        grown[array.length] = value;
        return grown;
    }
}
