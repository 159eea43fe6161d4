package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.ingest.SignatureFields;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A signed request as its log line holds it, unparsed: its three signature fields and the parts a
 * signature base is rebuilt from. An import keeps this much of a signed line and no more; parsing
 * the fields, rebuilding the base and every check are left to whoever settles it ({@link
 * SignedHits#settle}), off the reader's path, so a line signed costs the reader about what one
 * unsigned does.
 *
 * @param id a name for this request alone: a SHA-256 of the address and every part (its claim's
 *           group, and its store row's key); a weaker digest would let a forged line share a genuine one's claim
 */
public record LoggedSignature(SignatureFields fields, String method, String host, String target, long requestMillis,
        double durationMs, String id) {

    public LoggedSignature(String ip, SignatureFields fields, String method, String host, String target, long requestMillis,
            double durationMs) {
        this(fields, method, host, target, requestMillis, durationMs, idOf(ip, fields, method, host, target, requestMillis));
    }

    /** The request's parts in one text, for the store ({@link SignatureFields#request}). */
    public String encoded() {
        return fields.request(method, host, target, durationMs);
    }

    /**
     * The request {@link #encoded} wrote, made at {@code requestMillis}, named {@code id}.
     *
     * @throws IllegalArgumentException when {@code text} is not what {@link #encoded} writes
     */
    public static LoggedSignature decoded(String text, long requestMillis, String id) {
        List<String> parts = new ArrayList<>(7);
        int at = 0;
        while (at < text.length()) {
            int colon = text.indexOf(':', at);
            if (colon < 0) {
                throw new IllegalArgumentException("a kept signed request is cut short");
            }
            int length = Integer.parseInt(text, at, colon, 10);
            if (length < 0) {
                parts.add(null);
                at = colon + 1;
            } else {
                parts.add(text.substring(colon + 1, colon + 1 + length));
                at = colon + 1 + length;
            }
        }
        if (parts.size() != 7) {
            throw new IllegalArgumentException("a kept signed request has " + parts.size() + " parts, not 7");
        }
        SignatureFields fields = new SignatureFields(parts.get(0), parts.get(1), parts.get(2));
        double duration = parts.get(6) == null ? Double.NaN : Double.parseDouble(parts.get(6));
        return new LoggedSignature(fields, parts.get(3), parts.get(4), parts.get(5), requestMillis, duration, id);
    }

    /** The request as a signature base is rebuilt from. */
    public SignedRequest request() {
        return SignedRequest.of(method, host, target, fields.signatureAgent());
    }

    /**
     * A SHA-256 digest for each thread that names requests, used again for each: looking one up by
     * name for every line made the JIT compile the JDK's provider lookup (about a second of the C2
     * compiler's time in a 50,000-line signed import) and cost the lookup itself on every line.
     */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private static String idOf(String ip, SignatureFields fields, String method, String host, String target, long requestMillis) {
        MessageDigest sha = SHA_256.get();
        sha.reset();
        for (String part : new String[] {ip, fields.signature(), fields.signatureInput(), fields.signatureAgent(), method, host, target}) {
            if (part != null) {
                sha.update(part.getBytes(StandardCharsets.UTF_8));
            }
            sha.update((byte) 0);
        }
        sha.update(Long.toString(requestMillis).getBytes(StandardCharsets.US_ASCII));
        return "r" + Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(sha.digest(), 16));
    }
}
