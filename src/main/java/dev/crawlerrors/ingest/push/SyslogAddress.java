package dev.crawlerrors.ingest.push;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where a syslog listener listens, as users write it: {@code udp://127.0.0.1:5140},
 * {@code tcp://0.0.0.0:5140}, {@code udp://[::1]:5140}. Port 0 picks a free one.
 *
 * @param tcp  whether it is TCP (else UDP)
 * @param host the address to bind, as given
 * @param port the port, 0 to 65535
 */
public record SyslogAddress(boolean tcp, String host, int port) {

    /** The accepted form, for messages and help. */
    public static final String ACCEPTED = "udp://HOST:PORT or tcp://HOST:PORT";

    /**
     * Parses {@code value}.
     *
     * @throws IllegalArgumentException naming the value and the accepted form
     */
    public static SyslogAddress parse(String value) {
        if (!value.contains("://")) {
            throw invalid(value, "it names no protocol (udp:// or tcp://)");
        }
        URI uri;
        try {
            uri = new URI(value.strip());
        } catch (URISyntaxException e) {
            throw invalid(value, "it is not an address");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("udp") && !scheme.equals("tcp")) {
            throw invalid(value, "it names no protocol (udp:// or tcp://)");
        }
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw invalid(value, "it names no host and port");
        }
        if (uri.getPort() > 65_535) {
            throw invalid(value, "its port is no TCP or UDP port (0 to 65535)");
        }
        if ((uri.getPath() != null && !uri.getPath().isEmpty()) || uri.getQuery() != null || uri.getUserInfo() != null) {
            throw invalid(value, "an address has nothing after the port");
        }
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        return new SyslogAddress(scheme.equals("tcp"), host, uri.getPort());
    }

    /** The same address with another port: the one bound when this one asked for any (0). */
    public SyslogAddress withPort(int bound) {
        return new SyslogAddress(tcp, host, bound);
    }

    InetSocketAddress socketAddress() {
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return (tcp ? "tcp" : "udp") + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    private static IllegalArgumentException invalid(String value, String why) {
        return new IllegalArgumentException("'" + value + "' is not a syslog address: " + why + "; use " + ACCEPTED
                + ", e.g. udp://127.0.0.1:5140");
    }
}
