package dev.crawlerrors.text;

import java.util.regex.Pattern;

/**
 * Text that may hold a URL with a user and password in it ({@code clickhouse://crawl:secret@host/db}),
 * made fit to print: a message goes to a terminal, a journal when it comes from a unit file, a log
 * collected elsewhere, so no message or log line shows a URL's user info.
 */
public final class Credentials {

    /**
     * A URL's scheme, then everything up to the last '@' of the URL (it ends at a space or a quote):
     * a password may hold a '/' or an '@' where a URL may not, and what was typed is what is hidden.
     * A URL with an '@' in its path loses part of the path with it, which is the cheaper mistake.
     */
    private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^\\s'\"<>`]*@");

    private Credentials() {
    }

    /** {@code text} with the user info of every URL in it left out ({@code clickhouse://host/db}); null stays null. */
    public static String hidden(String text) {
        if (text == null || text.indexOf('@') < 0) {
            return text;
        }
        return USER_INFO.matcher(text).replaceAll("$1");
    }
}
