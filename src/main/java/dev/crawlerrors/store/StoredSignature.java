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
 * @param formId        the name of {@code form}, or null
 * @param form          what the signer sends alike on every request, kept once for all the rows that name it
 *                      ({@code LoggedSignature#kept}; schema 10): {@code request} is then the rest; null when
 *                      {@code request} is the whole request (as every store before schema 10 kept it), or is null
 */
public record StoredSignature(String id, String ip, String claimCrawler, String origin, String keyid, String alg, String base,
        String signature, long requestMillis, String request, String formId, String form) {

    public StoredSignature(String id, String ip, String claimCrawler, String origin, String keyid, String alg, String base,
            String signature, long requestMillis, String request) {
        this(id, ip, claimCrawler, origin, keyid, alg, base, signature, requestMillis, request, null, null);
    }

    public StoredSignature(String id, String ip, String claimCrawler, String origin, String keyid, String alg, String base,
            String signature, long requestMillis) {
        this(id, ip, claimCrawler, origin, keyid, alg, base, signature, requestMillis, null);
    }
}
