package dev.crawlerrors.ingest;

import java.nio.charset.StandardCharsets;

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

    /**
     * {@link #text} as UTF-8, made without the text: each field's bytes once, then the whole (an import
     * writes this for every signed line it leaves waiting in its row).
     */
    public byte[] textUtf8() {
        byte[] s = utf8(signature);
        byte[] i = utf8(signatureInput);
        byte[] a = utf8(signatureAgent);
        byte[] text = new byte[prefixed(signature, s) + prefixed(signatureInput, i) + prefixed(signatureAgent, a)];
        int at = put(text, 0, signature, s);
        at = put(text, at, signatureInput, i);
        put(text, at, signatureAgent, a);
        return text;
    }

    private static byte[] utf8(String part) {
        return part == null ? null : part.getBytes(StandardCharsets.UTF_8);
    }

    /** The bytes {@code part} takes in a text: its length in chars, a colon, its UTF-8 ({@code -1:} for none). */
    private static int prefixed(String part, byte[] utf8) {
        return part == null ? 3 : digits(part.length()) + 1 + utf8.length;
    }

    private static int put(byte[] text, int at, String part, byte[] utf8) {
        if (part == null) {
            text[at] = '-';
            text[at + 1] = '1';
            text[at + 2] = ':';
            return at + 3;
        }
        int length = part.length();
        int end = at + digits(length);
        for (int i = end - 1; i >= at; i--, length /= 10) {
            text[i] = (byte) ('0' + length % 10);
        }
        text[end] = ':';
        System.arraycopy(utf8, 0, text, end + 1, utf8.length);
        return end + 1 + utf8.length;
    }

    private static int digits(int n) {
        int digits = 1;
        for (long limit = 10; n >= limit; limit *= 10) {
            digits++;
        }
        return digits;
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
