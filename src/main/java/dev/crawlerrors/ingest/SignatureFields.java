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

    private static String present(String value) {
        return value == null || value.isEmpty() || value.equals("-") ? null : value;
    }
}
