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

    /** {@code c} in lower case if it is an ASCII letter, else as it is. */
    public static char lowerAscii(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    /** Whether {@code text} holds {@code lower} (ASCII lower case) at {@code at}, ASCII letters in any case. */
    static boolean holdsAt(String text, int at, String lower) {
        if (at < 0 || at + lower.length() > text.length()) {
            return false;
        }
        for (int k = 0; k < lower.length(); k++) {
            if (lowerAscii(text.charAt(at + k)) != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a name may start at {@code at} in {@code text}, as device-detector's patterns start
     * (Parser/AbstractParser::matchUserAgent: {@code (?:^|[^A-Z0-9_-]|[^A-Z0-9-]_|sprd-|MZ-)}
     * before the pattern, case-insensitively).
     */
    static boolean startsName(String text, int at) {
        if (at == 0) {
            return true;
        }
        char before = text.charAt(at - 1);
        if (!isNameChar(before) && before != '_') {
            return true;
        }
        if (before == '_' && at >= 2 && !isNameChar(text.charAt(at - 2))) {
            return true;
        }
        return holdsAt(text, at - 5, "sprd-") || holdsAt(text, at - 3, "mz-");
    }

    /** An ASCII letter or digit, or {@code -}. */
    private static boolean isNameChar(char c) {
        char lower = lowerAscii(c);
        return (lower >= 'a' && lower <= 'z') || (c >= '0' && c <= '9') || c == '-';
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
