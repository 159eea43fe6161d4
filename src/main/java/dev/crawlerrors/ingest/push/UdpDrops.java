package dev.crawlerrors.ingest.push;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The datagrams the kernel dropped for one UDP socket of this process because its receive buffer
 * was full, where the system tells: Linux's {@code /proc/net/udp} and {@code /proc/net/udp6} list
 * every UDP socket with its local port, inode and a {@code drops} counter. The socket is told from
 * others on the same port (another process's, with SO_REUSEPORT) by its inode, which one of this
 * process's descriptors links to ({@code /proc/self/fd/N -> socket:[inode]}). Elsewhere, or when
 * /proc cannot be read, the count is unknown (-1) and nothing is said of it.
 *
 * <p>Why the kernel's counter: a datagram dropped for want of room never reaches the program, so
 * the program cannot count it; the kernel counts it per socket (and {@code RcvbufErrors} in
 * {@code /proc/net/snmp} for all sockets together).
 */
final class UdpDrops {

    static final long UNKNOWN = -1;

    private static final List<Path> TABLES = List.of(Path.of("/proc/net/udp"), Path.of("/proc/net/udp6"));
    private static final Path OWN_DESCRIPTORS = Path.of("/proc/self/fd");

    private final int port;
    /** The socket's inode once found: it is the socket's for its life. */
    private long inode = -1;
    /** The count last read: what is said of a socket that has closed since (it leaves the table). */
    private long last = UNKNOWN;

    UdpDrops(int port) {
        this.port = port;
    }

    /** Datagrams dropped on the socket so far (the count last read, once it is closed), or {@link #UNKNOWN}. */
    synchronized long dropped() {
        try {
            Set<Long> own = inode >= 0 ? Set.of(inode) : ownSocketInodes();
            for (Path table : TABLES) {
                if (!Files.isReadable(table)) {
                    continue;
                }
                for (String line : Files.readAllLines(table, StandardCharsets.US_ASCII)) {
                    long drops = drops(line, own);
                    if (drops >= 0) {
                        last = drops;
                        return drops;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc, or a format it does not know: unknown, as on a system that does not tell
        }
        return last;
    }

    /**
     * The drops of {@code line} of a /proc/net/udp table when it is the socket's, else -1. A line:
     * {@code sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ref pointer drops},
     * the address as hex {@code 0100007F:13EC}.
     */
    private long drops(String line, Set<Long> own) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length < 13 || !fields[0].endsWith(":")) {
            return -1; // the header, or not a socket's line
        }
        String local = fields[1];
        int colon = local.lastIndexOf(':');
        if (colon < 0 || Integer.parseInt(local.substring(colon + 1), 16) != port) {
            return -1;
        }
        long socket = Long.parseLong(fields[9]);
        if (!own.contains(socket)) {
            return -1;
        }
        inode = socket;
        return Long.parseLong(fields[fields.length - 1]);
    }

    /** The inodes of this process's sockets. */
    private static Set<Long> ownSocketInodes() throws IOException {
        Set<Long> inodes = new HashSet<>();
        try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(OWN_DESCRIPTORS)) {
            for (Path descriptor : descriptors) {
                String target;
                try {
                    target = Files.readSymbolicLink(descriptor).toString();
                } catch (IOException e) {
                    continue; // closed since it was listed
                }
                if (target.startsWith("socket:[") && target.endsWith("]")) {
                    inodes.add(Long.parseLong(target, 8, target.length() - 1, 10));
                }
            }
        }
        return inodes;
    }
}
