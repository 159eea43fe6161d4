package dev.crawlerrors.store;

/**
 * A signature waiting for its signer's directory, with the claim its verdict is recorded under.
 *
 * @param id            the signature's own name (its claim's group)
 * @param ip            the address of the claim
 * @param claimCrawler  what the claim is recorded under ({@code CrawlerHit#claimCrawler})
 * @param origin        the signer's origin
 * @param keyid         the key's thumbprint
 * @param alg           the signature's algorithm as it names it, or null
 * @param base          the signature base rebuilt from the log
 * @param signature     the signature's bytes, in base64
 * @param requestMillis when the request was made
 */
public record StoredSignature(String id, String ip, String claimCrawler, String origin, String keyid, String alg, String base,
        String signature, long requestMillis) {
}
