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
     * checked: the three fields, the method, host, target and duration, each its length, a colon, then
     * itself ({@code -1:} for none). {@code crawler.signature.LoggedSignature} reads it back.
     */
    public String request(String method, String host, String target, double durationMs) {
        StringBuilder text = new StringBuilder(512);
        for (String part : new String[] {signature, signatureInput, signatureAgent, method, host, target,
                Double.isNaN(durationMs) ? null : Double.toString(durationMs)}) {
            if (part == null) {
                text.append("-1:");
            } else {
                text.append(part.length()).append(':').append(part);
            }
        }
        return text.toString();
    }

    private static String present(String value) {
        return value == null || value.isEmpty() || value.equals("-") ? null : value;
    }
}
