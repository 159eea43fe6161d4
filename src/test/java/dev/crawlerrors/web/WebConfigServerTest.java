package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import at.favre.lib.crypto.bcrypt.BCrypt;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --web-config} with a real server on loopback: a login to every page, the API, the CSV
 * and {@code /metrics}, {@code /health} open, HTTPS from a certificate made here with the JDK's
 * keytool, and a file that asks for what cannot be done refused in a sentence naming the line.
 */
class WebConfigServerTest {

    private static final List<String> PROTECTED = List.of("/crawl-errors", "/api/crawl-errors?page=1", "/crawl-errors.csv", "/metrics",
            "/crawl-errors/patterns", "/api/crawl-errors/overview", "/no-such-page");

    @TempDir
    static Path dir;

    static DuckDbHitStore store;
    static CrawlErrorReport report;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void open() throws Exception {
        store = DemoFixture.demoStore(dir);
        report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")));
    }

    @AfterAll
    static void close() {
        report.close();
        store.close();
    }

    private static Path config(String name, String yaml) throws Exception {
        return Files.writeString(dir.resolve(name), yaml);
    }

    private static String hash(String password) {
        // htpasswd's $2y$; a low cost keeps the test quick, the server reads any cost
        return BCrypt.with(BCrypt.Version.VERSION_2Y).hashToString(5, password.toCharArray());
    }

    private static ReportServer serve(WebConfig web) {
        return ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0).withReaders(4).withWeb(web));
    }

    private static HttpResponse<String> get(HttpClient client, String url, String user, String password) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyPathButHealthAsksForALoginAndTakesTheRightOne() throws Exception {
        WebConfig web = WebConfigFile.read(config("web.yml", "basic_auth_users:\n  alice: " + hash("Wonderland-1") + "\n"));

        try (ReportServer server = serve(web)) {
            String base = "http://127.0.0.1:" + server.port();
            for (String path : PROTECTED) {
                HttpResponse<String> none = get(HTTP, base + path, null, null);
                assertThat(none.statusCode()).as(path).isEqualTo(401);
                assertThat(none.headers().firstValue("WWW-Authenticate")).as(path).contains("Basic realm=\"crawl-errors\", charset=\"UTF-8\"");
                assertThat(get(HTTP, base + path, "alice", "wonderland-1").statusCode()).as(path + ", a wrong password").isEqualTo(401);
                assertThat(get(HTTP, base + path, "bob", "Wonderland-1").statusCode()).as(path + ", an unknown user").isEqualTo(401);
                assertThat(get(HTTP, base + path, "alice", "Wonderland-1").statusCode()).as(path).isEqualTo(path.equals("/no-such-page") ? 404 : 200);
            }
            assertThat(get(HTTP, base + "/api/crawl-errors", null, null).body())
                    .isEqualTo("{\"status\":401,\"error\":\"the report asks for a user and password\"}");
            assertThat(get(HTTP, base + "/health", null, null).statusCode()).isEqualTo(200);
            assertThat(server.scheme()).isEqualTo("http");
        }
    }

    @Test
    void servesOverHttpsOnlyWithACertificateAndKeyInPemFiles() throws Exception {
        KeyStore made = keytool();
        Certificate certificate = made.getCertificate("server");
        Files.writeString(dir.resolve("server.crt"), pem("CERTIFICATE", certificate.getEncoded()));
        Files.writeString(dir.resolve("server.key"), pem("PRIVATE KEY", made.getKey("server", "changeit".toCharArray()).getEncoded()));
        WebConfig web = WebConfigFile.read(config("tls.yml", """
                tls_server_config:
                  cert_file: server.crt
                  key_file: server.key
                basic_auth_users:
                  alice: %s
                """.formatted(hash("Wonderland-1"))));
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("server", certificate);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(10)).build();

        try (ReportServer server = serve(web)) {
            String base = "https://127.0.0.1:" + server.port();
            assertThat(server.scheme()).isEqualTo("https");
            assertThat(get(https, base + "/api/crawl-errors", "alice", "Wonderland-1").statusCode()).isEqualTo(200);
            assertThat(get(https, base + "/api/crawl-errors", null, null).statusCode()).isEqualTo(401);
            assertThat(get(https, base + "/health", null, null).statusCode()).isEqualTo(200);
            assertThatThrownBy(() -> get(HTTP, "http://127.0.0.1:" + server.port() + "/health", null, null))
                    .as("plain HTTP gets no answer").isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void aFileThatAsksForWhatCannotBeDoneIsRefusedNamingTheLineAndKey() throws Exception {
        String alice = hash("Wonderland-1");
        assertRefused("basic_auth_user:\n  alice: " + alice + "\n",
                "line 1: 'basic_auth_user' is not a key of a web config file; it takes basic_auth_users and tls_server_config");
        assertRefused("basic_auth_users:\n  alice: " + alice + "\n  bob: secret\n",
                "line 3: the password of basic_auth_users.bob is not a bcrypt hash such as $2y$10$... (make one with htpasswd -nBC 10 \"\" | tr -d ':\\n')");
        assertRefused("tls_server_config:\n  cert_file: server.crt\n  client_ca_file: ca.crt\n",
                "line 3: tls_server_config.client_ca_file is not something crawl-errors does; it takes cert_file, key_file and min_version");
        assertRefused("tls_server_config:\n  cert_file: server.crt\n", "line 1: tls_server_config needs both cert_file and key_file");
        assertRefused("basic_auth_users:\n  alice: " + alice + "\n  alice: " + alice + "\n", "line 3: basic_auth_users.alice is given twice");
        assertRefused("basic_auth_users: [alice\n", "line 1: basic_auth_users is not a mapping of user names to bcrypt hashes");
        assertRefused("basic_auth_users:\n\talice: x\n", "line 2: not YAML (");
        assertRefused("tls_server_config:\n  cert_file: missing.crt\n  key_file: missing.key\n",
                "line 1: tls_server_config.cert_file " + dir.resolve("missing.crt") + " cannot be read");
    }

    private static void assertRefused(String yaml, String message) throws Exception {
        Path file = config("bad.yml", yaml);
        assertThatThrownBy(() -> WebConfigFile.read(file)).as(yaml).isInstanceOf(WebConfigFile.BadWebConfigException.class)
                .message().startsWith(message);
    }

    /** A key pair and self-signed certificate for 127.0.0.1, made by the JDK's keytool as an operator would. */
    private static KeyStore keytool() throws Exception {
        Path file = dir.resolve("server.p12");
        Files.deleteIfExists(file);
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=crawl-errors test", "-ext", "san=ip:127.0.0.1",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", "changeit")
                .redirectErrorStream(true).start();
        String said = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(said).isZero();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, "changeit".toCharArray());
        }
        return store;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
