package dev.crawlerrors.store;

/**
 * A reading of a signer's key directory, as kept.
 *
 * @param origin        the signer's origin, {@code https://chatgpt.com}
 * @param fetchedMillis when it was read
 * @param source        where from: its URL, or a file of {@code --signature-directories}
 * @param json          the JWK set as read
 * @param proof         what its own signature showed, in words; empty when it had none
 */
public record StoredDirectory(String origin, long fetchedMillis, String source, String json, String proof) {
}
