package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.SignatureFields;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Checks a logged request's Web Bot Auth signature as draft-ietf-webbotauth-httpsig-protocol asks:
 * a signature tagged {@code web-bot-auth} covering the Signature-Agent member that names its
 * signer's directory, made ({@code created}) no later and expiring ({@code expires}) no earlier
 * than the request itself (its own logged time, not the import's), over a base rebuilt from the
 * logged request, by the key its {@code keyid} names in that directory as published when the
 * request was made. The cheap checks come first; the key and the signature last.
 *
 * <p>The verdicts keep the draft's three outcomes: {@code verified}; {@code spoofed} for a
 * signature that fails (its signature, times, key or components cannot be the request's);
 * {@code unverified} when the tool cannot tell (a directory it may not or cannot read, a key it
 * does not know, a component the log does not hold). A directory that cannot be read yet leaves
 * the signature {@linkplain SignatureOutcome#pending pending}, to be checked again.
 *
 * <p>A verification is cached by directory, key, signature and base: the same signed request met
 * twice is checked once. An import asks to {@linkplain #check(SignatureFields, SignedRequest, long, double, boolean, Consumer)
 * defer} the signature's own check, the costly step: a signature whose every other check passed is
 * then pending, and settled off the reader's path ({@link #recheck}).
 */
public final class WebBotAuthVerifier {

    /** How far a signature's times may miss the logged time: clocks differ, and a log writes a request's end or start. */
    static final long SKEW_SECONDS = 60;
    private static final int MAX_CACHED = 20_000;
    /** What a deferred signature's verdict says until it is settled. */
    public static final String NOT_CHECKED_YET = "its signature is not checked yet";
    /** The steps of a check nobody reads: their words are not built (an import checks every signed line). */
    public static final Consumer<String> QUIET = step -> { };
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC);

    private final KeyDirectories directories;
    private final Map<String, SignatureAlgorithm.Check> checked = new ConcurrentHashMap<>();

    public WebBotAuthVerifier(KeyDirectories directories) {
        this.directories = directories;
    }

    public KeyDirectories directories() {
        return directories;
    }

    /**
     * The outcome of {@code fields}, a request logged as {@code request} at {@code requestMillis}
     * that took {@code durationMs} (NaN when unknown). {@code steps} hears each step in words.
     */
    public SignatureOutcome check(SignatureFields fields, SignedRequest request, long requestMillis, double durationMs, Consumer<String> steps) {
        return check(fields, request, requestMillis, durationMs, false, steps);
    }

    /**
     * {@link #check(SignatureFields, SignedRequest, long, double, Consumer)}; when {@code defer}, a
     * signature not met before whose every other check passes is not verified now but left
     * {@linkplain SignatureOutcome#deferred pending}, to be settled by {@link #recheck}.
     */
    public SignatureOutcome check(SignatureFields fields, SignedRequest request, long requestMillis, double durationMs, boolean defer,
            Consumer<String> steps) {
        List<WebBotAuthSignature> signatures;
        try {
            signatures = WebBotAuthSignature.read(fields);
        } catch (MalformedFieldException e) {
            steps.accept("fields: " + e.getMessage());
            return unverified("malformed", claimedSigner(fields), "a signature field is not a valid structured field as logged");
        }
        if (signatures.isEmpty()) {
            steps.accept("fields: Signature-Input has no signature tagged web-bot-auth");
            return unverified("untagged", claimedSigner(fields), "the request carries no signature tagged web-bot-auth");
        }
        SignatureOutcome best = null;
        for (WebBotAuthSignature signature : signatures) {
            SignatureOutcome outcome = one(signature, request, requestMillis, durationMs, defer, steps);
            if (best == null || rank(outcome) > rank(best)) {
                best = outcome;
            }
        }
        return best;
    }

    /** Checks again a signature whose directory could not be read. */
    public SignatureOutcome recheck(PendingSignature pending, Consumer<String> steps) {
        SignerOrigin origin;
        try {
            origin = SignerOrigin.parse(pending.origin());
        } catch (SignerOrigin.InvalidException e) {
            return unverified("no-signer", null, e.getMessage());
        }
        return withKey(origin, pending.keyid(), pending.alg(), pending.base(), pending.signature(), pending.requestMillis(), false, steps);
    }

    /** Verified first, then pending, unverified, spoofed: a request proven by any of its signatures is proven. */
    private static int rank(SignatureOutcome outcome) {
        return switch (outcome.verdict().verification()) {
            case verified -> 3;
            case unverified -> outcome.pending() != null ? 2 : 1;
            case spoofed -> 0;
        };
    }

    private SignatureOutcome one(WebBotAuthSignature signature, SignedRequest request, long requestMillis, double durationMs, boolean defer,
            Consumer<String> steps) {
        if (steps != QUIET) {
            steps.accept("signature " + signature.label() + ": covers " + StructuredFieldWriter.member(signature.params()));
        }
        SignerOrigin origin = signature.agent();
        if (origin == null) {
            steps.accept("signer: " + signature.agentProblem());
            return unverified("no-signer", null, "the signature covers no Signature-Agent that names a signer's directory");
        }
        if (steps != QUIET) {
            steps.accept("signer: " + origin + ", directory " + KeyDirectory.url(origin.toString()));
        }
        if (signature.signature() == null) {
            steps.accept("Signature: has no value labelled " + signature.label());
            return unverified("no-signature", origin, "Signature holds no value for its web-bot-auth signature");
        }
        String keyid = signature.keyid();
        Long created = signature.time("created");
        Long expires = signature.time("expires");
        if (keyid == null || created == null || expires == null) {
            steps.accept("parameters: keyid, created and expires are required; one is missing");
            return unverified("params", origin, "the signature lacks its keyid, created or expires, which Web Bot Auth requires");
        }
        long at = Math.floorDiv(requestMillis, 1000);
        long started = Double.isNaN(durationMs) ? at : Math.floorDiv(requestMillis - (long) durationMs, 1000);
        if (steps != QUIET) {
            steps.accept("times: created " + when(created) + ", expires " + when(expires) + ", request logged at " + when(at));
        }
        if (created > at + SKEW_SECONDS) {
            return spoofed("not-yet", origin, "the signature was created after the request was made: it was not made for it ("
                    + origin + ")");
        }
        if (expires < started - SKEW_SECONDS) {
            return spoofed("expired", origin, "the signature had expired when the request was made: a replay outside its created/expires"
                    + " window (" + origin + ")");
        }
        byte[] base;
        try {
            base = SignatureBase.of(request, signature.params());
        } catch (SignatureBase.Problem e) {
            steps.accept("base: " + e.getMessage());
            return e.kind() == SignatureBase.Problem.Kind.NOT_LOGGED
                    ? unverified("not-logged", origin, "the log does not hold a component the signature covers (see docs/verification.md"
                            + " for what to log)")
                    : spoofed("cannot-match", origin, "the signature covers a component the logged request cannot have ("
                            + origin + ")");
        }
        if (steps != QUIET) {
            steps.accept("base:\n" + new String(base, StandardCharsets.UTF_8));
        }
        if (!directories.source().allows(origin)) {
            steps.accept("directory: " + origin.authority() + " is not one this tool may read (" + directories.source().describe() + ")");
            return unverified("not-allowed", origin, origin + " is not among the signers whose directories this tool may read"
                    + " (--signature-hosts, --signature-directories)");
        }
        return withKey(origin, keyid, signature.alg(), base, signature.signature(), requestMillis, defer, steps);
    }

    private SignatureOutcome withKey(SignerOrigin origin, String keyid, String alg, byte[] base, byte[] bytes, long requestMillis,
            boolean defer, Consumer<String> steps) {
        Instant at = Instant.ofEpochMilli(requestMillis);
        KeyDirectories.Found found = directories.key(origin, keyid, at);
        if (found instanceof KeyDirectories.Unreachable unreachable) {
            steps.accept("directory: " + unreachable.reason());
            return pending(origin, keyid, alg, base, bytes, requestMillis, "its directory cannot be read: " + unreachable.reason());
        }
        KeyHistory.Lookup lookup = ((KeyDirectories.Known) found).lookup();
        switch (lookup) {
            case KeyHistory.Unknown unknown -> {
                Instant read = directories.lastRead(origin);
                steps.accept("key: " + keyid + " is not in " + origin + "'s directory as read " + (read == null ? "" : when(read)));
                if (read != null && read.isAfter(at)) {
                    return unverified("key-unknown", origin, "the key the signature names is not in " + origin
                            + "'s directory, read after the request");
                }
                String failure = directories.lastFailure(origin);
                return pending(origin, keyid, alg, base, bytes, requestMillis, "key " + keyid + " is not in its directory as last read"
                        + (failure == null ? "" : ", and it cannot be read again now: " + failure));
            }
            case KeyHistory.Removed removed -> {
                steps.accept("key: " + keyid + " was removed from the directory at " + when(removed.removedAt()) + ", before the request");
                return unverified("key-removed " + keyid, origin, "key " + keyid + " was removed from " + origin + "'s directory (last held "
                        + when(removed.lastHeld()) + ", gone " + when(removed.removedAt()) + ") before the request");
            }
            case KeyHistory.Published published -> {
                return verify(origin, keyid, published, alg, base, bytes, requestMillis, defer, steps);
            }
            case KeyHistory.NeverRead never -> {
                return pending(origin, keyid, alg, base, bytes, requestMillis, "its directory has not been read");
            }
        }
    }

    private SignatureOutcome verify(SignerOrigin origin, String keyid, KeyHistory.Published published, String alg, byte[] base, byte[] bytes,
            long requestMillis, boolean defer, Consumer<String> steps) {
        Instant at = Instant.ofEpochMilli(requestMillis);
        SigningKey key = published.key();
        String thumbprint = key.thumbprint();
        if (steps != QUIET) {
            steps.accept("key: " + thumbprint + " (" + key.type() + "), in " + origin + "'s directory since " + when(published.firstSeen().fetchedAt())
                    + validity(key));
        }
        if ((key.notBefore() != null && at.getEpochSecond() < key.notBefore() - SKEW_SECONDS)
                || (key.expires() != null && at.getEpochSecond() > key.expires() + SKEW_SECONDS)) {
            return spoofed("key-expired " + thumbprint, origin, "key " + thumbprint + " of " + origin + " was not valid when the request was made"
                    + validity(key));
        }
        SignatureAlgorithm algorithm = alg == null ? SignatureAlgorithm.of(key).orElse(null) : SignatureAlgorithm.named(alg).orElse(null);
        if (algorithm == null) {
            steps.accept("algorithm: " + (alg == null ? "none named, and key " + thumbprint + " does not say" : "'" + alg + "' is unknown"));
            return unverified("alg-unknown", origin, "the signature's algorithm is not one HTTP Message Signatures defines for public keys,"
                    + " or cannot be told from its key");
        }
        if (!algorithm.fits(key)) {
            steps.accept("algorithm: " + algorithm.httpName() + " does not fit a " + key.type() + " key");
            return spoofed("alg-mismatch " + thumbprint, origin, "the signature's algorithm does not fit key " + thumbprint + " of " + origin);
        }
        String cacheKey = checkKey(origin, thumbprint, base, bytes);
        SignatureAlgorithm.Check check = checked.get(cacheKey);
        if (check == null && defer) {
            if (steps != QUIET) {
                steps.accept("signature: left to be checked in the background");
            }
            PendingSignature pending = new PendingSignature(origin.toString(), keyid, alg, base, bytes, requestMillis);
            return new SignatureOutcome(new Verdict(Verification.unverified, "signed for " + origin + " with key " + thumbprint
                    + "; check pending: " + NOT_CHECKED_YET + "; will check again"), "pending " + pending.id(), origin, pending, true);
        }
        if (check == null) {
            check = algorithm.verify(key.key(), base, bytes);
            if (checked.size() >= MAX_CACHED) {
                checked.clear();
            }
            checked.put(cacheKey, check);
        }
        if (steps != QUIET) {
            steps.accept("signature: " + algorithm.httpName() + " " + switch (check) {
                case VALID -> "verifies";
                case INVALID -> "does not verify";
                case KEY_UNUSABLE -> "cannot be checked: this Java cannot use the key";
            });
        }
        return switch (check) {
            case VALID -> new SignatureOutcome(new Verdict(Verification.verified, "signed by " + origin + " with key " + thumbprint + " ("
                    + key.type() + ", in its directory since " + when(published.firstSeen().fetchedAt()) + validity(key) + ")"),
                    "verified " + thumbprint, origin, null);
            case INVALID -> spoofed("signature-invalid " + thumbprint, origin, "the signature does not verify with key " + thumbprint
                    + " of " + origin + ": the logged request is not the one signed, or the signature was forged");
            case KEY_UNUSABLE -> unverified("key-unusable " + thumbprint, origin, "key " + thumbprint + " of " + origin
                    + " cannot be used to verify");
        };
    }

    /**
     * What a check is cached by: a SHA-256 of the directory, key, base and signature, some 100
     * bytes an entry where the text itself took some 500 (each signed request has a base and
     * signature of its own, so the cache fills with entries it will rarely meet again).
     */
    private static String checkKey(SignerOrigin origin, String thumbprint, byte[] base, byte[] signature) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(origin.toString().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) '\n');
            sha.update(thumbprint.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) '\n');
            sha.update(intBytes(base.length));
            sha.update(base);
            sha.update(signature);
            return Base64.getEncoder().withoutPadding().encodeToString(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] intBytes(int value) {
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    private static String validity(SigningKey key) {
        if (key.notBefore() == null && key.expires() == null) {
            return "";
        }
        return "; valid " + (key.notBefore() == null ? "" : "from " + when(key.notBefore()))
                + (key.notBefore() != null && key.expires() != null ? " " : "")
                + (key.expires() == null ? "" : "until " + when(key.expires()));
    }

    private static SignatureOutcome pending(SignerOrigin origin, String keyid, String alg, byte[] base, byte[] bytes, long requestMillis,
            String why) {
        PendingSignature pending = new PendingSignature(origin.toString(), keyid, alg, base, bytes, requestMillis);
        return new SignatureOutcome(new Verdict(Verification.unverified, "signed for " + origin + " with key " + keyid + "; check pending: "
                + why + "; will check again"), "pending " + pending.id(), origin, pending);
    }

    private static SignatureOutcome unverified(String group, SignerOrigin origin, String reason) {
        return new SignatureOutcome(new Verdict(Verification.unverified, reason), group, origin, null);
    }

    private static SignatureOutcome spoofed(String group, SignerOrigin origin, String reason) {
        return new SignatureOutcome(new Verdict(Verification.spoofed, reason), group, origin, null);
    }

    /**
     * The signer a request's Signature-Agent names, for naming a hit whose signature cannot be read:
     * its first member (or lone string) that is an origin; null when none is.
     */
    public static SignerOrigin claimedSigner(SignatureFields fields) {
        String field = fields.signatureAgent();
        if (field == null) {
            return null;
        }
        try {
            SfValue.Item item = StructuredFieldParser.item("Signature-Agent", field);
            return item.value() instanceof String uri ? SignerOrigin.parse(uri) : null;
        } catch (MalformedFieldException | SignerOrigin.InvalidException e) {
            // not the legacy string: a dictionary
        }
        try {
            for (SfValue.Member member : StructuredFieldParser.dictionary("Signature-Agent", field).values()) {
                if (member instanceof SfValue.Item item && item.value() instanceof String uri) {
                    return SignerOrigin.parse(uri);
                }
            }
        } catch (MalformedFieldException | SignerOrigin.InvalidException e) {
            return null;
        }
        return null;
    }

    static String when(long epochSecond) {
        return when(Instant.ofEpochSecond(epochSecond));
    }

    static String when(Instant instant) {
        return WHEN.format(instant);
    }
}
