package dev.crawlerrors.web;

import dev.crawlerrors.text.Failures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A certificate and key as PEM files (what openssl, certbot and the exporters' web configs use)
 * made into the key store Jetty serves TLS from. Keys in PKCS #8 ({@code BEGIN PRIVATE KEY}: RSA,
 * EC, Ed25519) and RSA's PKCS #1 ({@code BEGIN RSA PRIVATE KEY}) are read; an encrypted key is
 * refused, as the exporters refuse it, since nobody would be there to type its passphrase.
 */
final class PemKeyStore {

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");
    /** PKCS #8's header for an RSA key: version 0 and the rsaEncryption algorithm, before the PKCS #1 key's octet string. */
    private static final byte[] RSA_ALGORITHM = {0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private PemKeyStore() {
    }

    /** Why a certificate or key cannot be served from, in a sentence naming the file. */
    static final class BadKeyException extends IllegalArgumentException {
        BadKeyException(String message) {
            super(message);
        }
    }

    /**
     * A key store holding {@code keyFile}'s key with {@code certFile}'s chain under {@code password}.
     *
     * @throws BadKeyException when a file cannot be read, holds no certificate or key, or the key is not the certificate's
     */
    static KeyStore load(Path certFile, Path keyFile, char[] password) {
        List<? extends Certificate> chain = certificates(certFile);
        PrivateKey key = privateKey(keyFile);
        if (!belongTogether(key, (X509Certificate) chain.get(0))) {
            throw new BadKeyException("key_file " + keyFile + " is not the key of cert_file " + certFile + "'s certificate");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("crawl-errors", key, password, chain.toArray(Certificate[]::new));
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new BadKeyException("key_file " + keyFile + " cannot be served from (" + e.getMessage() + ")");
        }
    }

    private static List<? extends Certificate> certificates(Path file) {
        byte[] bytes = read(file, "cert_file");
        try {
            List<? extends Certificate> chain = List.copyOf(CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes)));
            if (chain.isEmpty()) {
                throw new BadKeyException("cert_file " + file + " holds no certificate");
            }
            return chain;
        } catch (GeneralSecurityException e) {
            throw new BadKeyException("cert_file " + file + " holds no PEM certificate (" + e.getMessage() + ")");
        }
    }

    private static PrivateKey privateKey(Path file) {
        String text = new String(read(file, "key_file"), StandardCharsets.US_ASCII);
        Matcher block = BLOCK.matcher(text);
        while (block.find()) {
            String type = block.group(1);
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(block.group(2).strip());
            } catch (IllegalArgumentException e) {
                throw new BadKeyException("key_file " + file + " holds a " + type + " that is not base64");
            }
            switch (type) {
                case "PRIVATE KEY" -> {
                    return pkcs8(der, file);
                }
                case "RSA PRIVATE KEY" -> {
                    return pkcs8(rsaAsPkcs8(der), file);
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new BadKeyException("key_file " + file + " is encrypted; give a key without a "
                        + "passphrase (openssl pkey -in key.pem -out plain.pem), readable by the serving user alone");
                case "EC PRIVATE KEY" -> throw new BadKeyException("key_file " + file + " is an EC key in OpenSSL's own form; convert it "
                        + "with openssl pkcs8 -topk8 -nocrypt -in key.pem -out key8.pem");
                default -> {
                    // a certificate or parameters in the same file: look on
                }
            }
        }
        throw new BadKeyException("key_file " + file + " holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    private static PrivateKey pkcs8(byte[] der, Path file) {
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // another algorithm's key: try the next
            }
        }
        throw new BadKeyException("key_file " + file + " holds a private key of no kind Java serves TLS with (RSA, EC, Ed25519)");
    }

    /** A PKCS #1 RSA key wrapped as PKCS #8: SEQUENCE { version, algorithm, OCTET STRING { key } }. */
    private static byte[] rsaAsPkcs8(byte[] pkcs1) {
        byte[] octets = derElement(0x04, pkcs1);
        byte[] body = new byte[RSA_ALGORITHM.length + octets.length];
        System.arraycopy(RSA_ALGORITHM, 0, body, 0, RSA_ALGORITHM.length);
        System.arraycopy(octets, 0, body, RSA_ALGORITHM.length, octets.length);
        return derElement(0x30, body);
    }

    private static byte[] derElement(int tag, byte[] content) {
        int n = content.length;
        byte[] length = n < 0x80 ? new byte[] {(byte) n}
                : n < 0x100 ? new byte[] {(byte) 0x81, (byte) n}
                : n < 0x10000 ? new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n}
                : new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
        byte[] out = new byte[1 + length.length + n];
        out[0] = (byte) tag;
        System.arraycopy(length, 0, out, 1, length.length);
        System.arraycopy(content, 0, out, 1 + length.length, n);
        return out;
    }

    /** Whether {@code key} signs what {@code certificate}'s public key verifies. */
    private static boolean belongTogether(PrivateKey key, X509Certificate certificate) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "RSASSA-PSS" -> null;
            default -> key.getAlgorithm(); // Ed25519, Ed448, EdDSA sign as themselves
        };
        if (algorithm == null) {
            return true; // left to the handshake
        }
        try {
            byte[] probe = "crawl-errors".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static byte[] read(Path file, String key) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BadKeyException(key + " " + file + " cannot be read (" + Failures.message(e) + ")");
        }
    }
}
