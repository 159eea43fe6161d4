package dev.crawlerrors.crawler.signature;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * {@code "@query-param";name="..."} (RFC 9421 section 2.2.8): the query read as
 * {@code application/x-www-form-urlencoded}, the named parameter's value decoded and written again
 * with every byte but letters, digits and {@code *-._} percent-encoded (a space as {@code %20}).
 */
final class QueryParameter {

    private QueryParameter() {
    }

    /** The value of the parameter {@code params} names, in {@code query} (with its {@code ?}). */
    static String value(String query, Map<String, Object> params, String identifier) throws SignatureBase.Problem {
        if (query == null) {
            throw new SignatureBase.Problem(SignatureBase.Problem.Kind.NOT_LOGGED, "the log does not hold the target " + identifier + " needs");
        }
        if (!(params.get("name") instanceof String wanted)) {
            throw new SignatureBase.Problem(SignatureBase.Problem.Kind.CANNOT_MATCH, identifier + " names no parameter");
        }
        String found = null;
        for (String pair : query.substring(1).split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = encode(decode(eq < 0 ? pair : pair.substring(0, eq)));
            if (name.equals(wanted)) {
                if (found != null) {
                    throw new SignatureBase.Problem(SignatureBase.Problem.Kind.CANNOT_MATCH, "the query holds " + wanted
                            + " more than once, which " + identifier + " cannot cover");
                }
                found = encode(decode(eq < 0 ? "" : pair.substring(eq + 1)));
            }
        }
        if (found == null) {
            throw new SignatureBase.Problem(SignatureBase.Problem.Kind.CANNOT_MATCH, "the query has no parameter " + wanted
                    + ", which the signature covers");
        }
        return found;
    }

    /** Form decoding: {@code +} is a space, {@code %XX} a byte; a stray {@code %} stays as it is. */
    static byte[] decode(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (c == '+') {
                out.write(' ');
            } else if (c == '%' && i + 2 < text.length() && hex(text.charAt(i + 1)) >= 0 && hex(text.charAt(i + 2)) >= 0) {
                out.write(hex(text.charAt(i + 1)) * 16 + hex(text.charAt(i + 2)));
                i += 2;
            } else {
                byte[] bytes = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
                out.write(bytes, 0, bytes.length);
            }
            i += Character.charCount(c);
        }
        return out.toByteArray();
    }

    static String encode(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '*' || c == '-' || c == '.' || c == '_') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
