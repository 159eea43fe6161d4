package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A thread's verifier stays ready for the key it last verified with: each check in a run of one
 * key's signatures, among failures and other keys, must still say what that signature alone says.
 */
class SignatureAlgorithmTest {

    @Test
    void aRunOfChecksAmongKeysAndFailuresJudgesEachSignatureAlone() throws Exception {
        KeyPair first = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        KeyPair second = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] one = bytes("GET www.example.com /a");
        byte[] two = bytes("GET www.example.com /b");
        byte[] firstOne = sign(first, one);
        byte[] firstTwo = sign(first, two);
        byte[] secondOne = sign(second, one);
        SignatureAlgorithm ed25519 = SignatureAlgorithm.ED25519;

        assertThat(ed25519.verify(first.getPublic(), one, firstOne)).isEqualTo(SignatureAlgorithm.Check.VALID);
        assertThat(ed25519.verify(first.getPublic(), two, firstTwo)).isEqualTo(SignatureAlgorithm.Check.VALID);
        // the same key, a message it did not sign, then one it did: the failure leaves nothing behind
        assertThat(ed25519.verify(first.getPublic(), two, firstOne)).isEqualTo(SignatureAlgorithm.Check.INVALID);
        assertThat(ed25519.verify(first.getPublic(), one, firstOne)).isEqualTo(SignatureAlgorithm.Check.VALID);
        // a signature of the wrong length throws inside the provider; the next check still verifies
        assertThat(ed25519.verify(first.getPublic(), one, Arrays.copyOf(firstOne, 63))).isEqualTo(SignatureAlgorithm.Check.INVALID);
        assertThat(ed25519.verify(first.getPublic(), two, firstTwo)).isEqualTo(SignatureAlgorithm.Check.VALID);
        // another key: its own signature verifies, the first key's does not, and back again
        assertThat(ed25519.verify(second.getPublic(), one, firstOne)).isEqualTo(SignatureAlgorithm.Check.INVALID);
        assertThat(ed25519.verify(second.getPublic(), one, secondOne)).isEqualTo(SignatureAlgorithm.Check.VALID);
        assertThat(ed25519.verify(first.getPublic(), one, secondOne)).isEqualTo(SignatureAlgorithm.Check.INVALID);
        assertThat(ed25519.verify(first.getPublic(), one, firstOne)).isEqualTo(SignatureAlgorithm.Check.VALID);
    }

    private static byte[] sign(KeyPair keys, byte[] message) throws Exception {
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(keys.getPrivate());
        signer.update(message);
        return signer.sign();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
