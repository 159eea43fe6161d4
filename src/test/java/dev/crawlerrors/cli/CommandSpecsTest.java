package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandSpecsTest {

    @Test
    void noCommandOrOptionCarriesPicocliAnnotations() throws Exception {
        // an annotated command or option brings back the start-up cost CommandSpecs explains
        List<String> annotated = new ArrayList<>();
        for (Class<?> type : cliClasses()) {
            List<AnnotatedElement> elements = new ArrayList<>(List.of(type));
            elements.addAll(List.of(type.getDeclaredFields()));
            elements.addAll(List.of(type.getDeclaredMethods()));
            for (AnnotatedElement element : elements) {
                for (Annotation annotation : element.getDeclaredAnnotations()) {
                    if (annotation.annotationType().getName().startsWith("picocli.")) {
                        annotated.add(element + ": " + annotation.annotationType().getSimpleName());
                    }
                }
            }
        }
        // the listing found the package: every command and option class was looked at
        assertThat(cliClasses()).contains(Main.class, ImportCommand.class, ServeCommand.class, DemoCommand.class, VerifyCommand.class,
                StoreOptions.class, ServerOptions.class, FormatOption.class, PushedSourceOptions.class, TimeZoneOption.class);
        assertThat(annotated).isEmpty();
    }

    @Test
    void repeatableOptionsCollectEveryValueAndStartEmptyForEachCommand() {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve.spec()).parseArgs("--follow", "a.log", "--syslog", "udp://127.0.0.1:0", "--follow", "b.log");
        ServeCommand plain = new ServeCommand();
        new CommandLine(plain.spec()).parseArgs();

        assertThat(serve.follow).containsExactly(Path.of("a.log"), Path.of("b.log"));
        assertThat(serve.pushed.syslog).containsExactly("udp://127.0.0.1:0");
        assertThat(plain.follow).isEmpty();
        assertThat(plain.pushed.syslog).isEmpty();
    }

    @Test
    void optionsNotGivenTakeTheirDefaults() {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve.spec()).parseArgs();
        ImportCommand importer = new ImportCommand();
        new CommandLine(importer.spec()).parseArgs("--db", "x.duckdb", "--timezone", "Europe/Brussels", "a.log", "b.log");

        assertThat(serve.server.port).isEqualTo(8080);
        assertThat(serve.server.bind).isEqualTo("127.0.0.1");
        assertThat(serve.format.format).isEqualTo("auto");
        assertThat(serve.pushed.ingestPort).isNull();
        assertThat(serve.server.pageCacheMib).isEqualTo(64);
        assertThat(importer.store.db).isEqualTo("x.duckdb");
        assertThat(importer.store.timezone.timezone).isEqualTo("Europe/Brussels");
        assertThat(importer.store.dnsServer).isNull();
        assertThat(importer.files).containsExactly("a.log", "b.log");
    }

    @Test
    void aPageCacheOutOfRangeIsAUsageErrorNamingTheOption() {
        for (String size : List.of("-1", "16385")) {
            ServeCommand serve = new ServeCommand();
            new CommandLine(serve.spec()).parseArgs("--page-cache", size);
            org.assertj.core.api.Assertions.assertThatThrownBy(serve.server::check)
                    .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--page-cache");
        }
    }

    @Test
    void everyCommandPrintsTheVersionAndItsHelp() {
        for (String command : List.of("import", "serve", "verify", "demo")) {
            StringWriter version = new StringWriter();
            StringWriter help = new StringWriter();

            int versionStatus = Main.commandLine().setOut(new PrintWriter(version)).execute(command, "-V");
            int helpStatus = Main.commandLine().setOut(new PrintWriter(help)).execute(command, "--help");

            assertThat(versionStatus).isZero();
            assertThat(version.toString()).isEqualTo(CommandSpecs.VERSION + System.lineSeparator());
            assertThat(helpStatus).isZero();
            assertThat(help.toString()).startsWith("Usage: crawl-errors " + command + " [-hV]")
                    .contains("  -h, --help ", "Show this help message and exit.", "  -V, --version ");
        }
    }

    /** The help of {@code command}, its lines joined with one space where they were wrapped. */
    private static String help(String command) {
        StringWriter help = new StringWriter();
        assertThat(Main.commandLine().setOut(new PrintWriter(help)).execute(command, "--help")).isZero();
        return help.toString();
    }

    @Test
    void helpWrapsAtSpacesOnlySoWhatUsersCopyIsWhole() {
        String importHelp = help("import");
        String serveHelp = help("serve");
        // a wrapped line continues after the indentation of the next: read as the user copies it
        String importRead = importHelp.replaceAll("\\s*\\R\\s*", " ");
        String serveRead = serveHelp.replaceAll("\\s*\\R\\s*", " ");

        // the JDK's line breaker, which picocli wraps with, broke after these dots: 'access. log*', '. /crawl-errors.duckdb'
        assertThat(importRead).contains("globs such as '/var/log/nginx/access.log*';", "else ./crawl-errors.duckdb).", "plain, .gz or .zst;");
        assertThat(serveRead).contains("access_log syslog:server=127.0.0.1:5140;", "(default: 127.0.0.1; 0.0.0.0 for every interface)");
        for (String line : (importHelp + serveHelp).split("\\R")) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(80);
            assertThat(line).as(line).doesNotMatch(".*[\\uE000-\\uE07F].*");
        }
    }

    @Test
    void aUsageErrorIsItsLineAndWhereTheHelpIsNotTheWholeUsage() {
        StringWriter err = new StringWriter();

        int exit = Main.commandLine().setErr(new PrintWriter(err)).execute("import", "--bogus", "access.log");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("Unknown option: '--bogus'" + System.lineSeparator()
                + "See 'crawl-errors import --help'." + System.lineSeparator());
    }

    @Test
    void aMistypedCommandKeepsPicoclisSuggestion() {
        StringWriter err = new StringWriter();

        int exit = Main.commandLine().setErr(new PrintWriter(err)).execute("imprt", "access.log");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().split("\\R")).hasSizeLessThanOrEqualTo(5).contains("See 'crawl-errors --help'.");
        assertThat(err.toString()).contains("import");
    }

    /** The classes of the cli package, read from where this build put them. */
    private static List<Class<?>> cliClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("dev/crawlerrors/cli");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = file.getFileName().toString();
                classes.add(Class.forName("dev.crawlerrors.cli." + name.substring(0, name.length() - ".class".length())));
            }
        }
        return classes;
    }
}
