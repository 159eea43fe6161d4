package dev.crawlerrors.ingest;

/**
 * The Web Bot Auth header fields of a request, as its log line records them (HTTP Message
 * Signatures, RFC 9421, and draft-ietf-webbotauth-httpsig-protocol's {@code Signature-Agent}):
 * each null when the line has none. A request that carries them is verified by its signature, not
 * by its address.
 */
public record SignatureFields(String signature, String signatureInput, String signatureAgent) {

    /** The fields, or null when the line records none of them ({@code -} or empty is none). */
    public static SignatureFields of(String signature, String signatureInput, String signatureAgent) {
        String s = present(signature);
        String i = present(signatureInput);
        String a = present(signatureAgent);
        return s == null && i == null && a == null ? null : new SignatureFields(s, i, a);
    }

    /**
     * The request these fields were sent with, in one text to be kept while its signature waits to be
     * checked: the three fields ({@link #text}), then the method, host, target and duration
     * ({@link #rest}). {@code crawler.signature.LoggedSignature} reads it back.
     */
    public String request(String method, String host, String target, double durationMs) {
        return text() + rest(method, host, target, durationMs);
    }

    /** The three fields, each its length, a colon, then itself ({@code -1:} for none): the start of a {@link #request}. */
    public String text() {
        StringBuilder text = new StringBuilder(512);
        append(text, signature);
        append(text, signatureInput);
        append(text, signatureAgent);
        return text.toString();
    }

    /** The rest of a {@link #request} after the fields' {@link #text}: the request's parts the hit holds too. */
    public static String rest(String method, String host, String target, double durationMs) {
        StringBuilder text = new StringBuilder(128);
        append(text, method);
        append(text, host);
        append(text, target);
        append(text, Double.isNaN(durationMs) ? null : Double.toString(durationMs));
        return text.toString();
    }

    private static void append(StringBuilder text, String part) {
        if (part == null) {
            text.append("-1:");
        } else {
            text.append(part.length()).append(':').append(part);
        }
    }

    private static String present(String value) {
        return value == null || value.isEmpty() || value.equals("-") ? null : value;
    }
}
