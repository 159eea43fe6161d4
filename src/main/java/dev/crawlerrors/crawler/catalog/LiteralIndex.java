package dev.crawlerrors.crawler.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Finds which of many owners (patterns) have one of their literal strings in a text, reading the
 * text once: each literal is filed under a hash of its first {@value #PREFIX} characters, and each
 * position of the text looks up its own. A few thousand literals cost about what a dozen would.
 */
final class LiteralIndex {

    /** Characters a literal's slot is taken from; shorter literals cannot be filed. */
    static final int PREFIX = 3;
    private static final int SLOT_BITS = 12;
    private static final int SLOTS = 1 << SLOT_BITS;

    private final String[][] literals = new String[SLOTS][];
    private final int[][] owners = new int[SLOTS][];

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
                int slot = slot(literal, 0);
                literals[slot] = literals[slot] == null ? new String[] {literal} : append(literals[slot], literal);
                owners[slot] = owners[slot] == null ? new int[] {owner} : append(owners[slot], owner);
            }
        }
    }

    /** Sets {@code found[owner]} for each owner one of whose literals {@code text} contains. */
    void search(String text, boolean[] found) {
        for (int i = 0; i + PREFIX <= text.length(); i++) {
            int slot = slot(text, i);
            String[] filed = literals[slot];
            if (filed == null) {
                continue;
            }
            int[] byOwner = owners[slot];
            for (int k = 0; k < filed.length; k++) {
                if (!found[byOwner[k]] && text.startsWith(filed[k], i)) {
                    found[byOwner[k]] = true;
                }
            }
        }
    }

    private static int slot(String text, int at) {
        int h = (text.charAt(at) * 31 + text.charAt(at + 1)) * 31 + text.charAt(at + 2);
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
