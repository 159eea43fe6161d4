package dev.crawlerrors.ingest.format;

/**
 * One string for each distinct field value that recurs from line to line, for one parser (one
 * thread): a crawler's agent and its addresses come back thousands of times in a log.
 *
 * <p>Why: every crawler hit used to carry strings of its own, built from the line's bytes, which the
 * crawler identifier then hashed again, the store encoded back into bytes, and the garbage collector
 * copied while the hit waited in a batch (an agent is some 130 bytes). A shared string is hashed
 * once ({@code String} keeps its hash), and the store encodes it once ({@code DuckDbHitStore}
 * remembers the bytes of the strings it met, by identity).
 */
final class RecurringText {

    private final BytesMap<String> texts;

    /** @param capacity a power of two: the distinct values kept (three quarters of it) before starting over */
    RecurringText(int capacity) {
        texts = new BytesMap<>(capacity);
    }

    /**
     * The text of {@code b[from, to)} as {@link LogText#text} makes it (the servers' backslash
     * escapes undone), the same string for the same bytes.
     *
     * @param hash {@link ByteSearch#hash} of the bytes
     */
    String text(byte[] b, int from, int to, int hash) {
        String text = texts.get(b, from, to, hash);
        if (text == null) {
            text = LogText.text(b, from, to);
            texts.put(b, from, to, hash, text);
        }
        return text;
    }
}
