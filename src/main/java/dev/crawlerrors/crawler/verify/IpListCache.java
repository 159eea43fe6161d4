package dev.crawlerrors.crawler.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawlerrors.crawler.JsonDocument;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The last good copy of each downloaded IP list, on disk: {@code <name>} holds the list exactly as
 * the server sent it (so the directory also works as {@code --ip-ranges DIR}) and
 * {@code <name>.meta.json} its source URL, {@code ETag}, {@code Last-Modified}, fetch and check
 * times and the SHA-256 of the list. Every file is written to a temporary file, flushed to disk and
 * moved over the old one, so a crash leaves the old file or the new one, never half of either.
 *
 * <p>Only lists that parsed are written here; this class does not check that itself.
 */
public final class IpListCache {

    /** Appended to the store's file name to name the cache beside it. */
    public static final String SUFFIX = ".ip-ranges";

    private static final String METADATA = ".meta.json";
    /** The directory is its owner's, as the store beside it is (its files are, being temporary files moved into place). */
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY = PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------"));

    private final Path directory;

    /** A cache in {@code directory}, which is created on the first write. */
    public IpListCache(Path directory) {
        this.directory = directory;
    }

    /**
     * The cache directory that belongs to a store: {@code <store file>.ip-ranges} beside it, e.g.
     * {@code ./crawl-errors.duckdb.ip-ranges} for {@code ./crawl-errors.duckdb}.
     */
    public static Path besideStore(Path storeFile) {
        return storeFile.resolveSibling(storeFile.getFileName() + SUFFIX);
    }

    public Path directory() {
        return directory;
    }

    /** The file that holds the list {@code name}. */
    public Path listFile(String name) {
        return directory.resolve(plainName(name));
    }

    /** The file that holds what is known about the list {@code name}. */
    public Path metadataFile(String name) {
        return directory.resolve(plainName(name) + METADATA);
    }

    /**
     * The cached copy of {@code name}, if there is one. When the metadata is missing or belongs to
     * other bytes (a crash between the two moves, two processes writing at once, or a hand edit), the
     * bytes are still returned, dated by the file, but without validators, so the next refresh
     * downloads the list whole instead of trusting an {@code ETag} that is not theirs.
     *
     * @throws IOException when a file exists but cannot be read
     */
    Optional<CachedIpList> read(String name) throws IOException {
        Path list = listFile(name);
        if (!Files.isRegularFile(list)) {
            return Optional.empty();
        }
        byte[] body = Files.readAllBytes(list);
        String sha256 = CachedIpList.sha256(body);
        Map<String, Object> meta = metadata(metadataFile(name));
        Instant fetchedAt = meta == null ? null : instant(meta, "fetchedAt");
        Instant checkedAt = meta == null ? null : instant(meta, "checkedAt");
        String url = meta == null ? null : JsonDocument.text(meta, "url");
        if (meta == null || !sha256.equals(JsonDocument.text(meta, "sha256")) || fetchedAt == null || checkedAt == null) {
            Instant modified = Files.getLastModifiedTime(list).toInstant();
            return Optional.of(new CachedIpList(url, null, null, modified, modified, body, sha256));
        }
        return Optional.of(new CachedIpList(url, JsonDocument.text(meta, "etag"), JsonDocument.text(meta, "lastModified"), fetchedAt, checkedAt,
                body, sha256));
    }

    /** Saves a downloaded list and its metadata, replacing the previous copy. */
    void write(String name, CachedIpList copy) throws IOException {
        Files.createDirectories(directory, OWNER_ONLY);
        // The list first: should the process die between the moves, the old metadata's SHA-256
        // no longer matches and read() drops its validators instead of pairing them with new bytes.
        replace(listFile(name), copy.body());
        writeMetadata(name, copy);
    }

    /** Saves only the metadata, after a {@code 304 Not Modified} moved the check time. */
    void writeMetadata(String name, CachedIpList copy) throws IOException {
        Files.createDirectories(directory, OWNER_ONLY);
        ObjectNode meta = Json.MAPPER.createObjectNode()
                .put("url", copy.url())
                .put("etag", copy.etag())
                .put("lastModified", copy.lastModified())
                .put("fetchedAt", copy.fetchedAt().toString())
                .put("checkedAt", copy.checkedAt().toString())
                .put("sha256", copy.sha256());
        replace(metadataFile(name), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(meta));
    }

    /** Writes {@code bytes} to {@code target} through a temporary file, flushed and moved over it, so a crash leaves the old file or the new one. */
    static void replace(Path target, byte[] bytes) throws IOException {
        Path temporary = Files.createTempFile(target.toAbsolutePath().getParent(), "." + target.getFileName() + ".", ".tmp");
        try {
            try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                // On disk before the move, or a power cut could leave the new name on empty blocks.
                out.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** The metadata document, or null when it is missing or not readable as JSON. */
    private static Map<String, Object> metadata(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return JsonDocument.object(JsonDocument.read(Files.readAllBytes(file)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    private static Instant instant(Map<String, Object> meta, String field) {
        String value = JsonDocument.text(meta, field);
        try {
            return value == null ? null : Instant.parse(value);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Whether {@code name} names a file in a directory and nothing outside it. */
    static boolean isPlainName(String name) {
        return !(name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals(".") || name.equals(".."));
    }

    // Names come from the catalog, which is data: refuse one that would write outside the cache.
    private static String plainName(String name) {
        if (!isPlainName(name)) {
            throw new IllegalArgumentException("IP list name '" + name + "' is not a plain file name; name it like common-crawlers.json.");
        }
        return name;
    }

    /**
     * Databind, for writing the metadata, made on first use: reading avoids it (see
     * {@link JsonDocument}), and a write only follows a download or a revalidation.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }
}
