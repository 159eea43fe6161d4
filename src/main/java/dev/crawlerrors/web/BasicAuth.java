package dev.crawlerrors.web;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * HTTP Basic authentication against the bcrypt hashes of a web config's {@code basic_auth_users}:
 * every path but {@code /health} asks for a user and password. A bcrypt check costs tens of
 * milliseconds by design, so each answer is remembered for the pair that was checked (by its
 * SHA-256, never the password itself), as the exporters do: a browser sends the same header with
 * every request of a page. An unknown user is checked against a user's hash all the same, so that
 * how long the answer takes does not tell which users exist.
 */
final class BasicAuth {

    /** The realm a browser names in its login prompt. */
    static final String CHALLENGE = "Basic realm=\"crawl-errors\", charset=\"UTF-8\"";
    /** Pairs remembered at most: a browser per user, with room for the wrong guesses of a careless one. */
    private static final int REMEMBERED = 1024;

    private final Map<String, String> users;
    private final String anyHash;
    private final Map<String, Boolean> remembered = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };

    /** Asked for a login the request did not give, or gave wrongly. */
    static final class UnauthorizedException extends RuntimeException {
        UnauthorizedException(String message) {
            super(message, null, false, false);
        }
    }

    BasicAuth(Map<String, String> users) {
        this.users = Map.copyOf(users);
        this.anyHash = users.values().iterator().next();
    }

    /**
     * Lets the request through when it may read {@code path}.
     *
     * @throws UnauthorizedException when it names no user, or a user and password that do not match
     */
    void check(Context ctx) {
        if (ctx.path().equals("/health")) {
            return;
        }
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            throw new UnauthorizedException("the report asks for a user and password");
        }
        String pair;
        try {
            pair = new String(Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new UnauthorizedException("the Authorization header is not Basic credentials");
        }
        int colon = pair.indexOf(':');
        if (colon < 0 || !matches(pair.substring(0, colon), pair.substring(colon + 1))) {
            throw new UnauthorizedException("the user and password do not match");
        }
    }

    private boolean matches(String user, String password) {
        String key = sha256(user + '\0' + password);
        synchronized (remembered) {
            Boolean known = remembered.get(key);
            if (known != null) {
                return known;
            }
        }
        String hash = users.get(user);
        boolean ok = verify(password, hash != null ? hash : anyHash) && hash != null;
        synchronized (remembered) {
            remembered.put(key, ok);
        }
        return ok;
    }

    private static boolean verify(String password, String hash) {
        try {
            return BCrypt.verifyer().verify(password.toCharArray(), hash.toCharArray()).verified;
        } catch (IllegalArgumentException e) {
            return false; // a password longer than bcrypt takes (72 bytes) is no one's
        }
    }

    private static String sha256(String text) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
