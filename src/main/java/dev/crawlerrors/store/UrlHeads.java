package dev.crawlerrors.store;

/**
 * A URL's head ({@link MinuteCell#URL_HEAD}: its first directory, {@code /gent/} of
 * {@code /gent/kaart}; {@code /} for a URL with no second {@code /} before its query; the empty
 * string for one not starting with {@code /}), which the stores keep by number beside each hit in
 * time order, and which URL prefixes the heads alone decide: so that a view of a prefix and a time
 * range is a filter on numbers, and no URL's name is read but those of the page.
 */
public final class UrlHeads {

    private UrlHeads() {
    }

    /** The head of {@code url}, as the stores' SQL extracts it ({@link MinuteCell#URL_HEAD}). */
    public static String of(String url) {
        if (!url.startsWith("/")) {
            return "";
        }
        for (int i = 1; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '/') {
                return url.substring(0, i + 1);
            }
            if (c == '?' || c == '#') {
                break;
            }
        }
        return "/";
    }

    /**
     * Whether the URLs of a head either all start with {@code prefix} or none do, for every head:
     * no prefix, {@code /}, or a head itself ({@code /gent/}). Then a URL starts with the prefix
     * exactly when its head does; a deeper or a partial prefix ({@code /gent/kaart}, {@code /ge})
     * is not decided by heads.
     */
    public static boolean decide(String prefix) {
        return prefix == null || prefix.isEmpty() || prefix.equals("/") || (prefix.length() > 1 && of(prefix).equals(prefix));
    }
}
