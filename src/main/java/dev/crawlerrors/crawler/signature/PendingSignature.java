package dev.crawlerrors.crawler.signature;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * What checking one signature again needs once its signer's directory can be read: everything
 * else about the request was checked already (its fields, its components, its times). Kept in the
 * store so a {@code serve} started later checks what an import could not.
 *
 * @param origin        the signer's origin
 * @param keyid         the key's thumbprint, as the signature names it
 * @param alg           the signature's {@code alg}, or null
 * @param base          the signature base rebuilt from the log
 * @param signature     the signature's bytes
 * @param requestMillis when the request was made
 * @param id            a name for this signature alone: a digest of its key, base and bytes (its
 *                      claim's group), computed once, as its hit, its store row and its settling each name it
 */
public record PendingSignature(String origin, String keyid, String alg, byte[] base, byte[] signature, long requestMillis, String id) {

    public PendingSignature(String origin, String keyid, String alg, byte[] base, byte[] signature, long requestMillis) {
        this(origin, keyid, alg, base, signature, requestMillis, idOf(origin, keyid, base, signature));
    }

    private static String idOf(String origin, String keyid, byte[] base, byte[] signature) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(origin.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(keyid.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(base);
            sha.update((byte) 0);
            sha.update(signature);
            byte[] digest = sha.digest();
            return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
