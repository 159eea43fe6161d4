package dev.crawlerrors.crawler.catalog;

/**
 * What patterns read in a user agent: its ASCII letters in lower case (the only case folding of a
 * case-insensitive Java or PCRE pattern without Unicode case), and whether a name in it is the
 * agent's own or a comparison ({@code like X}).
 */
public final class AgentText {

    private AgentText() {
    }

    /** {@code text} with A-Z in lower case and every other character as it is, so positions stay put. */
    public static String lowerAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char[] chars = text.toCharArray();
                for (int j = i; j < chars.length; j++) {
                    char d = chars[j];
                    if (d >= 'A' && d <= 'Z') {
                        chars[j] = (char) (d + ('a' - 'A'));
                    }
                }
                return new String(chars);
            }
        }
        return text;
    }

    /**
     * Whether the name that starts at {@code at} in {@code agent} is what the agent compares itself
     * with rather than what it is: it follows {@code like}, {@code compatible with} or
     * {@code similar to} ({@code Feedly/1.0 (...; like FeedFetcher-Google)}, {@code TelegramBot
     * (like TwitterBot)}, {@code SentiBot www.sentibot.eu (compatible with Googlebot)}). Googlebot's
     * own {@code (compatible; Googlebot/2.1; ...)} names Googlebot.
     */
    public static boolean isComparison(String agent, int at) {
        int end = at;
        while (end > 0 && isGap(agent.charAt(end - 1))) {
            end--;
        }
        return endsWithWords(agent, end, "like") || endsWithWords(agent, end, "compatible with")
                || endsWithWords(agent, end, "similar to");
    }

    private static boolean isGap(char c) {
        return c == ' ' || c == '(' || c == '[' || c == '"' || c == '\'';
    }

    /** Whether {@code agent[0, end)} ends with {@code words} (any case) standing as words of their own. */
    private static boolean endsWithWords(String agent, int end, String words) {
        int start = end - words.length();
        return start >= 0 && agent.regionMatches(true, start, words, 0, words.length())
                && (start == 0 || !Character.isLetterOrDigit(agent.charAt(start - 1)));
    }
}
