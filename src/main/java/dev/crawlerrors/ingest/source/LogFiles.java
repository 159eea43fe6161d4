package dev.crawlerrors.ingest.source;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

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
        Map<String, List<Named>> families = new LinkedHashMap<>();
        Set<Path> seen = new HashSet<>();
        for (String argument : arguments) {
            for (Named file : resolve(argument, notes, problems)) {
                if (file.path != null && !seen.add(identity(file.path))) {
                    continue;
                }
                String family = file.path == null ? "-" : parentOf(file.path) + "/" + file.order.family();
                families.computeIfAbsent(family, k -> new ArrayList<>()).add(file);
            }
        }
        List<LogSource> sources = new ArrayList<>();
        for (List<Named> family : families.values()) {
            family.sort(Comparator.comparing(Named::order, RotationOrder.OLDEST_FIRST));
            for (Named file : family) {
                sources.add(file.path == null ? LogSource.of("-") : LogSource.file(file.path, file.name));
            }
        }
        return new Expansion(sources, notes, problems);
    }

    private static List<Named> resolve(String argument, List<String> notes, List<String> problems) {
        if (argument.equals("-")) {
            return List.of(new Named(null, "-", RotationOrder.of("-")));
        }
        Path path = Path.of(argument);
        if (Files.isDirectory(path)) {
            return directory(argument, path, notes, problems);
        }
        if (!Files.exists(path) && isGlob(argument)) {
            int problemsBefore = problems.size();
            List<Named> matches = glob(argument, problems);
            if (matches.isEmpty() && problems.size() == problemsBefore) {
                problems.add("no file matches " + argument);
            }
            return matches;
        }
        // a missing or unreadable file is reported when it is opened, with the others
        return List.of(named(path, argument));
    }

    private static List<Named> directory(String argument, Path dir, List<String> notes, List<String> problems) {
        List<Named> logs = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path entry : entries.sorted().toList()) {
                String name = entry.getFileName().toString();
                String reason = Files.isDirectory(entry) ? "a directory, not searched"
                        : !Files.isRegularFile(entry) ? "not a regular file"
                        : skipReason(name);
                if (reason == null) {
                    logs.add(named(entry, join(argument, name)));
                } else {
                    skipped.add(name + " (" + reason + ")");
                }
            }
        } catch (IOException e) {
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

    private static List<Named> glob(String pattern, List<String> problems) {
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
        try (Stream<Path> walk = Files.walk(base, depth)) {
            for (Path file : walk.sorted().toList()) {
                Path relative = base.relativize(file);
                if (Files.isRegularFile(file) && matcher.matches(relative)) {
                    matches.add(named(file, baseText + relative.toString().replace('\\', '/')));
                }
            }
        } catch (IOException e) {
            problems.add(pattern + " cannot be expanded (" + e.getMessage() + ")");
        }
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

    private static Named named(Path path, String name) {
        return new Named(path, name, RotationOrder.of(path.getFileName() == null ? name : path.getFileName().toString()));
    }

    private static String join(String dir, String name) {
        return dir.endsWith("/") ? dir + name : dir + "/" + name;
    }

    private static Path parentOf(Path path) {
        Path parent = path.toAbsolutePath().normalize().getParent();
        return parent == null ? Path.of("/") : parent;
    }

    private static Path identity(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    private record Named(Path path, String name, RotationOrder order) {
    }
}
