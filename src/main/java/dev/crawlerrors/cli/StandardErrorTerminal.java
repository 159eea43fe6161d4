package dev.crawlerrors.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The terminal standard error writes to, when it writes to one: there the import draws its progress
 * bar, and anywhere else (a file, a pipe) it logs its rate instead.
 *
 * <p>The JDK has no isatty for standard error: {@code System.console()} is about standard input and
 * output, so {@code import big.log 2> r.err} typed at a terminal drew the bar's control codes into
 * the file, and {@code import big.log | tee out} drew none on the terminal. On Linux
 * {@code /proc/self/fd/2} is a link to what standard error writes to, and its target names a
 * terminal device ({@code /dev/pts/3}) or not ({@code /tmp/r.err}, {@code pipe:[4026]}): one
 * readlink, no process, no thread, where {@code System.console()} looks its provider up among the
 * JDK's modules.
 *
 * @param device the terminal's device, which {@link #columns} asks for its width
 */
record StandardErrorTerminal(Path device) {

    private static final Path STANDARD_ERROR = Path.of("/proc/self/fd/2");
    /** Where there is no /proc: the process's controlling terminal, which a console is on. */
    private static final Path CONTROLLING_TERMINAL = Path.of("/dev/tty");
    /** The width of a terminal that cannot say, and of most terminal windows when they open. */
    private static final int DEFAULT_COLUMNS = 80;

    /** The terminal standard error writes to, or null when it writes to a file, a pipe or nothing. */
    static StandardErrorTerminal find() {
        return find(STANDARD_ERROR);
    }

    /**
     * The terminal that {@code descriptor}, a link such as {@code /proc/self/fd/2}, points to, or
     * null when it points to anything else or nowhere. Without a {@code /proc} (macOS, Windows), the
     * JDK's console decides: there is one when standard input and output are a terminal, a guess for
     * standard error that holds unless one of them is redirected.
     */
    static StandardErrorTerminal find(Path descriptor) {
        Path target;
        try {
            target = Files.readSymbolicLink(descriptor);
        } catch (IOException | UnsupportedOperationException e) {
            if (Files.isDirectory(descriptor.getParent())) {
                return null; // standard error is closed
            }
            return System.console() != null ? new StandardErrorTerminal(CONTROLLING_TERMINAL) : null;
        }
        return namesTerminal(target.toString()) ? new StandardErrorTerminal(target) : null;
    }

    /**
     * Whether {@code device} is a terminal's name: a pseudo-terminal ({@code /dev/pts/N}, what
     * terminal windows and ssh give), a console or serial line ({@code /dev/tty1}, {@code /dev/ttyS0}),
     * the controlling terminal ({@code /dev/tty}) or the system console.
     */
    static boolean namesTerminal(String device) {
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
    }

    /**
     * The terminal's width in columns, as {@code stty size} reads it from the device ({@code rows
     * columns}); {@value #DEFAULT_COLUMNS} when it cannot say. It runs a process, tens of
     * milliseconds: ask once, and off the import's own thread. (The JDK has no call for a
     * terminal's size; JLine, which has one, takes longer to start.)
     */
    int columns() {
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(device.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String size;
            try (InputStream out = stty.getInputStream()) {
                size = new String(out.readAllBytes(), StandardCharsets.US_ASCII).trim();
            }
            int columns = Integer.parseInt(size.substring(size.indexOf(' ') + 1));
            return columns > 0 ? columns : DEFAULT_COLUMNS;
        } catch (IOException | RuntimeException e) {
            return DEFAULT_COLUMNS;
        }
    }
}
