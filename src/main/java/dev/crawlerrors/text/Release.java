package dev.crawlerrors.text;

/**
 * Which release this is: what {@code --version} prints, and who the tool says it is when it
 * fetches the operators' IP lists (some operators refuse anonymous clients, and an operator who
 * sees our requests should know whose they are and where to write).
 */
public final class Release {

    /** The release number, the one place it is written. */
    public static final String VERSION = "0.1.0";

    /** Where the project lives, named in the User-Agent. */
    public static final String PROJECT_URL = "https://github.com/crawl-errors/crawl-errors";

    /** {@code crawl-errors/0.1.0 (+https://github.com/crawl-errors/crawl-errors)}. */
    public static final String USER_AGENT = "crawl-errors/" + VERSION + " (+" + PROJECT_URL + ")";

    private Release() {
    }
}
