package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.ingest.SignatureFields;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.util.Arrays;
import java.util.Base64;

/**
 * A Web Bot Auth signer for tests, on the JDK's Ed25519: signs a request as an agent does
 * (components {@code @method @authority @path} and its Signature-Agent member), writing the
 * signature base itself, independently of the code under test, so the two must agree.
 */
public final class TestSigner {

    private final KeyPair keys;
    private final String x;
    private final String origin;
    private final String label;

    private TestSigner(KeyPair keys, String origin, String label) {
        this.keys = keys;
        this.origin = origin;
        this.label = label;
        byte[] spki = keys.getPublic().getEncoded();
        this.x = Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOfRange(spki, spki.length - 32, spki.length));
    }

    /** A new key pair signing for {@code origin} ({@code https://...}) under the label {@code sig1}. */
    public static TestSigner ed25519(String origin) {
        try {
            return new TestSigner(KeyPairGenerator.getInstance("Ed25519").generateKeyPair(), origin, "sig1");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same key signing for another origin. */
    public TestSigner forOrigin(String other) {
        return new TestSigner(keys, other, label);
    }

    public String origin() {
        return origin;
    }

    /** The key's RFC 7638 thumbprint, computed here from its canonical JSON. */
    public String thumbprint() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(("{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":\"" + x + "\"}")
                    .getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The public key as a directory lists it. */
    public String jwk() {
        return "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"" + thumbprint() + "\",\"x\":\"" + x + "\",\"use\":\"sig\"}";
    }

    /** A directory listing {@code signers}' keys. */
    public static String directory(TestSigner... signers) {
        StringBuilder json = new StringBuilder("{\"keys\":[");
        for (int i = 0; i < signers.length; i++) {
            json.append(i == 0 ? "" : ",").append(signers[i].jwk());
        }
        return json.append("]}").toString();
    }

    /** The three fields of {@code method target} to {@code authority}, signed at {@code created} to last until {@code expires} (seconds). */
    public SignatureFields sign(String method, String authority, String target, long created, long expires) {
        String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
        String params = "(\"@method\" \"@authority\" \"@path\" \"signature-agent\";key=\"" + label + "\");created=" + created
                + ";expires=" + expires + ";keyid=\"" + thumbprint() + "\";alg=\"ed25519\";tag=\"web-bot-auth\"";
        String base = "\"@method\": " + method + "\n\"@authority\": " + authority + "\n\"@path\": " + path
                + "\n\"signature-agent\";key=\"" + label + "\": \"" + origin + "\"\n\"@signature-params\": " + params;
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(keys.getPrivate());
            signer.update(base.getBytes(StandardCharsets.UTF_8));
            String signature = Base64.getEncoder().encodeToString(signer.sign());
            return new SignatureFields(label + "=:" + signature + ":", label + "=" + params, label + "=\"" + origin + "\"");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
