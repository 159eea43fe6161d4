package dev.crawlerrors.ingest.source;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.LinkOption;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;

/**
 * Turns import arguments into the logs to read: a file as given; a glob the shell left alone
 * ({@code '/var/log/nginx/access.log*'}) expanded; a directory replaced by the files in it that are
 * named like access logs (the others are skipped, and the notes say which); {@code -} standard
 * input. Each rotated family is read oldest first ({@link RotationOrder}), families in the order
 * they were first named, and a file named twice is read once.
 */
public final class LogFiles {

    private static final String GLOB_CHARACTERS = "*?[{";

    private LogFiles() {
    }

    /**
     * What the arguments came to.
     *
     * @param sources  the logs to read, in reading order
     * @param notes    what was left out and why, one sentence each
     * @param problems arguments that name no log (a glob matching nothing, a directory without logs)
     */
    public record Expansion(List<LogSource> sources, List<String> notes, List<String> problems) {
    }

    public static Expansion expand(List<String> arguments) {
        List<String> notes = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<Family, List<Named>> families = new LinkedHashMap<>();
        Set<Object> seen = new HashSet<>();
        Map<Path, String> parents = new HashMap<>();
        // Design: each loop's body is a method of its own, so the body gets compiled after a few
        // calls: a loop in a method called once stays slow for long, and a large directory of logs
        // is listed once per run.
        for (String argument : arguments) {
            for (Named file : resolve(argument, notes, problems, parents)) {
                addToFamily(file, families, seen);
            }
        }
        List<LogSource> sources = new ArrayList<>();
        for (List<Named> family : families.values()) {
            addOldestFirst(family, sources);
        }
        return new Expansion(sources, notes, problems);
    }

    /** Puts {@code file} in its family, unless it was named before (through a link, or by two arguments). */
    private static void addToFamily(Named file, Map<Family, List<Named>> families, Set<Object> seen) {
        if (file.source.path() != null && !seen.add(identity(file))) {
            return;
        }
        Family family = new Family(file.folder, file.source.path() == null ? "-" : file.order.family());
        List<Named> members = families.get(family);
        if (members == null) {
            members = new ArrayList<>(1);
            families.put(family, members);
        }
        members.add(file);
    }

    private static void addOldestFirst(List<Named> family, List<LogSource> sources) {
        if (family.size() > 1) {
            family.sort(Comparator.comparing(Named::order, RotationOrder.OLDEST_FIRST));
        }
        for (Named file : family) {
            sources.add(file.source);
        }
    }

    /** A rotated family: its directory, absolute (null for standard input), and its name there. */
    private record Family(String folder, String name) {
    }

    /** @param parents each directory a file was found in, absolute, as its family names it */
    private static List<Named> resolve(String argument, List<String> notes, List<String> problems, Map<Path, String> parents) {
        if (argument.equals("-")) {
            return List.of(new Named(LogSource.of("-"), RotationOrder.of("-"), null, null));
        }
        Path path = Path.of(argument);
        if (Files.isDirectory(path)) {
            return directory(argument, path, notes, problems);
        }
        if (!Files.exists(path) && isGlob(argument)) {
            int problemsBefore = problems.size();
            List<Named> matches = glob(argument, notes, problems, parents);
            if (matches.isEmpty() && problems.size() == problemsBefore) {
                problems.add("no file matches " + argument);
            }
            return matches;
        }
        // a missing or unreadable file is reported when it is opened, with the others
        return List.of(named(path, argument, parents));
    }

    private static List<Named> directory(String argument, Path dir, List<String> notes, List<String> problems) {
        List<Named> logs = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        // the directory's families are named by it once, not by each of its 50,000 files
        String folder = absolute(dir);
        String shownDir = argument.endsWith("/") ? argument : argument + "/";
        try {
            if (!listByName(dir, shownDir, folder, logs, skipped)) {
                logs.clear();
                skipped.clear();
                listByPath(dir, shownDir, folder, logs, skipped);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            problems.add(argument + " cannot be listed (" + e.getMessage() + ")");
            return List.of();
        }
        if (!skipped.isEmpty()) {
            notes.add("skipped in " + argument + ": " + String.join(", ", skipped));
        }
        if (logs.isEmpty()) {
            problems.add("directory " + argument + " holds no access logs (files named like *.log, *.log.N, *.gz, *.zst or access*)");
        }
        return logs;
    }

    /**
     * The directory's logs, by name, each looked at once (through links), its attributes kept only
     * as long as it takes to make its source (50,000 files' attributes, held to the end of the
     * listing, were moved to the old generation and its pages touched: a tenth of a re-run). The
     * names come in one call: a DirectoryStream made a path for each entry and a name again from
     * it, 0.18 s of a 50,000-file listing against 0.04 s (a JVM's first run of each).
     *
     * @return false when a name the system's encoding cannot carry back to its file (a name not in
     *         it, under a POSIX locale) was not found that way: then the directory is to be listed
     *         by its paths ({@link #listByPath}), which keep the name's bytes
     */
    private static boolean listByName(Path dir, String shownDir, String folder, List<Named> logs, List<String> skipped) {
        String[] names = dir.toFile().list();
        if (names == null) {
            return false;
        }
        Arrays.sort(names);
        for (String name : names) {
            Path path = dir.resolve(name);
            BasicFileAttributes attributes = attributes(path);
            if (attributes == null && !Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                return false;
            }
            look(path, name, attributes, shownDir, folder, logs, skipped);
        }
        return true;
    }

    /** {@link #listByName}, by the directory's paths. */
    private static void listByPath(Path dir, String shownDir, String folder, List<Named> logs, List<String> skipped) throws IOException {
        List<Path> paths = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir)) {
            for (Path path : listing) {
                paths.add(path);
            }
        }
        paths.sort(Comparator.comparing(path -> path.getFileName().toString()));
        for (Path path : paths) {
            look(path, path.getFileName().toString(), attributes(path), shownDir, folder, logs, skipped);
        }
    }

    /** Adds a directory's entry to {@code logs} as a log to read, or says in {@code skipped} why it is skipped. */
    private static void look(Path path, String name, BasicFileAttributes attributes, String shownDir, String folder, List<Named> logs,
            List<String> skipped) {
        String reason = attributes == null ? "cannot be looked at"
                : attributes.isDirectory() ? "a directory, not searched"
                : !attributes.isRegularFile() ? "not a regular file"
                : skipReason(name);
        if (reason == null) {
            logs.add(Named.of(path, shownDir + name, RotationOrder.of(name), attributes, folder));
        } else {
            skipped.add(name + " (" + reason + ")");
        }
    }

    /** Why a file in a directory is not taken for an access log, or null when it is. */
    static String skipReason(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (name.startsWith(".")) {
            return "a hidden file";
        }
        if (lower.contains("error") && !lower.contains("access")) {
            return "an error log, not an access log";
        }
        if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz") || lower.endsWith(".tar.zst")) {
            return "an archive, not a log";
        }
        boolean logLike = lower.endsWith(".log") || lower.contains(".log.") || lower.contains(".log-") || lower.contains("access")
                || lower.endsWith(".gz") || lower.endsWith(".zst");
        return logLike ? null : "not named like an access log";
    }

    private static List<Named> glob(String pattern, List<String> notes, List<String> problems, Map<Path, String> parents) {
        // the directory part before the first glob character is walked; the rest is matched
        String normalized = pattern.replace('\\', '/');
        int firstGlob = firstGlobCharacter(normalized);
        int baseEnd = normalized.lastIndexOf('/', firstGlob);
        String baseText = baseEnd < 0 ? "" : normalized.substring(0, baseEnd + 1);
        Path base = Path.of(baseText.isEmpty() ? "." : baseText);
        String rest = normalized.substring(baseEnd + 1);
        int depth = rest.split("/").length;
        PathMatcher matcher;
        try {
            matcher = FileSystems.getDefault().getPathMatcher("glob:" + rest);
        } catch (PatternSyntaxException e) {
            problems.add(malformedGlob(pattern, e));
            return List.of();
        }
        List<Named> matches = new ArrayList<>();
        if (!Files.isDirectory(base)) {
            return matches;
        }
        // links are followed, to directories too: logs are often reached through one (/var/log/site -> /srv/...);
        // a link back to a directory above it is met once and not followed again
        try {
            Files.walkFileTree(base, EnumSet.of(FileVisitOption.FOLLOW_LINKS), depth, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    Path relative = base.relativize(file);
                    if (attributes.isRegularFile() && matcher.matches(relative)) {
                        matches.add(Named.of(file, baseText + relative.toString().replace('\\', '/'),
                                RotationOrder.of(file.getFileName().toString()), attributes, folder(file, parents)));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    if (e instanceof FileSystemLoopException) {
                        notes.add("not followed while expanding " + pattern + ": " + file + " links back to a directory above it");
                    }
                    return FileVisitResult.CONTINUE; // an entry that cannot be looked at is not a log to read
                }
            });
        } catch (IOException e) {
            problems.add(pattern + " cannot be expanded (" + e.getMessage() + ")");
        }
        matches.sort(Comparator.comparing(named -> named.source.path()));
        return matches;
    }

    /**
     * Says what is wrong with a glob that names no file and cannot be read, and what to write. The
     * JDK's descriptions (sun.nio.fs.Globs) are worded for regular expressions and its index is where
     * it gave up, so the common ones are said again in a glob's terms; any other is quoted.
     */
    static String malformedGlob(String pattern, PatternSyntaxException e) {
        String what = switch (e.getDescription()) {
            case "Missing ']" -> "its '[' is never closed: close it with ']', or write a '[' that is part of the name as [[]";
            case "Missing '}" -> "its '{' is never closed: close it with '}', or write a '{' that is part of the name as [{]";
            case "Cannot nest groups" -> "it has a {...} inside another, which a glob cannot: write the choices in one {...}";
            case "Explicit 'name separator' in class" -> "a [...] in it holds a '/', but stands for one character of a name: "
                    + "take the '/' out";
            default -> "it cannot be read (" + e.getDescription() + "): write a *, ?, [ or { that is part of the name in "
                    + "brackets, as [[]";
        };
        return pattern + " names no file, and as a glob " + what;
    }

    /**
     * Whether {@code argument} names files that may come and go rather than one file: a directory,
     * or a glob that is not the name of an existing file ({@code serve --follow 'DIR/*.gz'}).
     */
    public static boolean isPattern(String argument) {
        Path path = Path.of(argument);
        return Files.isDirectory(path) || (!Files.exists(path) && isGlob(argument));
    }

    private static boolean isGlob(String argument) {
        return firstGlobCharacter(argument) < argument.length();
    }

    private static int firstGlobCharacter(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (GLOB_CHARACTERS.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return text.length();
    }

    private static Named named(Path path, String name, Map<Path, String> parents) {
        return Named.of(path, name, RotationOrder.of(path.getFileName() == null ? name : path.getFileName().toString()), attributes(path),
                folder(path, parents));
    }

    /** The directory {@code file} is in, absolute, looked up once per directory in {@code parents}. */
    private static String folder(Path file, Map<Path, String> parents) {
        return parents.computeIfAbsent(file.getParent() == null ? Path.of("") : file.getParent(), LogFiles::absolute);
    }

    /** The file's attributes, through links; null when it cannot be looked at. */
    private static BasicFileAttributes attributes(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            return null;
        }
    }

    /** A directory as an absolute path, the same however it was named (a family is its directory and its name). */
    private static String absolute(Path dir) {
        return dir.toAbsolutePath().normalize().toString();
    }

    /** What tells a file named twice (through a link, or by two arguments): its file key, else its real path. */
    private static Object identity(Named file) {
        if (file.identity != null) {
            return file.identity;
        }
        try {
            return file.source.path().toRealPath();
        } catch (IOException e) {
            return file.source.path().toAbsolutePath().normalize();
        }
    }

    /**
     * A log to read, as it was when it was listed or named, how its name orders it in its family,
     * the directory it is in, absolute (null for standard input), and its file key (null when it
     * has none or cannot be looked at).
     */
    private record Named(LogSource source, RotationOrder order, String folder, Object identity) {
        static Named of(Path path, String name, RotationOrder order, BasicFileAttributes attributes, String folder) {
            return new Named(LogSource.file(path, name, attributes), order, folder, attributes == null ? null : attributes.fileKey());
        }
    }
}
