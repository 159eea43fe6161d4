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
        assertThat(importer.store.db).isEqualTo("x.duckdb");
        assertThat(importer.store.timezone.timezone).isEqualTo("Europe/Brussels");
        assertThat(importer.store.dnsServer).isNull();
        assertThat(importer.files).containsExactly("a.log", "b.log");
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
