package dev.crawlerrors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rooms follow the flow of data: ingest (format, source, push) -> crawler (catalog, dns, verify, signature) -> store (and its
 * engines) -> pipeline, and store -> report (and its patterns) and alert -> web, with cli and demo at the edge and text
 * under everything. A room may use the rooms it is allowed below; never one further up the flow,
 * and cli reaches ingest only through the pipeline and the few types its options name.
 */
class ArchitectureTest {

    private static final Path MAIN = Path.of("src/main/java/dev/crawlerrors");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?dev\\.crawlerrors\\.([a-z.]+)\\.[A-Z]", Pattern.MULTILINE);

    /** Each room and the rooms of ours it may import. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("text", Set.of()),
            Map.entry("ingest", Set.of("text")),
            Map.entry("ingest.format", Set.of("ingest", "text")),
            Map.entry("ingest.source", Set.of("ingest", "ingest.format", "text")),
            Map.entry("ingest.push", Set.of("ingest", "ingest.format", "text")),
            Map.entry("crawler", Set.of("crawler.catalog", "ingest", "ingest.format", "text")),
            // the open catalog's patterns and how they are matched: nothing of ours below it
            Map.entry("crawler.catalog", Set.of()),
            Map.entry("crawler.dns", Set.of("text")),
            // the verifier hands signed requests to crawler.signature, which checks them by their signature
            Map.entry("crawler.verify", Set.of("crawler", "crawler.dns", "crawler.signature", "ingest", "text")),
            // Web Bot Auth: signatures read from the log, signers' key directories, their history
            Map.entry("crawler.signature", Set.of("crawler", "ingest", "text")),
            Map.entry("store", Set.of("crawler", "ingest", "sitemap", "text")),
            // a DuckDB file takes imports through the serve that has it open (store.remote)
            Map.entry("store.duckdb", Set.of("store", "store.remote", "crawler", "ingest", "sitemap", "text")),
            Map.entry("store.clickhouse", Set.of("store", "crawler", "ingest", "sitemap", "text")),
            Map.entry("store.remote", Set.of("store", "crawler", "ingest", "sitemap", "text")),
            Map.entry("pipeline", Set.of("store", "crawler", "crawler.verify", "crawler.signature", "ingest", "ingest.format", "ingest.source",
                    "ingest.push", "sitemap", "text")),
            // report.pattern finds the URL patterns of error hits (store's counts in, patterns out)
            Map.entry("report.pattern", Set.of("store", "text")),
            Map.entry("report", Set.of("report.pattern", "store", "crawler", "sitemap", "text")),
            // the built-in alerts count what the store takes and keep their state in it
            Map.entry("alert", Set.of("store", "crawler", "ingest", "text")),
            Map.entry("web", Set.of("report", "report.pattern", "alert", "store", "crawler", "text")),
            Map.entry("demo", Set.of("text")),
            // sitemaps as the site lists its URLs, read from files and servers within bounds
            Map.entry("sitemap", Set.of("text")),
            // cli wires the rest together: it opens an engine, reads the options that name a format
            // (ingest.format) or a syslog address (ingest.push), and runs the pipeline; it never reads
            // or parses a log itself (ingest.source, ingest's own types are the pipeline's business)
            Map.entry("cli", Set.of("pipeline", "report", "alert", "web", "store", "store.duckdb", "store.clickhouse", "store.remote", "crawler",
                    "crawler.verify", "crawler.signature", "crawler.dns", "ingest.format", "ingest.push", "demo", "sitemap", "text")));

    @Test
    void everyRoomImportsOnlyTheRoomsBelowIt() throws IOException {
        List<String> violations = new ArrayList<>();
        imports().forEach((room, used) -> {
            Set<String> allowed = ALLOWED.get(room);
            for (String other : used) {
                if (!other.equals(room) && !allowed.contains(other)) {
                    violations.add(room + " imports " + other);
                }
            }
        });
        assertThat(violations).isEmpty();
    }

    @Test
    void everyRoomIsKnown() throws IOException {
        assertThat(imports().keySet()).containsExactlyInAnyOrderElementsOf(ALLOWED.keySet());
    }

    @Test
    void noEngineSqlOutsideItsRoom() throws IOException {
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String room = room(file);
                if (room.startsWith("store.")) {
                    continue;
                }
                String code = Files.readString(file);
                if (code.contains("java.sql.") || code.contains("org.duckdb.")) {
                    violations.add(MAIN.relativize(file).toString());
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    /** Each room (a package under dev.crawlerrors) and the rooms of ours its files import. */
    private static Map<String, Set<String>> imports() throws IOException {
        Map<String, Set<String>> rooms = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Set<String> used = rooms.computeIfAbsent(room(file), r -> new TreeSet<>());
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    used.add(m.group(1));
                }
            }
        }
        return rooms;
    }

    private static String room(Path file) {
        return MAIN.relativize(file.getParent()).toString().replace('/', '.');
    }
}
