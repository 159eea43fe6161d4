package dev.crawlerrors.crawler.signature;

/**
 * Where signers' key directories are read from: the network, within bounds and only from the
 * hosts allowed ({@link DirectoryFetcher}), or files ({@link DirectoryFiles}, {@code --signature-directories}).
 */
public interface DirectorySource {

    /** A directory that could not be read, and why, in one sentence. */
    final class UnavailableException extends Exception {
        public UnavailableException(String message) {
            super(message);
        }
    }

    /**
     * Reads {@code origin}'s directory now.
     *
     * @throws UnavailableException when it cannot be read, or may not be
     */
    KeyDirectory read(SignerOrigin origin) throws UnavailableException;

    /** Whether this source may read {@code origin}'s directory at all (an allowed host, or a file there is). */
    boolean allows(SignerOrigin origin);

    /** Where directories come from, in words: {@code the network (chatgpt.com, agent.bot.goog)} or the directory of files. */
    String describe();
}
