package dev.crawlerrors.store;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.util.Optional;

/**
 * The process's file-mode creation mask, set through the C library's {@code umask} with Java's
 * foreign-function API. DuckDB makes the store's files itself (the write-ahead log again after
 * every checkpoint), with the mode the mask leaves, so the mask is the one place their mode is
 * decided. The API is final from Java 22; on Java 21 (a preview there) nothing is set.
 *
 * <p>Reached by reflection because the build targets Java 21, where the API may not be named.
 */
final class ProcessUmask {

    private static final MethodHandle UMASK = find();

    private ProcessUmask() {
    }

    /** Whether the mask can be set in this JVM. */
    static boolean settable() {
        return UMASK != null;
    }

    /**
     * Sets the mask to {@code mask} (such as {@code 077}).
     *
     * @return the mask before, or empty when it cannot be set here
     */
    static synchronized Optional<Integer> set(int mask) {
        if (UMASK == null) {
            return Optional.empty();
        }
        try {
            return Optional.of((int) UMASK.invokeWithArguments(mask));
        } catch (Throwable e) {
            return Optional.empty();
        }
    }

    private static MethodHandle find() {
        if (Runtime.version().feature() < 22 || !System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).matches(".*(linux|mac|bsd).*")) {
            return null;
        }
        try {
            Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
            Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
            Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
            Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
            Class<?> lookupType = Class.forName("java.lang.foreign.SymbolLookup");
            Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
            Object linker = linkerType.getMethod("nativeLinker").invoke(null);
            Object lookup = linkerType.getMethod("defaultLookup").invoke(linker);
            Optional<?> umask = (Optional<?>) lookupType.getMethod("find", String.class).invoke(lookup, "umask");
            if (umask.isEmpty()) {
                return null;
            }
            Object javaInt = Class.forName("java.lang.foreign.ValueLayout").getField("JAVA_INT").get(null);
            Object arguments = Array.newInstance(layoutType, 1);
            Array.set(arguments, 0, javaInt);
            Object descriptor = descriptorType.getMethod("of", layoutType, arguments.getClass()).invoke(null, javaInt, arguments);
            Object options = Array.newInstance(optionType, 0);
            return (MethodHandle) linkerType.getMethod("downcallHandle", segmentType, descriptorType, options.getClass())
                    .invoke(linker, umask.get(), descriptor, options);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // no such API, or native access refused: the files are tightened after they are made
        }
    }
}
