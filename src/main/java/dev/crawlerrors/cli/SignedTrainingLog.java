package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.signature.SigningKey;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The training run's signed log ({@link AotTrainingCommand}): the lines of an nginx log as an agent
 * that signs its requests (ChatGPT agent) would have made them, with the three Web Bot Auth fields
 * nginx logs under {@link #FORMAT}, and a key directory for {@code --signature-directories}. The
 * signatures are random bytes of the right length: the training exercises the import's path, not a
 * check (an import of more than a thousand signed lines leaves them all to serve).
 */
final class SignedTrainingLog {

    /** The log's format: nginx's combined one with the host and the three fields. */
    static final String FORMAT = "nginx:$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent"
            + " \"$http_referer\" \"$http_user_agent\" \"$host\" \"$http_signature_agent\" \"$http_signature_input\" \"$http_signature\"";

    /** Lines written: more than an import checks at its end (so some wait in their hits' rows). */
    private static final int LINES = 3_000;

    private static final String ORIGIN = "https://chatgpt.com";
    private static final String AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
            + " Chrome/131.0.0.0 Safari/537.36";
    /** An nginx line's address, time and request, status and size. */
    private static final Pattern LINE = Pattern.compile("(\\S+) - - \\[([^\\]]+)\\] \"(\\S+) (\\S+) (\\S+)\" (\\d{3}) (\\S+) .*");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private SignedTrainingLog() {
    }

    /** Writes the signed lines of {@code nginx}'s (cycled to {@value #LINES}) to {@code log}, and the directory into {@code keys}; returns {@code keys}. */
    static Path write(Path nginx, Path log, Path keys) throws IOException {
        String x;
        try {
            byte[] spki = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic().getEncoded();
            x = Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOfRange(spki, spki.length - 32, spki.length));
        } catch (GeneralSecurityException e) {
            throw new IOException("no Ed25519 key pair: " + e.getMessage(), e);
        }
        String keyid = SigningKey.ed25519Thumbprint(x);
        Files.createDirectories(keys);
        Files.writeString(keys.resolve("chatgpt.com.json"), "{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"" + x + "\"}]}");
        List<String> lines = Files.readAllLines(nginx, StandardCharsets.UTF_8).stream().filter(line -> LINE.matcher(line).matches()).toList();
        SplittableRandom random = new SplittableRandom(35);
        byte[] nonce = new byte[32];
        byte[] signature = new byte[64];
        try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 0; i < LINES && !lines.isEmpty(); i++) {
                Matcher m = LINE.matcher(lines.get(i % lines.size()));
                m.matches();
                long created = ZonedDateTime.parse(m.group(2), TIME).toEpochSecond();
                random.nextBytes(nonce);
                random.nextBytes(signature);
                String input = "sig1=(\\x22@method\\x22 \\x22@authority\\x22 \\x22@path\\x22 \\x22signature-agent\\x22;key=\\x22sig1\\x22)"
                        + ";created=" + created + ";expires=" + (created + 60) + ";keyid=\\x22" + keyid + "\\x22;alg=\\x22ed25519\\x22"
                        + ";nonce=\\x22" + Base64.getEncoder().encodeToString(nonce) + "\\x22;tag=\\x22web-bot-auth\\x22";
                out.write(m.group(1) + " - - [" + m.group(2) + "] \"" + m.group(3) + " " + m.group(4) + " " + m.group(5) + "\" "
                        + m.group(6) + " " + m.group(7) + " \"-\" \"" + AGENT + "\" \"www.example.com\" \"sig1=\\x22" + ORIGIN + "\\x22\" \""
                        + input + "\" \"sig1=:" + Base64.getEncoder().encodeToString(signature) + ":\"\n");
            }
        }
        return keys;
    }
}
