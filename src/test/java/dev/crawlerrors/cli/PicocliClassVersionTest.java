package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The picocli the project runs is the build's rewrite of the library as Java 8 class files (see
 * {@code src/build/UpgradeClassVersion.java}): JDK 25's start-up cache leaves out the library's own
 * Java 5 classes, which every start then read, parsed and verified from the jar.
 */
class PicocliClassVersionTest {

    @Test
    void picocliIsRunFromClassFilesThatTheStartUpCacheCanHold() throws Exception {
        List<String> names = picocliClassNames();
        assertThat(names).hasSizeGreaterThan(200).contains("picocli.CommandLine", "picocli.CommandLine$Model$CommandSpec");
        for (String name : names) {
            assertThat(majorVersion(name)).as(name).isGreaterThanOrEqualTo(50);
        }
    }

    @Test
    void everyRewrittenClassPassesTheVerifierThatChecksFrames() throws Exception {
        // linking verifies a class: with frames from version 50 on, by the type-checking verifier
        // alone, so a wrong frame is a VerifyError here rather than in some rarely taken path
        ClassLoader loader = CommandLine.class.getClassLoader();
        for (String name : picocliClassNames()) {
            Class.forName(name, true, loader);
        }
    }

    private static int majorVersion(String className) throws IOException {
        try (InputStream in = CommandLine.class.getClassLoader().getResourceAsStream(className.replace('.', '/') + ".class");
                DataInputStream data = new DataInputStream(in)) {
            data.readInt(); // magic
            data.readUnsignedShort(); // minor
            return data.readUnsignedShort();
        }
    }

    /** The classes beside {@code CommandLine}: target/classes in a build, the jar when run from one. */
    private static List<String> picocliClassNames() throws IOException, URISyntaxException {
        Path source = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> files = new ArrayList<>();
        if (Files.isDirectory(source)) {
            try (Stream<Path> walk = Files.walk(source.resolve("picocli"))) {
                walk.map(file -> source.relativize(file).toString().replace('\\', '/')).forEach(files::add);
            }
        } else {
            try (ZipFile jar = new ZipFile(source.toFile())) {
                jar.stream().map(entry -> entry.getName()).filter(name -> name.startsWith("picocli/")).forEach(files::add);
            }
        }
        return files.stream()
                .filter(file -> file.endsWith(".class"))
                .map(file -> file.substring(0, file.length() - ".class".length()).replace('/', '.'))
                .sorted()
                .toList();
    }
}
