package dev.crawlerrors.crawler.signature;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Map;

/**
 * The signature a key directory may carry on its own response (the draft's "possession proof":
 * {@code tag="http-message-signatures-directory"}, covering {@code "@authority";req} and
 * {@code content-digest}): the body must match its {@code Content-Digest}, the signature must be
 * one of the directory's own keys', made no later than now and not expired. A directory without
 * one is taken on its TLS connection alone, as the draft allows; one whose proof fails is refused,
 * as a directory that says of itself that it was changed.
 */
public final class DirectoryProof {

    static final String TAG = "http-message-signatures-directory";
    private static final long SKEW_SECONDS = 60;

    /** A proof that does not hold. */
    public static final class FailedException extends Exception {
        FailedException(String message) {
            super(message);
        }
    }

    private DirectoryProof() {
    }

    /**
     * What the proof shows, in words (empty when the response carries none).
     *
     * @param authority the host (and port) the directory was fetched from
     * @param headers   the response's {@code signature-input}, {@code signature} and {@code content-digest}, by lower-case name
     * @throws FailedException when the response carries a proof and it does not hold
     */
    public static String check(String authority, Map<String, String> headers, byte[] body, Map<String, SigningKey> keys, Instant now)
            throws FailedException {
        String input = headers.get("signature-input");
        if (input == null) {
            return "";
        }
        try {
            Map<String, SfValue.Member> inputs = StructuredFieldParser.dictionary("the directory's Signature-Input", input);
            for (Map.Entry<String, SfValue.Member> member : inputs.entrySet()) {
                if (member.getValue() instanceof SfValue.InnerList params && TAG.equals(params.params().get("tag"))) {
                    return proof(member.getKey(), params, authority, headers, body, keys, now);
                }
            }
        } catch (MalformedFieldException e) {
            throw new FailedException(e.getMessage());
        }
        return "";
    }

    private static String proof(String label, SfValue.InnerList params, String authority, Map<String, String> headers, byte[] body,
            Map<String, SigningKey> keys, Instant now) throws FailedException, MalformedFieldException {
        String digestField = headers.get("content-digest");
        StringBuilder base = new StringBuilder();
        for (SfValue.Item component : params.items()) {
            String identifier = StructuredFieldWriter.member(component);
            if ("@authority".equals(component.value()) && component.params().containsKey("req")) {
                base.append(identifier).append(": ").append(SignedRequest.normalized(authority)).append('\n');
            } else if ("content-digest".equals(component.value()) && component.params().isEmpty() && digestField != null) {
                base.append(identifier).append(": ").append(digestField.strip()).append('\n');
            } else {
                throw new FailedException("its signature covers " + identifier + ", which a directory's proof does not");
            }
        }
        if (!base.toString().contains("content-digest")) {
            throw new FailedException("its signature does not cover Content-Digest, so it does not prove the keys");
        }
        checkDigest(digestField, body);
        base.append("\"@signature-params\": ").append(StructuredFieldWriter.member(params));
        Object keyid = params.params().get("keyid");
        SigningKey key = keyid instanceof String id ? keys.get(id) : null;
        if (key == null) {
            throw new FailedException("its signature names key " + keyid + ", which it does not list");
        }
        if (!(params.params().get("created") instanceof Long created) || created > now.getEpochSecond() + SKEW_SECONDS) {
            throw new FailedException("its signature has no creation time, or one in the future");
        }
        if (params.params().get("expires") instanceof Long expires && expires < now.getEpochSecond() - SKEW_SECONDS) {
            throw new FailedException("its signature expired at " + Instant.ofEpochSecond(expires));
        }
        SignatureAlgorithm algorithm = params.params().get("alg") instanceof String alg
                ? SignatureAlgorithm.named(alg).orElseThrow(() -> new FailedException("its signature uses an unknown algorithm " + alg))
                : SignatureAlgorithm.of(key).orElseThrow(() -> new FailedException("its signature's algorithm cannot be told from key "
                        + key.thumbprint()));
        Map<String, SfValue.Member> signatures = StructuredFieldParser.dictionary("the directory's Signature",
                headers.getOrDefault("signature", ""));
        if (!(signatures.get(label) instanceof SfValue.Item item) || !(item.value() instanceof SfValue.Bytes signature)) {
            throw new FailedException("its Signature has no value for " + label);
        }
        if (!algorithm.fits(key)
                || algorithm.verify(key.key(), base.toString().getBytes(StandardCharsets.UTF_8), signature.bytes())
                        != SignatureAlgorithm.Check.VALID) {
            throw new FailedException("its own signature by key " + key.thumbprint() + " does not verify");
        }
        return "signed by its key " + key.thumbprint() + " (created " + Instant.ofEpochSecond(created) + ")";
    }

    /** The body's SHA-256 or SHA-512 must be the one Content-Digest gives. */
    private static void checkDigest(String field, byte[] body) throws FailedException, MalformedFieldException {
        Map<String, SfValue.Member> digests = StructuredFieldParser.dictionary("the directory's Content-Digest", field);
        for (Map.Entry<String, SfValue.Member> digest : digests.entrySet()) {
            String algorithm = switch (digest.getKey()) {
                case "sha-256" -> "SHA-256";
                case "sha-512" -> "SHA-512";
                default -> null;
            };
            if (algorithm != null && digest.getValue() instanceof SfValue.Item item && item.value() instanceof SfValue.Bytes bytes) {
                if (!MessageDigest.isEqual(digest(algorithm, body), bytes.bytes())) {
                    throw new FailedException("its body does not match its Content-Digest");
                }
                return;
            }
        }
        throw new FailedException("its Content-Digest has no sha-256 or sha-512");
    }

    private static byte[] digest(String algorithm, byte[] body) {
        try {
            return MessageDigest.getInstance(algorithm).digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
