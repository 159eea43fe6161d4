package dev.crawlerrors.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Prints a port free on 127.0.0.1 now, for the bench scripts: {@code FreePort 1} any free port;
 * {@code FreePort 3} a base whose three ports and the three ten above it are free (the two-shard
 * test cluster's: HTTP, native, interserver per shard).
 */
public final class FreePort {

    private FreePort() {
    }

    public static void main(String[] args) throws IOException {
        int span = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        if (span == 1) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                System.out.println(socket.getLocalPort());
            }
            return;
        }
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = 20_000 + ThreadLocalRandom.current().nextInt(30_000);
            if (free(base, span) && free(base + 10, span)) {
                System.out.println(base);
                return;
            }
        }
        throw new IOException("no free ports found");
    }

    private static boolean free(int from, int count) {
        for (int port = from; port < from + count; port++) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
