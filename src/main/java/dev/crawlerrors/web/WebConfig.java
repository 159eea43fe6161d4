package dev.crawlerrors.web;

import java.nio.file.Path;
import java.util.Map;

/**
 * Who may read the report, and over what: {@code serve --web-config FILE}, in the format of
 * Prometheus's exporters ({@link WebConfigFile} reads it). Users named with a bcrypt hash of their
 * password must log in (HTTP Basic) to every page, the API, the CSV and {@code /metrics};
 * {@code /health} stays open for load balancers and probes. With a certificate and key, the report
 * is served over HTTPS only.
 *
 * @param users      user name to bcrypt hash; empty when no one has to log in
 * @param certFile   the server's certificate chain (PEM), or null for plain HTTP
 * @param keyFile    its private key (PEM, unencrypted), or null
 * @param minVersion the oldest TLS version taken: {@code TLS12} or {@code TLS13}
 */
public record WebConfig(Map<String, String> users, Path certFile, Path keyFile, String minVersion) {

    /** Nothing asked: plain HTTP, open to whoever reaches it. */
    public static final WebConfig NONE = new WebConfig(Map.of(), null, null, "TLS12");

    public WebConfig {
        users = Map.copyOf(users);
    }

    /** Whether a user has to log in. */
    public boolean authenticates() {
        return !users.isEmpty();
    }

    /** Whether the report is served over TLS. */
    public boolean tls() {
        return certFile != null;
    }

    /** {@code https} or {@code http}, for the addresses the report is announced at. */
    public String scheme() {
        return tls() ? "https" : "http";
    }
}
