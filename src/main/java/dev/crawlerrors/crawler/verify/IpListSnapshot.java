package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.JsonDocument;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dated copy of the operators' lists that ships with a release, read as the last resort: when
 * a list can be neither downloaded nor found in the cache (a machine that never reaches the
 * operators), verification still goes by list, and says how old the list is. It lives in the jar
 * under {@value #RESOURCE}: {@value #MANIFEST} names the snapshot's date and, per list, its source
 * URL, when it was fetched and the SHA-256 of its bytes; the list files lie beside it under their
 * names. A release run with internet access refills it ({@code bin/refresh-ip-snapshot});
 * {@link IpListSnapshotWriter} writes it.
 *
 * <p>A list whose bytes do not match the manifest's SHA-256 is not used: it would be a copy nobody
 * dated.
 */
public final class IpListSnapshot {

    /** Where the release's snapshot lies in the jar. */
    static final String RESOURCE = "/ip-ranges/";
    /** The file that dates the snapshot and each list in it. */
    public static final String MANIFEST = "snapshot.json";

    private static final IpListSnapshot NONE = new IpListSnapshot(null, Map.of(), name -> null);

    private final Instant takenAt;
    private final Map<String, Entry> entries;
    private final Reader reader;

    /** One list as the manifest describes it. */
    record Entry(String name, String url, Instant fetchedAt, String sha256) {
    }

    /** A list in the snapshot, its bytes checked against the manifest. */
    record Copy(String name, String url, Instant fetchedAt, Instant takenAt, byte[] body) {
    }

    @FunctionalInterface
    private interface Reader {
        /** The bytes of the file {@code name}, or null when there is none. */
        byte[] read(String name) throws IOException;
    }

    private IpListSnapshot(Instant takenAt, Map<String, Entry> entries, Reader reader) {
        this.takenAt = takenAt;
        this.entries = entries;
        this.reader = reader;
    }

    /** The snapshot in the jar (empty when the release shipped none). */
    public static IpListSnapshot bundled() {
        return Bundled.SNAPSHOT;
    }

    /** No snapshot: nothing to fall back to. */
    public static IpListSnapshot none() {
        return NONE;
    }

    /**
     * The snapshot in {@code directory} (its manifest and list files); empty when the directory has
     * no manifest.
     *
     * @throws IOException when the manifest exists but cannot be read
     */
    public static IpListSnapshot in(Path directory) throws IOException {
        return read(name -> {
            try {
                return Files.readAllBytes(directory.resolve(name));
            } catch (NoSuchFileException e) {
                return null;
            }
        });
    }

    private static IpListSnapshot read(Reader reader) throws IOException {
        byte[] manifest = reader.read(MANIFEST);
        if (manifest == null) {
            return NONE;
        }
        Map<String, Object> root = JsonDocument.object(JsonDocument.read(manifest));
        if (root == null) {
            throw new IOException(MANIFEST + " is not a JSON object");
        }
        Map<String, Entry> entries = new LinkedHashMap<>();
        List<?> lists = JsonDocument.array(root.get("lists"));
        for (Object item : lists == null ? List.of() : lists) {
            Map<String, Object> list = JsonDocument.object(item);
            String name = list == null ? null : JsonDocument.text(list, "name");
            Instant fetchedAt = list == null ? null : instant(JsonDocument.text(list, "fetchedAt"));
            String sha256 = list == null ? null : JsonDocument.text(list, "sha256");
            if (name == null || fetchedAt == null || sha256 == null || !IpListCache.isPlainName(name)) {
                throw new IOException(MANIFEST + " holds " + item + ", which is not {\"name\", \"url\", \"fetchedAt\", \"sha256\"}");
            }
            entries.put(name, new Entry(name, JsonDocument.text(list, "url"), fetchedAt, sha256));
        }
        return new IpListSnapshot(instant(JsonDocument.text(root, "takenAt")), java.util.Collections.unmodifiableMap(entries), reader);
    }

    /** When the snapshot was taken; empty for none. */
    public Optional<Instant> takenAt() {
        return Optional.ofNullable(takenAt);
    }

    /** The names of the lists it holds. */
    public List<String> names() {
        return List.copyOf(entries.keySet());
    }

    /**
     * The snapshot's copy of {@code name}, if it has one whose bytes match the manifest.
     *
     * @throws IOException when the manifest names a file that cannot be read, or whose bytes are not the ones dated
     */
    public Optional<Copy> copy(String name) throws IOException {
        Entry entry = entries.get(name);
        if (entry == null) {
            return Optional.empty();
        }
        byte[] body = reader.read(name);
        if (body == null) {
            throw new IOException("the release snapshot names " + name + " but holds no such file");
        }
        if (!CachedIpList.sha256(body).equals(entry.sha256())) {
            throw new IOException("the release snapshot's " + name + " is not the copy its manifest dates (SHA-256 differs)");
        }
        return Optional.of(new Copy(name, entry.url(), entry.fetchedAt(), takenAt == null ? entry.fetchedAt() : takenAt, body));
    }

    /** The manifest's entry for {@code name}, for the writer. */
    Optional<Entry> entry(String name) {
        return Optional.ofNullable(entries.get(name));
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The jar's snapshot, read once on first use. */
    private static final class Bundled {
        static final IpListSnapshot SNAPSHOT = load();

        private static IpListSnapshot load() {
            try {
                return read(name -> {
                    try (InputStream in = IpListSnapshot.class.getResourceAsStream(RESOURCE + name)) {
                        return in == null ? null : in.readAllBytes();
                    }
                });
            } catch (IOException e) {
                // a build that shipped a broken manifest verifies as one without a snapshot (a test guards the real one)
                return NONE;
            }
        }
    }
}
