package dev.crawlerrors.ingest.source;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Identifies a log by its content rather than its name, because rotation renames files: the hash
 * of its first {@value #PREFIX_BYTES} decompressed bytes, or, while it is shorter than that, of its
 * content through its last complete line.
 *
 * <p>Design: a short log's fingerprint changes as it grows, so a log is looked up under every
 * fingerprint it may have had before ({@link #candidates}: one per line boundary in its first
 * bytes) and the furthest recorded progress among them wins. Two logs that share every byte the
 * shorter one holds are indistinguishable from one log that grew, and are treated as such. A log
 * that begins with a header (W3C, IIS) is still told apart by the lines after it, unlike a hash of
 * its first line alone. The hash is SHA-256 cut to 128 bits: not a secret, only a name. Two logs
 * whose first bytes are the same are told apart by the bytes before where each was read to
 * ({@link TailCheck}, {@link ResumePoint}); the second is recorded under its fingerprint with
 * {@code -2} after it ({@link dev.crawlerrors.ingest.SourceProgress#prefixOf}).
 *
 * @param value  the hash, 32 hex digits
 * @param length how many leading bytes it covers
 */
public record Fingerprint(String value, int length) {

    /** How many leading bytes identify a log; access-log lines are far shorter, so this holds many. */
    public static final int PREFIX_BYTES = 4096;
    /** Line boundaries looked up at most: a log that starts with thousands of blank lines is not worth more. */
    static final int MAX_CANDIDATES = 256;
    private static final int HASH_BYTES = 16;

    /**
     * The fingerprint a log with this beginning is recorded under, or null when it has none yet.
     *
     * @param beginning the first (up to {@value #PREFIX_BYTES}) decompressed bytes
     * @param complete  whether the log is read as it is now (an import): a log without a newline in
     *                  its first bytes is then identified by all of them; a followed log waits for
     *                  its first complete line, since that line is still being written
     */
    public static Fingerprint of(byte[] beginning, boolean complete) {
        int length = identifyingLength(beginning, complete);
        return length == 0 ? null : new Fingerprint(hex(digest(beginning, length)), length);
    }

    /** Whether {@code beginning} still starts with the bytes this fingerprint covers. */
    public boolean matches(byte[] beginning) {
        return beginning.length >= length && hex(digest(beginning, length)).equals(value);
    }

    /**
     * Every fingerprint a log with this beginning may have been recorded under while it was shorter,
     * by the number of bytes each covers, the current one ({@link #of}) included.
     */
    public static Map<String, Integer> candidates(byte[] beginning, boolean complete) {
        return identify(beginning, complete, true).candidates();
    }

    /**
     * The fingerprint ({@link #of}) and, when asked, the {@linkplain #candidates candidates} of a
     * log's beginning, in one pass over it: each candidate is the digest so far at a line's end.
     *
     * @return the fingerprint (null when there is none yet) and the candidates (only the fingerprint's, when not asked)
     */
    public static Identity identify(byte[] beginning, boolean complete, boolean withCandidates) {
        int length = identifyingLength(beginning, complete);
        if (!withCandidates) {
            Fingerprint fingerprint = length == 0 ? null : new Fingerprint(hex(digest(beginning, length)), length);
            return new Identity(fingerprint, fingerprint == null ? Map.of() : Map.of(fingerprint.value, length));
        }
        Map<String, Integer> candidates = new LinkedHashMap<>();
        Fingerprint fingerprint = null;
        MessageDigest digest = sha256();
        int hashed = 0;
        int n = Math.min(beginning.length, PREFIX_BYTES);
        int end = complete ? n : Math.max(length, 0);
        for (int i = 0; i < n; i++) {
            boolean lineEnd = beginning[i] == '\n';
            boolean last = i + 1 == end || i + 1 == length;
            if ((lineEnd && candidates.size() < MAX_CANDIDATES - 2) || last) {
                digest.update(beginning, hashed, i + 1 - hashed);
                hashed = i + 1;
                String value = hex(finish(digest));
                candidates.putIfAbsent(value, hashed);
                if (hashed == length) {
                    fingerprint = new Fingerprint(value, length);
                }
            }
        }
        return new Identity(fingerprint, candidates);
    }

    /** A log's fingerprint and the candidates it is looked up under. */
    public record Identity(Fingerprint fingerprint, Map<String, Integer> candidates) {
    }

    private static int identifyingLength(byte[] beginning, boolean complete) {
        if (beginning.length >= PREFIX_BYTES) {
            return PREFIX_BYTES;
        }
        for (int i = beginning.length - 1; i >= 0; i--) {
            if (beginning[i] == '\n') {
                return i + 1;
            }
        }
        return complete ? beginning.length : 0;
    }

    private static byte[] digest(byte[] bytes, int length) {
        MessageDigest digest = sha256();
        digest.update(bytes, 0, length);
        return digest.digest();
    }

    /** The digest so far, leaving {@code digest} able to go on. */
    private static byte[] finish(MessageDigest digest) {
        try {
            return ((MessageDigest) digest.clone()).digest();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests can be cloned in every JDK", e);
        }
    }

    private static String hex(byte[] hash) {
        return HexFormat.of().formatHex(hash, 0, HASH_BYTES);
    }

    /**
     * A SHA-256 digest of this thread's, reset: looking the algorithm up among the providers cost
     * more than hashing a small log's first bytes. Callers use it before they call here again.
     */
    static MessageDigest sha256() {
        MessageDigest digest = DIGESTS.get();
        digest.reset();
        return digest;
    }

    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    });
}
