package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Key directories read over HTTPS from a real server on loopback, and the untrusted cases of
 * issue 35 item 4: a host not allowed, a name that resolves to a private address, a redirect, a
 * server that trickles, one that sends 100 MB, a certificate nobody vouches for. Each is refused in
 * one sentence, within the bounds, and never reaches an address the allow-list does not name.
 */
class DirectoryFetcherTest {

    private final TestSigner signer = TestSigner.ed25519("https://127.0.0.1");
    private LoopbackDirectory directory;

    @BeforeEach
    void start() throws Exception {
        directory = LoopbackDirectory.serving(TestSigner.directory(signer));
    }

    @AfterEach
    void stop() {
        directory.close();
    }

    @Test
    void readsADirectoryServedOnLoopback() throws Exception {
        KeyDirectory read = fetcher(directory.allowed()).read(origin());

        assertThat(read.keys()).containsOnlyKeys(signer.thumbprint());
        assertThat(read.source()).isEqualTo(directory.origin() + "/.well-known/http-message-signatures-directory");
        assertThat(read.origin()).isEqualTo(directory.origin());
        assertThat(read.refused()).isEmpty();
    }

    @Test
    void readsNothingFromAHostNotAllowed() {
        assertThatThrownBy(() -> fetcher(Set.of("chatgpt.com")).read(origin()))
                .isInstanceOf(DirectorySource.UnavailableException.class)
                .hasMessage(directory.authority() + " is not among the hosts whose directories may be fetched (--signature-hosts)");
        assertThat(directory.requests()).isZero();
    }

    @Test
    void neverFetchesFromANameThatResolvesToAPrivateAddress() throws Exception {
        String local = "localhost:" + directory.authority().split(":")[1];

        assertThatThrownBy(() -> fetcher(Set.of(local)).read(SignerOrigin.parse("https://" + local)))
                .hasMessageContaining("localhost resolves to ")
                .hasMessageEndingWith(", a private or reserved address, which is never fetched");
        assertThat(directory.requests()).isZero();
    }

    @Test
    void doesNotFollowARedirect() {
        directory.handle(exchange -> LoopbackDirectory.status(exchange, 302, "https://10.0.0.1/keys"));

        assertThatThrownBy(() -> fetcher(directory.allowed()).read(origin()))
                .hasMessage(url() + " answered HTTP 302, a redirect to https://10.0.0.1/keys, which is not followed");
        assertThat(directory.requests()).isEqualTo(1);
    }

    @Test
    void givesUpOnAServerThatTrickles() {
        directory.handle(exchange -> {
            exchange.sendResponseHeaders(200, 1000);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 1000; i++) {
                    out.write('{');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.io.IOException e) {
                // the fetcher hung up, as it should
            }
        });
        DirectoryFetcher fetcher = new DirectoryFetcher(directory.allowed(), LoopbackDirectory.clientTls(), Duration.ofSeconds(1),
                Clock.systemUTC());
        long started = System.nanoTime();

        assertThatThrownBy(() -> fetcher.read(origin())).hasMessage(url() + " did not answer in full within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void refusesADirectoryThatDeclaresOneHundredMegabytes() {
        directory.handle(exchange -> {
            exchange.sendResponseHeaders(200, 100L << 20);
            exchange.getResponseBody().close();
        });

        assertThatThrownBy(() -> fetcher(directory.allowed()).read(origin()))
                .hasMessage(url() + " declares 104857600 bytes, more than the 262144 a key directory may have; not downloaded");
    }

    @Test
    void abandonsADirectoryThatSendsOneHundredMegabytes() {
        directory.handle(exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked, no length said
            byte[] block = new byte[64 * 1024];
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 1600; i++) {
                    out.write(block);
                }
            } catch (java.io.IOException e) {
                // the fetcher hung up, as it should
            }
        });

        assertThatThrownBy(() -> fetcher(directory.allowed()).read(origin()))
                .hasMessage(url() + " sent more than the 262144 bytes a key directory may have; the download was abandoned");
    }

    @Test
    void refusesACertificateNobodyVouchesFor() {
        DirectoryFetcher fetcher = new DirectoryFetcher(directory.allowed(), null);

        assertThatThrownBy(() -> fetcher.read(origin())).hasMessageStartingWith(url() + ": the TLS connection failed (");
    }

    @Test
    void saysWhatAFailingServerAnswered() {
        directory.handle(exchange -> LoopbackDirectory.status(exchange, 503, null));
        assertThatThrownBy(() -> fetcher(directory.allowed()).read(origin())).hasMessage(url() + " answered HTTP 503");

        directory.serve("<html>not keys</html>");
        assertThatThrownBy(() -> fetcher(directory.allowed()).read(origin())).hasMessage(url() + " is not JSON");

        directory.serve("{\"keys\": {}}");
        assertThatThrownBy(() -> fetcher(directory.allowed()).read(origin())).hasMessage(url() + " is not a JWK set (no \"keys\" array)");
    }

    @Test
    void aServerThatIsDownIsSaidToBe() {
        directory.down();

        assertThatThrownBy(() -> fetcher(directory.allowed()).read(origin())).hasMessageStartingWith(url() + " could not be fetched: ");
    }

    @Test
    void leavesOutKeysThatCannotBeUsed() throws Exception {
        directory.serve("{\"keys\":[" + signer.jwk() + ",{\"kty\":\"OKP\",\"crv\":\"X25519\",\"x\":\"" + "A".repeat(43) + "\"},"
                + "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"" + "A".repeat(43) + "\",\"y\":\"" + "A".repeat(42) + "B\"},"
                + "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs\"},"
                + "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"c2hvcnQ\"}]}");

        KeyDirectory read = fetcher(directory.allowed()).read(origin());

        assertThat(read.keys()).containsOnlyKeys(signer.thumbprint());
        assertThat(read.refused()).containsExactly(
                "key 2 is left out: curve 'X25519' is not Ed25519, the only OKP curve HTTP Message Signatures signs with",
                "key 3 is left out: its point is not on curve P-256",
                "key poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U is an example key published in RFC 9421, with which anyone can sign",
                "key 5 is left out: its 'x' is 5 bytes, not 32");
    }

    private DirectoryFetcher fetcher(Set<String> allowed) {
        return new DirectoryFetcher(allowed, LoopbackDirectory.clientTls());
    }

    private SignerOrigin origin() throws SignerOrigin.InvalidException {
        return SignerOrigin.parse(directory.origin());
    }

    private String url() {
        return directory.origin() + "/.well-known/http-message-signatures-directory";
    }
}
