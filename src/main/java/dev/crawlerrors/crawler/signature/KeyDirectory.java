package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.crawler.JsonDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One reading of a signer's key directory (a JWK set, draft-ietf-webbotauth-httpsig-protocol's
 * {@code /.well-known/http-message-signatures-directory}): its keys by thumbprint, the keys it
 * held that cannot be used and why, when it was read and from where. A document that is not a JWK
 * set, is larger than {@link #MAX_BYTES} or holds more than {@link #MAX_KEYS} keys is refused
 * whole; a key that cannot be used is left out, and said so.
 *
 * @param origin    the signer's origin, {@code https://chatgpt.com}
 * @param fetchedAt when it was read
 * @param source    where from, in words: the URL, or the file of {@code --signature-directories}
 * @param json      the document as read, kept so the store can keep it
 * @param keys      the usable keys, by thumbprint
 * @param refused   one line per key left out
 * @param proof     what the directory's own signature showed, in words; empty when it had none
 */
public record KeyDirectory(String origin, Instant fetchedAt, String source, String json, Map<String, SigningKey> keys, List<String> refused,
        String proof) {

    /** The largest directory read: the draft's directories are a few hundred bytes, 64 RSA-8192 keys some 90 KB. */
    public static final int MAX_BYTES = 256 * 1024;
    /** Keys in one directory, at most: the draft asks verifiers to bound the key count. */
    public static final int MAX_KEYS = 64;

    /** A document that is not a key directory, or one too large. */
    public static final class RefusedException extends Exception {
        public RefusedException(String message) {
            super(message);
        }
    }

    public KeyDirectory {
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
        refused = List.copyOf(refused);
    }

    /** The directory {@code json} holds, read at {@code fetchedAt} from {@code source}. */
    public static KeyDirectory parse(String origin, Instant fetchedAt, String source, byte[] json, String proof) throws RefusedException {
        if (json.length > MAX_BYTES) {
            throw new RefusedException(source + " is " + json.length + " bytes, more than the " + MAX_BYTES + " a key directory may have");
        }
        Map<String, Object> root;
        try {
            root = JsonDocument.object(JsonDocument.read(json));
        } catch (IOException | RuntimeException e) {
            throw new RefusedException(source + " is not JSON");
        }
        List<?> list = root == null ? null : JsonDocument.array(root.get("keys"));
        if (list == null) {
            throw new RefusedException(source + " is not a JWK set (no \"keys\" array)");
        }
        if (list.size() > MAX_KEYS) {
            throw new RefusedException(source + " lists " + list.size() + " keys, more than the " + MAX_KEYS + " a directory may have");
        }
        Map<String, SigningKey> keys = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> jwk = JsonDocument.object(list.get(i));
            if (jwk == null) {
                refused.add("key " + (i + 1) + " is not an object");
                continue;
            }
            try {
                SigningKey key = SigningKey.of(jwk);
                if (key.isPublishedTestKey()) {
                    refused.add("key " + key.thumbprint() + " is an example key published in RFC 9421, with which anyone can sign");
                } else {
                    keys.put(key.thumbprint(), key);
                }
            } catch (SigningKey.RefusedException e) {
                refused.add("key " + (i + 1) + " is left out: " + e.getMessage());
            }
        }
        return new KeyDirectory(origin, fetchedAt, source, new String(json, StandardCharsets.UTF_8), keys, refused, proof == null ? "" : proof);
    }

    /** The well-known address of {@code origin}'s directory. */
    public static String url(String origin) {
        return origin + "/.well-known/http-message-signatures-directory";
    }

    /** Whether this reading lists the same keys as {@code other}: an unchanged directory need not be kept twice. */
    public boolean sameKeysAs(KeyDirectory other) {
        return other != null && keys.keySet().equals(other.keys.keySet());
    }
}
