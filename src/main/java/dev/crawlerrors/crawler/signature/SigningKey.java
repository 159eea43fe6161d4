package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.crawler.JsonDocument;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

/**
 * A public key from a JSON Web Key (RFC 7517) as a key directory publishes it, checked before it is
 * used: an Ed25519 key (RFC 8037), an EC key on P-256 or P-384 whose point is on its curve, or an
 * RSA key of 2048 to 8192 bits. Its {@link #thumbprint} (RFC 7638, RFC 8037 A.3) is the
 * {@code keyid} a Web Bot Auth signature names it by. A key that cannot be one of these, that
 * carries its private part, or that is a published test key, is refused with the reason in words.
 *
 * @param thumbprint the base64url SHA-256 of the key's required members, as RFC 7638 writes them
 * @param type       {@code Ed25519}, {@code P-256}, {@code P-384} or {@code RSA}
 * @param jwkAlg     the JWK's {@code alg}, or null
 * @param notBefore  the JWK's {@code nbf} (seconds since the epoch), or null
 * @param expires    the JWK's {@code exp} (seconds since the epoch), or null
 */
public record SigningKey(String thumbprint, String type, PublicKey key, String jwkAlg, Long notBefore, Long expires) {

    /** The thumbprints of the example keys RFC 9421 Appendix B.1 publishes (Ed25519 B.1.4, RSA-PSS B.1.2): anyone can sign with them. */
    static final Set<String> TEST_KEYS = Set.of("poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U", "oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA");

    private static final int MIN_RSA_BITS = 2048;
    private static final int MAX_RSA_BITS = 8192;
    private static final byte[] ED25519_SPKI = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    /** A key that cannot be used, and why. */
    public static final class RefusedException extends Exception {
        public RefusedException(String message) {
            super(message);
        }
    }

    /** The key a JWK describes. */
    public static SigningKey of(Map<String, Object> jwk) throws RefusedException {
        String kty = text(jwk, "kty");
        if (jwk.containsKey("d") || jwk.containsKey("p") || jwk.containsKey("k")) {
            throw new RefusedException("it publishes its private or secret part");
        }
        SigningKey key = switch (kty) {
            case "OKP" -> okp(jwk);
            case "EC" -> ec(jwk);
            case "RSA" -> rsa(jwk);
            default -> throw new RefusedException("key type '" + kty + "' is not one Web Bot Auth signs with (OKP, EC, RSA)");
        };
        Object kid = jwk.get("kid");
        if (kid != null && !key.thumbprint().equals(kid)) {
            throw new RefusedException("its kid '" + kid + "' is not its thumbprint " + key.thumbprint());
        }
        return key;
    }

    /** Whether this is one of the example keys published in RFC 9421, which nobody may trust. */
    public boolean isPublishedTestKey() {
        return TEST_KEYS.contains(thumbprint);
    }

    private static SigningKey okp(Map<String, Object> jwk) throws RefusedException {
        String crv = text(jwk, "crv");
        if (!"Ed25519".equals(crv)) {
            throw new RefusedException("curve '" + crv + "' is not Ed25519, the only OKP curve HTTP Message Signatures signs with");
        }
        String x = text(jwk, "x");
        byte[] point = bytes(x, "x", 32);
        byte[] spki = new byte[ED25519_SPKI.length + 32];
        System.arraycopy(ED25519_SPKI, 0, spki, 0, ED25519_SPKI.length);
        System.arraycopy(point, 0, spki, ED25519_SPKI.length, 32);
        PublicKey key = generate("Ed25519", new X509EncodedKeySpec(spki));
        return new SigningKey(ed25519Thumbprint(x), "Ed25519", key, optional(jwk, "alg"),
                seconds(jwk, "nbf"), seconds(jwk, "exp"));
    }

    private static SigningKey ec(Map<String, Object> jwk) throws RefusedException {
        String crv = text(jwk, "crv");
        int size = switch (crv) {
            case "P-256" -> 32;
            case "P-384" -> 48;
            default -> throw new RefusedException("curve '" + crv + "' is not P-256 or P-384, the EC curves HTTP Message Signatures signs with");
        };
        String x = text(jwk, "x");
        String y = text(jwk, "y");
        BigInteger px = new BigInteger(1, bytes(x, "x", size));
        BigInteger py = new BigInteger(1, bytes(y, "y", size));
        ECParameterSpec params;
        try {
            AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
            parameters.init(new ECGenParameterSpec(crv.equals("P-256") ? "secp256r1" : "secp384r1"));
            params = parameters.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new RefusedException("this Java has no curve " + crv);
        }
        BigInteger p = ((ECFieldFp) params.getCurve().getField()).getP();
        BigInteger lhs = py.modPow(BigInteger.TWO, p);
        BigInteger rhs = px.pow(3).add(params.getCurve().getA().multiply(px)).add(params.getCurve().getB()).mod(p);
        if (px.compareTo(p) >= 0 || py.compareTo(p) >= 0 || !lhs.equals(rhs)) {
            throw new RefusedException("its point is not on curve " + crv);
        }
        PublicKey key = generate("EC", new ECPublicKeySpec(new ECPoint(px, py), params));
        return new SigningKey(thumbprint("{\"crv\":\"" + crv + "\",\"kty\":\"EC\",\"x\":\"" + x + "\",\"y\":\"" + y + "\"}"), crv, key,
                optional(jwk, "alg"), seconds(jwk, "nbf"), seconds(jwk, "exp"));
    }

    private static SigningKey rsa(Map<String, Object> jwk) throws RefusedException {
        String n = text(jwk, "n");
        String e = text(jwk, "e");
        BigInteger modulus = new BigInteger(1, bytes(n, "n", -1));
        BigInteger exponent = new BigInteger(1, bytes(e, "e", -1));
        if (modulus.bitLength() < MIN_RSA_BITS || modulus.bitLength() > MAX_RSA_BITS) {
            throw new RefusedException("an RSA key of " + modulus.bitLength() + " bits is outside the " + MIN_RSA_BITS + " to "
                    + MAX_RSA_BITS + " accepted");
        }
        if (exponent.bitLength() > 32 || exponent.compareTo(BigInteger.valueOf(3)) < 0 || !exponent.testBit(0)) {
            throw new RefusedException("its RSA exponent is not an odd number of at most 32 bits");
        }
        PublicKey key = generate("RSA", new RSAPublicKeySpec(modulus, exponent));
        return new SigningKey(thumbprint("{\"e\":\"" + e + "\",\"kty\":\"RSA\",\"n\":\"" + n + "\"}"), "RSA", key, optional(jwk, "alg"),
                seconds(jwk, "nbf"), seconds(jwk, "exp"));
    }

    private static PublicKey generate(String algorithm, java.security.spec.KeySpec spec) throws RefusedException {
        try {
            return KeyFactory.getInstance(algorithm).generatePublic(spec);
        } catch (GeneralSecurityException e) {
            throw new RefusedException("it is not a valid " + algorithm + " public key");
        }
    }

    /** The RFC 7638 thumbprint of the Ed25519 public key whose JWK {@code x} (base64url) is {@code x}: its {@code kid}. */
    public static String ed25519Thumbprint(String x) {
        return thumbprint("{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":\"" + x + "\"}");
    }

    /** RFC 7638: the base64url SHA-256 of the required members, in order, with no spaces. */
    static String thumbprint(String canonicalJson) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonicalJson.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(Map<String, Object> jwk, String member) throws RefusedException {
        Object value = jwk.get(member);
        if (!(value instanceof String text) || text.isEmpty()) {
            throw new RefusedException(value == null ? "it has no '" + member + "'" : "its '" + member + "' is not text");
        }
        return text;
    }

    private static String optional(Map<String, Object> jwk, String member) {
        return JsonDocument.text(jwk, member);
    }

    private static Long seconds(Map<String, Object> jwk, String member) throws RefusedException {
        Object value = jwk.get(member);
        if (value == null) {
            return null;
        }
        if (value instanceof Long n) {
            return n;
        }
        throw new RefusedException("its '" + member + "' is not a number of seconds");
    }

    /** The base64url member decoded; {@code size} bytes exactly when it is not negative. */
    private static byte[] bytes(String value, String member, int size) throws RefusedException {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
                throw new RefusedException("its '" + member + "' is not unpadded base64url");
            }
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw new RefusedException("its '" + member + "' is not base64url");
        }
        if (size >= 0 && bytes.length != size) {
            throw new RefusedException("its '" + member + "' is " + bytes.length + " bytes, not " + size);
        }
        return bytes;
    }
}
