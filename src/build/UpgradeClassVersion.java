import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Build step (run by the pom in process-classes): rewrites class files older than Java 6 (class-file
 * version 49) as version 52, with the stack-map frames that version carries, and leaves the newer
 * ones as they are.
 *
 * <p>Why: picocli is compiled for Java 5, and the JDK's start-up cache (JDK 25's AOT cache) leaves
 * such classes out ("old class has been linked"). Its 228 classes were read from the jar, parsed
 * and verified by the old verifier on every start, a tenth of a one-line import. Rewritten, the
 * cache holds them linked. The bytecode is unchanged; only the version and the frames are new, and
 * the JVM checks those frames when it loads each class.
 *
 * <p>Usage: {@code java -cp asm.jar UpgradeClassVersion.java FROM TO}: every {@code .class} under
 * the directory FROM is written to the same place under TO. A class that cannot be given frames
 * (subroutines, which javac stopped emitting long before Java 5's end) fails the build.
 */
public final class UpgradeClassVersion {

    private static final int FIRST_WITH_FRAMES = Opcodes.V1_6;

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: UpgradeClassVersion FROM_DIR TO_DIR");
            System.exit(2);
        }
        Path from = Path.of(args[0]);
        Path to = Path.of(args[1]);
        List<Path> classFiles;
        try (Stream<Path> files = Files.walk(from)) {
            classFiles = files.filter(file -> file.toString().endsWith(".class")).toList();
        }
        int upgraded = 0;
        // frames need the common superclass of two types, so the classes themselves must be loadable
        try (URLClassLoader classes = new URLClassLoader(new URL[] {from.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            for (Path file : classFiles) {
                byte[] bytes = Files.readAllBytes(file);
                if (new ClassReader(bytes).readUnsignedShort(6) < (FIRST_WITH_FRAMES & 0xFFFF)) {
                    bytes = upgrade(bytes, classes);
                    upgraded++;
                }
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.write(target, bytes);
            }
        }
        System.out.println("UpgradeClassVersion: " + upgraded + " of " + classFiles.size() + " classes under " + from
                + " rewritten as Java 8 class files");
    }

    private static byte[] upgrade(byte[] bytes, ClassLoader classes) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return classes;
            }
        };
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
            }
        }, 0);
        return writer.toByteArray();
    }
}
