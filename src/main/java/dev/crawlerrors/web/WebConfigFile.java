package dev.crawlerrors.web;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.crawlerrors.text.Failures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads a web config file as Prometheus's exporters write it (exporter-toolkit's
 * {@code web-config.yml}), so the file an operator keeps for node_exporter works here as it is:
 * <pre>
 * tls_server_config:
 *   cert_file: server.crt      # relative to this file's directory
 *   key_file: server.key
 * basic_auth_users:
 *   alice: $2y$10$mDwo.lAisC94iLAyP81MCesa29IzH37oigHC/42V2pdJlUprsJPze
 * </pre>
 * What crawl-errors does not do of that format (client certificates, cipher lists, HTTP headers)
 * is refused rather than ignored: a file that asks for more protection than it gets must not start.
 * Every refusal is one sentence that names the line and the key.
 */
public final class WebConfigFile {

    /** A bcrypt hash: $2a$, $2b$ (Go, Python) or $2y$ (htpasswd), a cost of 4 to 31, 22 characters of salt and 31 of hash. */
    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");
    private static final Set<String> TLS_NOT_DONE = Set.of("client_auth_type", "client_ca_file", "cipher_suites", "curve_preferences",
            "max_version", "prefer_server_cipher_suites", "client_allowed_sans", "cert", "key");
    private static final Set<String> TOP_NOT_DONE = Set.of("http_server_config", "rate_limit");
    private static final YAMLFactory YAML = new YAMLFactory();

    private final Path file;
    private final JsonParser parser;
    /** The line of the key read last: what a refusal names. */
    private int keyLine = 1;

    private WebConfigFile(Path file, JsonParser parser) {
        this.file = file;
        this.parser = parser;
    }

    /** A refusal of the file, as one sentence: where, and what is wrong. */
    public static final class BadWebConfigException extends IllegalArgumentException {
        BadWebConfigException(String message) {
            super(message);
        }
    }

    /**
     * Reads {@code file}; certificate and key paths are taken relative to its directory.
     *
     * @throws BadWebConfigException naming the line and key that is wrong, or why the file cannot be read
     */
    public static WebConfig read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new BadWebConfigException("cannot be read (" + Failures.message(e) + ")");
        }
        try (JsonParser parser = YAML.createParser(text)) {
            return new WebConfigFile(file, parser).config();
        } catch (JsonProcessingException e) {
            throw notYaml(e);
        } catch (IOException e) {
            throw new BadWebConfigException("cannot be read (" + Failures.message(e) + ")");
        }
    }

    /** Where the YAML went wrong and how, as SnakeYAML marks it (the problem's line, not the context's). */
    private static BadWebConfigException notYaml(JsonProcessingException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
                return new BadWebConfigException("line " + (marked.getProblemMark().getLine() + 1) + ": not YAML ("
                        + marked.getProblem() + ")");
            }
        }
        JsonLocation at = e.getLocation();
        return new BadWebConfigException((at == null ? "" : "line " + at.getLineNr() + ": ") + "not YAML ("
                + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
    }

    private WebConfig config() throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            return WebConfig.NONE; // an empty file asks for nothing, as the exporters read it
        }
        if (first != JsonToken.START_OBJECT) {
            throw bad("the file is not a mapping of keys such as basic_auth_users and tls_server_config");
        }
        Map<String, String> users = Map.of();
        Map<String, String> tls = Map.of();
        int tlsLine = 0;
        Set<String> seen = new HashSet<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            keyLine = line();
            once(!seen.add(key), key, "");
            parser.nextToken();
            switch (key) {
                case "basic_auth_users" -> users = users();
                case "tls_server_config" -> {
                    tlsLine = keyLine;
                    tls = tls();
                }
                default -> throw bad(TOP_NOT_DONE.contains(key)
                        ? "'" + key + "' is not something crawl-errors does; its web config takes basic_auth_users and tls_server_config"
                        : "'" + key + "' is not a key of a web config file; it takes basic_auth_users and tls_server_config");
            }
        }
        if (tls.containsKey("cert_file") != tls.containsKey("key_file")) {
            throw new BadWebConfigException("line " + tlsLine + ": tls_server_config needs both cert_file and key_file");
        }
        Path dir = file.toAbsolutePath().getParent();
        WebConfig config = new WebConfig(users, tls.containsKey("cert_file") ? dir.resolve(tls.get("cert_file")) : null,
                tls.containsKey("key_file") ? dir.resolve(tls.get("key_file")) : null, tls.getOrDefault("min_version", "TLS12"));
        if (config.tls()) {
            try {
                TlsConnector.keys(config); // read now: a bad certificate or key stops the start, not the first handshake
            } catch (PemKeyStore.BadKeyException e) {
                throw new BadWebConfigException("line " + tlsLine + ": tls_server_config." + e.getMessage());
            }
        }
        return config;
    }

    private Map<String, String> users() throws IOException {
        Map<String, String> users = new LinkedHashMap<>();
        if (parser.currentToken() == JsonToken.VALUE_NULL) {
            return users;
        }
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw bad("basic_auth_users is not a mapping of user names to bcrypt hashes");
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String user = parser.currentName();
            keyLine = line();
            once(users.containsKey(user), user, "basic_auth_users.");
            JsonToken value = parser.nextToken();
            String hash = value == JsonToken.VALUE_STRING ? parser.getText() : null;
            if (hash == null || !BCRYPT.matcher(hash).matches()) {
                throw bad("the password of basic_auth_users." + user + " is not a bcrypt hash such as $2y$10$... (make one with "
                        + "htpasswd -nBC 10 \"\" | tr -d ':\\n')");
            }
            users.put(user, hash);
        }
        return users;
    }

    private Map<String, String> tls() throws IOException {
        Map<String, String> tls = new LinkedHashMap<>();
        if (parser.currentToken() == JsonToken.VALUE_NULL) {
            return tls;
        }
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw bad("tls_server_config is not a mapping of keys such as cert_file and key_file");
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            keyLine = line();
            once(tls.containsKey(key), key, "tls_server_config.");
            JsonToken value = parser.nextToken();
            if (TLS_NOT_DONE.contains(key)) {
                throw bad("tls_server_config." + key + " is not something crawl-errors does; it takes cert_file, key_file and min_version");
            }
            if (!Set.of("cert_file", "key_file", "min_version").contains(key)) {
                throw bad("'" + key + "' is not a key of tls_server_config; it takes cert_file, key_file and min_version");
            }
            if (value != JsonToken.VALUE_STRING || parser.getText().isBlank()) {
                throw bad("tls_server_config." + key + " is not " + (key.equals("min_version") ? "a TLS version" : "a file's path"));
            }
            if (key.equals("min_version") && !Set.of("TLS12", "TLS13").contains(parser.getText())) {
                throw bad("tls_server_config.min_version '" + parser.getText() + "' is not TLS12 or TLS13 (older versions are "
                        + "no longer safe, and Java refuses them)");
            }
            tls.put(key, parser.getText());
        }
        return tls;
    }

    private void once(boolean again, String key, String within) {
        if (again) {
            throw bad(within + key + " is given twice");
        }
    }

    private int line() {
        return parser.currentTokenLocation().getLineNr();
    }

    private BadWebConfigException bad(String why) {
        return new BadWebConfigException("line " + keyLine + ": " + why);
    }
}
