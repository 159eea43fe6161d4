package dev.crawlerrors.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.Random;

/**
 * A log of signed requests for the launcher's training run ({@link AotTrainingCommand}): nginx lines
 * of the format docs/verification.md gives, every one signed as ChatGPT agent signs (Ed25519, a
 * Chrome user agent, a nonce each), and the signer's key directory as {@code --signature-directories}
 * reads it. A signed import takes a path of its own (the longer line, the signature kept as logged,
 * the structured fields, Ed25519 beside the reading): without it in the cache, its classes were
 * loaded and its methods profiled anew at every signed import (0.8 s of CPU at 50,000 lines).
 */
final class TrainingSignedLog {

    /** The nginx format with the signature fields, as docs/verification.md gives it. */
    static final String FORMAT = "nginx:$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
            + "\"$http_referer\" \"$http_user_agent\" \"$host\" \"$http_signature_agent\" \"$http_signature_input\" \"$http_signature\"";

    private static final String AGENT = "https://chatgpt.com";
    private static final String HOST = "www.example.com";
    private static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/131.0.0.0 Safari/537.36";
    private static final int[] STATUSES = {200, 200, 200, 200, 301, 404, 404, 410, 500};
    private static final DateTimeFormatter CLF = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private TrainingSignedLog() {
    }

    /**
     * Writes {@code lines} signed lines to {@code log} and the signer's directory into {@code keys}
     * ({@code chatgpt.com.json}); a fresh key each time, the requests of one day in May 2025.
     */
    static void write(Path log, Path keys, int lines) throws IOException {
        try {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            byte[] spki = pair.getPublic().getEncoded();
            String x = Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOfRange(spki, spki.length - 32, spki.length));
            String keyid = Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(("{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":\"" + x + "\"}").getBytes(StandardCharsets.UTF_8)));
            Files.createDirectories(keys);
            Files.writeString(keys.resolve("chatgpt.com.json"), "{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"" + keyid
                    + "\",\"x\":\"" + x + "\",\"use\":\"sig\"}]}");
            Signature signer = Signature.getInstance("Ed25519");
            Random random = new Random(20250514);
            long start = Instant.parse("2025-05-14T00:00:00Z").getEpochSecond();
            byte[] nonce = new byte[32];
            try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                for (int i = 0; i < lines; i++) {
                    long t = start + i / 10;
                    String path = "/products/" + random.nextInt(500) + "/item-" + random.nextInt(100_000);
                    random.nextBytes(nonce);
                    String params = "(\"@method\" \"@authority\" \"@path\" \"signature-agent\";key=\"sig1\");created=" + (t - 1)
                            + ";expires=" + (t + 60) + ";keyid=\"" + keyid + "\";alg=\"ed25519\";nonce=\""
                            + Base64.getEncoder().encodeToString(nonce) + "\";tag=\"web-bot-auth\"";
                    String base = "\"@method\": GET\n\"@authority\": " + HOST + "\n\"@path\": " + path
                            + "\n\"signature-agent\";key=\"sig1\": \"" + AGENT + "\"\n\"@signature-params\": " + params;
                    signer.initSign(pair.getPrivate());
                    signer.update(base.getBytes(StandardCharsets.UTF_8));
                    String signature = Base64.getEncoder().encodeToString(signer.sign());
                    out.write("20.171.207." + (1 + random.nextInt(254)) + " - - [" + CLF.format(Instant.ofEpochSecond(t)) + "] \"GET "
                            + path + " HTTP/1.1\" " + STATUSES[random.nextInt(STATUSES.length)] + " 512 \"-\" \"" + CHROME + "\" \""
                            + HOST + "\" \"" + escaped("sig1=\"" + AGENT + "\"") + "\" \"" + escaped("sig1=" + params) + "\" \"sig1=:"
                            + signature + ":\"\n");
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519 to sign the training log with", e);
        }
    }

    /** A header as nginx logs it by default: a {@code "} as {@code \x22}. */
    private static String escaped(String value) {
        return value.replace("\"", "\\x22");
    }
}
