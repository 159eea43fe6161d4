package dev.crawlerrors.store;

/**
 * A signature waiting for its signer's directory, or a signed request kept as logged for its whole
 * check ({@code request} not null), with the claim its verdict is recorded under.
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
 * @param request       a signed request as logged, all of it still to check ({@code LoggedSignature#encoded}): then
 *                      {@code origin}, {@code keyid}, {@code base} and {@code signature} are empty; null for a signature checked but for its directory
 */
public record StoredSignature(String id, String ip, String claimCrawler, String origin, String keyid, String alg, String base,
        String signature, long requestMillis, String request) {

    public StoredSignature(String id, String ip, String claimCrawler, String origin, String keyid, String alg, String base,
            String signature, long requestMillis) {
        this(id, ip, claimCrawler, origin, keyid, alg, base, signature, requestMillis, null);
    }
}
