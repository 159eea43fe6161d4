package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ProcessTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script ({@code crawl-errors}) deciding when to build the jar, run in a copy of the
 * project whose Maven and JDK are stand-ins that only record what they were asked to do.
 */
@ProcessTest
class LauncherTest {

    @TempDir
    Path project;

    private Path record;

    @BeforeEach
    void setUp() throws IOException {
        Files.copy(Path.of("crawl-errors"), project.resolve("crawl-errors"));
        Files.createDirectories(project.resolve("bin"));
        Files.copy(Path.of("bin/find-java"), project.resolve("bin/find-java"));
        Path source = Files.createDirectories(project.resolve("src/main")).resolve("Source.java");
        Files.writeString(source, "class Source {}");
        Files.writeString(project.resolve("pom.xml"), "<project/>");
        FileTime anHourAgo = FileTime.from(Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(source, anHourAgo);
        Files.setLastModifiedTime(project.resolve("pom.xml"), anHourAgo);
        record = project.resolve("record.txt");
        Files.writeString(record, "");
        // a JDK 21 stand-in (no AOT cache at 21: the launcher only adds a CDS option) and a Maven
        // stand-in that writes a jar, then exits as MVN_EXIT says (a stopped build leaves its jar)
        Path jdk = Files.createDirectories(project.resolve("jdk/bin"));
        Files.writeString(project.resolve("jdk/release"), "JAVA_VERSION=\"21.0.9\"\n");
        // the arguments of its last run, one a line, beside the record
        script(jdk.resolve("java"), "echo run >> \"$RECORD\"; printf '%s\\n' \"$@\" > \"$RECORD.args\"");
        script(jdk.resolve("javac"), "exit 0");
        script(Files.createDirectories(project.resolve("fake-bin")).resolve("mvn"),
                "echo build >> \"$RECORD\"; mkdir -p target; printf 'a jar' > target/crawl-errors.jar; exit \"${MVN_EXIT:-0}\"");
    }

    private static void script(Path file, String body) throws IOException {
        Files.writeString(file, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Runs the launcher; its exit status. */
    private int launch(String mvnExit) throws Exception {
        return launch(mvnExit, Map.of(), "import", "access.log");
    }

    /** Runs the launcher with {@code arguments} and these variables set besides the test's own; its exit status. */
    private int launch(String mvnExit, Map<String, String> variables, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", project.resolve("crawl-errors").toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = builder.environment();
        env.remove("CRAWL_ERRORS_JAVA_OPTS");
        env.remove("JAVA_TOOL_OPTIONS");
        env.remove("JDK_JAVA_OPTIONS");
        env.putAll(variables);
        env.put("JAVA_HOME", project.resolve("jdk").toString());
        env.put("PATH", project.resolve("fake-bin") + ":" + System.getenv("PATH"));
        env.put("RECORD", record.toString());
        env.put("MVN_EXIT", mvnExit);
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return process.exitValue();
    }

    private List<String> recorded() throws IOException {
        return Files.readAllLines(record, StandardCharsets.UTF_8);
    }

    @Test
    void buildsOnceThenRunsTheJarAsItIs() throws Exception {
        assertThat(launch("0")).isZero();
        assertThat(launch("0")).isZero();

        assertThat(recorded()).containsExactly("build", "run", "run");
    }

    @Test
    void aBuildStoppedPartWayIsDoneAgainThoughItsJarIsNewerThanTheSources() throws Exception {
        assertThat(launch("130")).isNotZero(); // Ctrl-C during the build: a jar is left, newer than the sources

        assertThat(launch("0")).isZero();

        assertThat(recorded()).containsExactly("build", "build", "run");
    }

    @Test
    void aSourceChangedSinceTheBuildBuildsAgain() throws Exception {
        assertThat(launch("0")).isZero();
        Path source = project.resolve("src/main/Source.java");
        Files.writeString(source, "class Source { int changed; }");
        Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(5)));

        assertThat(launch("0")).isZero();

        assertThat(recorded()).containsExactly("build", "run", "build", "run");
    }

    @Test
    void passesItsJitDirectivesToTheJvmAndEachNamesAMethodThatExists() throws Exception {
        assertThat(launch("0")).isZero();

        List<String> arguments = Files.readAllLines(Path.of(record + ".args"), StandardCharsets.UTF_8);
        List<String> directives = arguments.stream().filter(a -> a.startsWith("-XX:CompileCommand=")).toList();
        // quiet first, or the JVM prints each directive on standard output, in the middle of a command's own
        assertThat(directives).containsExactly("-XX:CompileCommand=quiet",
                "-XX:CompileCommand=dontinline,dev.crawlerrors.ingest.format.LogText::scanQuoted",
                "-XX:CompileCommand=dontinline,dev.crawlerrors.ingest.format.CombinedLineParser::combinedHit");
        assertThat(arguments.indexOf(directives.get(0))).isLessThan(arguments.indexOf("-jar"));
        // a directive naming a method that was renamed or moved would be ignored without a word
        Pattern named = Pattern.compile("-XX:CompileCommand=dontinline,([\\w.]+)::(\\w+)");
        for (String directive : directives.subList(1, directives.size())) {
            Matcher m = named.matcher(directive);
            assertThat(m.matches()).as(directive).isTrue();
            assertThat(Class.forName(m.group(1)).getDeclaredMethods()).as(directive).anyMatch(method -> method.getName().equals(m.group(2)));
        }
    }

    /**
     * A JDK 25 stand-in: its java records "train" when asked to write an ahead-of-time cache (and
     * writes one), "run" otherwise. The project's jar is then rebuilt as the test suite's
     * {@code mvn verify} rebuilds it.
     */
    private void useJdk25() throws IOException {
        Files.writeString(project.resolve("jdk/release"), "JAVA_VERSION=\"25.0.1\"\n");
        script(project.resolve("jdk/bin/java"), """
                for a in "$@"; do
                  case "$a" in
                    -XX:AOTCacheOutput=*) echo train >> "$RECORD"; printf 'cache' > "${a#-XX:AOTCacheOutput=}"; exit 0 ;;
                  esac
                done
                echo run >> "$RECORD"
                """);
    }

    /** The jar rebuilt after the cache was trained: {@code content} as its bytes, newer than the cache. */
    private void rebuildJar(String content) throws IOException {
        Path jar = project.resolve("target/crawl-errors.jar");
        Files.writeString(jar, content);
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
    }

    @Test
    void keepsTheStartUpCacheWhenABuildMadeTheSameJarAgain() throws Exception {
        useJdk25();
        assertThat(launch("0")).isZero(); // built and trained

        rebuildJar("a jar"); // the test suite packaged the same sources: the same bytes
        assertThat(launch("0")).isZero();
        assertThat(launch("0")).isZero();

        assertThat(recorded()).containsExactly("build", "train", "run", "run", "run");
    }

    @Test
    void trainsTheStartUpCacheAgainForAJarThatChanged() throws Exception {
        useJdk25();
        assertThat(launch("0")).isZero();

        rebuildJar("another jar");
        assertThat(launch("0")).isZero();

        assertThat(recorded()).containsExactly("build", "train", "run", "train", "run");
    }

    /** The JVM options of the last run: those before {@code -jar}. */
    private List<String> jvmOptions() throws IOException {
        List<String> arguments = Files.readAllLines(Path.of(record + ".args"), StandardCharsets.UTF_8);
        return arguments.subList(0, arguments.indexOf("-jar"));
    }

    @Test
    void anImportRunsOnTheSerialCollectorUnlessTheUserChoseOne() throws Exception {
        assertThat(launch("0")).isZero();
        assertThat(jvmOptions()).contains("-XX:+UseSerialGC", "-Xmn48m", "-XX:SurvivorRatio=2", "-XX:TargetSurvivorRatio=90", "-XX:CompileThresholdScaling=3");

        // a heap bound of the user's is kept with it, and a young generation of the user's comes after the launcher's
        assertThat(launch("0", Map.of("CRAWL_ERRORS_JAVA_OPTS", "-Xmx2g -Xmn512m"), "import", "access.log")).isZero();
        assertThat(jvmOptions()).contains("-XX:+UseSerialGC", "-Xmx2g");
        assertThat(jvmOptions().lastIndexOf("-Xmn512m")).isGreaterThan(jvmOptions().indexOf("-Xmn48m"));

        // a collector of the user's, wherever the JVM reads it from, is the only one (two stop the JVM)
        assertThat(launch("0", Map.of("CRAWL_ERRORS_JAVA_OPTS", "-XX:+UseZGC"), "import", "access.log")).isZero();
        assertThat(jvmOptions()).contains("-XX:+UseZGC").doesNotContain("-XX:+UseSerialGC", "-Xmn48m");
        assertThat(launch("0", Map.of("JAVA_TOOL_OPTIONS", "-XX:+UseG1GC"), "import", "access.log")).isZero();
        assertThat(jvmOptions()).doesNotContain("-XX:+UseSerialGC");
        assertThat(launch("0", Map.of("JDK_JAVA_OPTIONS", "-XX:+UseParallelGC"), "import", "access.log")).isZero();
        assertThat(jvmOptions()).doesNotContain("-XX:+UseSerialGC");
    }

    @Test
    void onlyAnImportRunsOnTheSerialCollector() throws Exception {
        assertThat(launch("0", Map.of(), "serve", "--db", "hits.duckdb")).isZero();

        assertThat(jvmOptions()).doesNotContain("-XX:+UseSerialGC", "-Xmn48m", "-XX:CompileThresholdScaling=3");
    }

    @Test
    void serveAndDemoGetAHeapBoundUnlessTheUserSetOne() throws Exception {
        assertThat(launch("0", Map.of(), "serve", "--db", "hits.duckdb")).isZero();
        assertThat(jvmOptions()).contains("-Xmx512m");
        assertThat(launch("0", Map.of(), "demo")).isZero();
        assertThat(jvmOptions()).contains("-Xmx512m");
        assertThat(launch("0", Map.of(), "import", "access.log")).isZero();
        assertThat(jvmOptions()).doesNotContain("-Xmx512m");

        assertThat(launch("0", Map.of("CRAWL_ERRORS_JAVA_OPTS", "-Xmx2g"), "serve", "--db", "hits.duckdb")).isZero();
        assertThat(jvmOptions()).contains("-Xmx2g").doesNotContain("-Xmx512m");
        // read by the JVM before the command line, so a bound of the launcher's would override it
        assertThat(launch("0", Map.of("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=10"), "serve", "--db", "hits.duckdb")).isZero();
        assertThat(jvmOptions()).doesNotContain("-Xmx512m");
    }
}
