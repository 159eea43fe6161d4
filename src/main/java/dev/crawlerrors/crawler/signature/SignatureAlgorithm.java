package dev.crawlerrors.crawler.signature;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Optional;

/**
 * The asymmetric algorithms of the HTTP Signature Algorithms registry (RFC 9421 section 3.3), the
 * ones a Web Bot Auth directory may publish keys for, each verified by the JDK's own providers.
 * {@code hmac-sha256} is the registry's too, but the draft forbids shared secrets, so it is not here.
 */
public enum SignatureAlgorithm {
    ED25519("ed25519", "Ed25519", "EdDSA", "Ed25519"),
    ECDSA_P256_SHA256("ecdsa-p256-sha256", "P-256", "ES256", "SHA256withECDSAinP1363Format"),
    ECDSA_P384_SHA384("ecdsa-p384-sha384", "P-384", "ES384", "SHA384withECDSAinP1363Format"),
    RSA_PSS_SHA512("rsa-pss-sha512", "RSA", "PS512", "RSASSA-PSS"),
    RSA_V1_5_SHA256("rsa-v1_5-sha256", "RSA", "RS256", "SHA256withRSA");

    /** What a verification found. */
    public enum Check { VALID, INVALID, KEY_UNUSABLE }

    private final String httpName;
    private final String keyType;
    private final String jwkAlg;
    private final String jca;
    /**
     * A verifier per thread and algorithm, with the key it was last initialised for:
     * {@link Signature#getInstance} looks the providers up each time, and {@code initVerify} decodes
     * the key again each time (an Ed25519 point's square root), while a verifier that has verified
     * is ready for the next signature of the same key.
     */
    private final ThreadLocal<Verifier> verifiers;

    /** A thread's verifier and the key it is ready for (null when it must be initialised first). */
    private static final class Verifier {
        final Signature signature;
        PublicKey readyFor;

        Verifier(Signature signature) {
            this.signature = signature;
        }
    }

    SignatureAlgorithm(String httpName, String keyType, String jwkAlg, String jca) {
        this.httpName = httpName;
        this.keyType = keyType;
        this.jwkAlg = jwkAlg;
        this.jca = jca;
        this.verifiers = ThreadLocal.withInitial(this::newVerifier);
    }

    /** The name a signature's {@code alg} parameter gives it. */
    public String httpName() {
        return httpName;
    }

    /** The algorithm {@code alg} names, if it is one of these. */
    public static Optional<SignatureAlgorithm> named(String alg) {
        for (SignatureAlgorithm algorithm : values()) {
            if (algorithm.httpName.equals(alg)) {
                return Optional.of(algorithm);
            }
        }
        return Optional.empty();
    }

    /**
     * The algorithm a key verifies with when the signature names none: its curve's, or for RSA the
     * one its JWK's {@code alg} names (an RSA key alone does not say PSS or PKCS#1 v1.5).
     */
    public static Optional<SignatureAlgorithm> of(SigningKey key) {
        for (SignatureAlgorithm algorithm : values()) {
            if (algorithm.keyType.equals(key.type()) && (!key.type().equals("RSA") || algorithm.jwkAlg.equals(key.jwkAlg()))) {
                return Optional.of(algorithm);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code key} is of the type this algorithm verifies with (and, when its JWK names one, of this algorithm). */
    public boolean fits(SigningKey key) {
        return keyType.equals(key.type()) && (key.jwkAlg() == null || key.jwkAlg().equals(jwkAlg));
    }

    /** Whether {@code signature} is {@code key}'s over {@code base}. */
    public Check verify(PublicKey key, byte[] base, byte[] signature) {
        Verifier one = verifiers.get();
        Signature verifier = one.signature;
        if (one.readyFor != key) {
            one.readyFor = null;
            try {
                verifier.initVerify(key);
            } catch (InvalidKeyException e) {
                return Check.KEY_UNUSABLE;
            }
        }
        try {
            verifier.update(base);
            boolean valid = verifier.verify(signature);
            one.readyFor = key; // verify resets the verifier to the state initVerify left it in
            return valid ? Check.VALID : Check.INVALID;
        } catch (GeneralSecurityException | RuntimeException e) {
            // a signature of the wrong length or encoding; the verifier is left for initVerify to reset
            one.readyFor = null;
            return Check.INVALID;
        }
    }

    private Verifier newVerifier() {
        try {
            Signature signature = Signature.getInstance(jca);
            if (this == RSA_PSS_SHA512) {
                // RFC 9421 section 3.3.1: SHA-512, MGF1 with SHA-512, a salt of 64 bytes
                signature.setParameter(new PSSParameterSpec("SHA-512", "MGF1", MGF1ParameterSpec.SHA512, 64, 1));
            }
            return new Verifier(signature);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this Java cannot verify " + httpName + " signatures", e);
        }
    }
}
