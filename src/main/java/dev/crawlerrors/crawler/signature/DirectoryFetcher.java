package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.text.Release;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Reads key directories over the network, and only where the user allows: the host must be on the
 * allow-list ({@code --signature-hosts}, by default the signers the catalog names), every address
 * its name resolves to must be public (a name that resolves to a private, loopback or link-local
 * address is not fetched; an address written on the allow-list is the user's own choice), and the
 * connection goes to the address checked, so a second resolution cannot change it. The exchange is
 * HTTPS with the host's certificate checked, one GET of the well-known address, no redirect
 * followed, a {@code 200} only, the body at most {@link KeyDirectory#MAX_BYTES}, the whole within
 * {@link #DEADLINE} however slowly the server sends.
 *
 * <p>Why a client of our own over a socket: the JDK's HttpClient resolves the name itself, so the
 * address checked could not be the one connected to, and its timeout ends at the headers.
 */
public final class DirectoryFetcher implements DirectorySource {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** The whole of one fetch: name, connection, handshake, headers and body. */
    static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final int MAX_HEADER_BYTES = 16 * 1024;

    private final Set<String> allowed;
    private final SSLContext tls;
    private final Duration deadline;
    private final Clock clock;

    /**
     * @param allowed the hosts that may be fetched, {@code host} or {@code host:port} (lower case)
     * @param tls     whose trust decides the certificates (null: the JDK's default)
     */
    public DirectoryFetcher(Set<String> allowed, SSLContext tls) {
        this(allowed, tls, DEADLINE, Clock.systemUTC());
    }

    /** A fetcher with another deadline and clock (the time a reading is said to be made at), for tests. */
    public DirectoryFetcher(Set<String> allowed, SSLContext tls, Duration deadline, Clock clock) {
        this.allowed = new LinkedHashSet<>(allowed);
        this.tls = tls;
        this.deadline = deadline;
        this.clock = clock;
    }

    @Override
    public boolean allows(SignerOrigin origin) {
        return allowed.contains(origin.authority());
    }

    @Override
    public String describe() {
        return "the network, from " + (allowed.isEmpty() ? "no host (--signature-hosts is empty)" : String.join(", ", allowed));
    }

    @Override
    public KeyDirectory read(SignerOrigin origin) throws UnavailableException {
        String url = KeyDirectory.url(origin.toString());
        if (!allows(origin)) {
            throw new UnavailableException(origin.authority() + " is not among the hosts whose directories may be fetched (--signature-hosts)");
        }
        long end = System.nanoTime() + deadline.toNanos();
        InetAddress address = address(origin, url, end);
        Response response = exchange(origin, address, url, end);
        if (response.status != 200) {
            String location = response.headers.get("location");
            throw new UnavailableException(url + " answered HTTP " + response.status
                    + (location == null ? "" : ", a redirect to " + location + ", which is not followed"));
        }
        try {
            KeyDirectory parsed = KeyDirectory.parse(origin.toString(), clock.instant(), url, response.body, "");
            String proof = DirectoryProof.check(origin.authority(), response.headers, response.body, parsed.keys(), clock.instant());
            return new KeyDirectory(parsed.origin(), parsed.fetchedAt(), url, parsed.json(), parsed.keys(), parsed.refused(), proof);
        } catch (KeyDirectory.RefusedException e) {
            throw new UnavailableException(e.getMessage());
        } catch (DirectoryProof.FailedException e) {
            throw new UnavailableException(url + " is refused: " + e.getMessage());
        }
    }

    /** The address to connect to: the allow-list's own, or every address the name resolves to is public and the first is taken. */
    private InetAddress address(SignerOrigin origin, String url, long end) throws UnavailableException {
        String host = origin.host();
        if (isAddressLiteral(host)) {
            try {
                return InetAddress.getByName(host); // written by the user on the allow-list: no lookup, their choice
            } catch (UnknownHostException e) {
                throw new UnavailableException(url + ": " + host + " is not an address");
            }
        }
        CompletableFuture<InetAddress[]> lookup = CompletableFuture.supplyAsync(() -> {
            try {
                return InetAddress.getAllByName(host);
            } catch (UnknownHostException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, task -> Thread.ofVirtual().start(task));
        InetAddress[] addresses;
        try {
            addresses = lookup.get(remaining(end), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new UnavailableException(url + ": the name " + host + " did not resolve within " + deadline.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new UnavailableException(url + ": the name " + host + " does not resolve");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException(url + ": interrupted");
        }
        for (InetAddress a : addresses) {
            if (!DirectoryAddresses.isPublic(a)) {
                throw new UnavailableException(url + ": " + host + " resolves to " + a.getHostAddress()
                        + ", a private or reserved address, which is never fetched");
            }
        }
        return addresses[0];
    }

    private Response exchange(SignerOrigin origin, InetAddress address, String url, long end) throws UnavailableException {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(address, origin.port()), (int) Math.min(CONNECT_TIMEOUT.toMillis(), millis(end)));
            try (SSLSocket socket = (SSLSocket) context().getSocketFactory().createSocket(plain, origin.host(), origin.port(), true)) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                if (!isAddressLiteral(origin.host())) {
                    parameters.setServerNames(List.of(new SNIHostName(origin.host())));
                }
                socket.setSSLParameters(parameters);
                socket.setSoTimeout(millis(end));
                socket.startHandshake();
                OutputStream out = socket.getOutputStream();
                out.write(("GET /.well-known/http-message-signatures-directory HTTP/1.1\r\nHost: " + origin.authority()
                        + "\r\nUser-Agent: " + Release.USER_AGENT + "\r\nAccept: application/http-message-signatures-directory+json"
                        + "\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return read(socket, url, end);
            }
        } catch (SocketTimeoutException e) {
            throw new UnavailableException(url + " did not answer in full within " + deadline.toSeconds() + " s");
        } catch (javax.net.ssl.SSLException e) {
            throw new UnavailableException(url + ": the TLS connection failed (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new UnavailableException(url + " could not be fetched: " + (e.getMessage() == null ? "connection failed" : e.getMessage()));
        }
    }

    /** The status line, the headers and the body (by length, chunks, or to the end), within the bounds. */
    private Response read(Socket socket, String url, long end) throws IOException, UnavailableException {
        BoundedInput in = new BoundedInput(socket, end, url);
        String status = in.line();
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new UnavailableException(url + " did not answer HTTP");
        }
        int code;
        try {
            code = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new UnavailableException(url + " answered a status that is not a number");
        }
        Map<String, String> headers = new HashMap<>();
        for (String line = in.line(); !line.isEmpty(); line = in.line()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.merge(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim(), (a, b) -> a + ", " + b);
            }
        }
        if (code != 200) {
            return new Response(code, headers, new byte[0]);
        }
        String encoding = headers.getOrDefault("content-encoding", "identity");
        if (!encoding.equalsIgnoreCase("identity")) {
            throw new UnavailableException(url + " sent its body encoded (" + encoding + "), which was not asked for");
        }
        byte[] body;
        if (headers.getOrDefault("transfer-encoding", "").toLowerCase(Locale.ROOT).contains("chunked")) {
            body = in.chunked();
        } else if (headers.containsKey("content-length")) {
            long length;
            try {
                length = Long.parseLong(headers.get("content-length"));
            } catch (NumberFormatException e) {
                throw new UnavailableException(url + " sent a Content-Length that is not a number");
            }
            if (length > KeyDirectory.MAX_BYTES) {
                throw new UnavailableException(url + " declares " + length + " bytes, more than the " + KeyDirectory.MAX_BYTES
                        + " a key directory may have; not downloaded");
            }
            body = in.bytes((int) length);
        } else {
            body = in.rest();
        }
        return new Response(code, headers, body);
    }

    private record Response(int status, Map<String, String> headers, byte[] body) {
    }

    /** A socket's input read within a deadline and a size: each read waits only as long as is left. */
    private static final class BoundedInput {
        private final Socket socket;
        private final InputStream in;
        private final long end;
        private final String url;
        private long total;

        BoundedInput(Socket socket, long end, String url) throws IOException {
            this.socket = socket;
            this.in = new java.io.BufferedInputStream(socket.getInputStream(), 8192);
            this.end = end;
            this.url = url;
        }

        private int next() throws IOException, UnavailableException {
            socket.setSoTimeout(millis(end));
            int b = in.read();
            if (++total > KeyDirectory.MAX_BYTES + MAX_HEADER_BYTES) {
                throw new UnavailableException(url + " sent more than the " + KeyDirectory.MAX_BYTES
                        + " bytes a key directory may have; the download was abandoned");
            }
            return b;
        }

        String line() throws IOException, UnavailableException {
            StringBuilder line = new StringBuilder();
            for (int b = next(); b != '\n'; b = next()) {
                if (b < 0) {
                    throw new UnavailableException(url + " closed the connection in the middle of its headers");
                }
                if (line.length() > MAX_HEADER_BYTES) {
                    throw new UnavailableException(url + " sent a header line longer than " + MAX_HEADER_BYTES + " bytes");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        byte[] bytes(int length) throws IOException, UnavailableException {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(length, 64 * 1024));
            for (int i = 0; i < length; i++) {
                int b = next();
                if (b < 0) {
                    throw new UnavailableException(url + " closed the connection before the end of its body");
                }
                out.write(b);
            }
            return out.toByteArray();
        }

        byte[] rest() throws IOException, UnavailableException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int b = next(); b >= 0; b = next()) {
                out.write(b);
                if (out.size() > KeyDirectory.MAX_BYTES) {
                    throw new UnavailableException(url + " sent more than the " + KeyDirectory.MAX_BYTES
                            + " bytes a key directory may have; the download was abandoned");
                }
            }
            return out.toByteArray();
        }

        byte[] chunked() throws IOException, UnavailableException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                String size = line();
                int semicolon = size.indexOf(';');
                int length;
                try {
                    length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                } catch (NumberFormatException e) {
                    throw new UnavailableException(url + " sent a chunk size that is not a number");
                }
                if (length < 0 || out.size() + (long) length > KeyDirectory.MAX_BYTES) {
                    throw new UnavailableException(url + " sent more than the " + KeyDirectory.MAX_BYTES
                            + " bytes a key directory may have; the download was abandoned");
                }
                if (length == 0) {
                    return out.toByteArray();
                }
                out.write(bytes(length));
                line();
            }
        }
    }

    private SSLContext context() throws IOException {
        if (tls != null) {
            return tls;
        }
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("this Java has no TLS", e);
        }
    }

    /** Milliseconds left before {@code end}, at least 1 (0 would mean no timeout to a socket). */
    private static int millis(long end) throws SocketTimeoutException {
        long left = remaining(end);
        if (left <= 0) {
            throw new SocketTimeoutException("deadline");
        }
        return (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
    }

    private static long remaining(long end) {
        return end - System.nanoTime();
    }

    /** Whether {@code host} is written as an address (IPv4 dotted quad, or IPv6), not a name. */
    static boolean isAddressLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            return true;
        }
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit) || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    /** The hosts of an allow-list option's value, {@code host[:port]} separated by commas, as {@link #allows} compares them. */
    public static Set<String> hosts(String value) {
        Set<String> hosts = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            String host = part.trim().toLowerCase(Locale.ROOT);
            if (host.startsWith("https://")) {
                host = host.substring("https://".length());
            }
            if (host.endsWith("/")) {
                host = host.substring(0, host.length() - 1);
            }
            if (host.endsWith(":443")) {
                host = host.substring(0, host.length() - 4);
            }
            if (!host.isEmpty()) {
                hosts.add(host);
            }
        }
        return hosts;
    }
}
