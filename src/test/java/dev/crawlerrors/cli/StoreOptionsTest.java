package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.crawlerrors.crawler.verify.TrustedProxies;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.WritableStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The store and verification options on their own, parsed as a command parses them: which store
 * {@code --db} names and how it is shown, each bad value refused naming its option before anything
 * is made, and a store this command made removed again when its start fails.
 */
class StoreOptionsTest {

    @TempDir
    Path dir;

    private static StoreOptions parsed(String... args) {
        CommandSpec spec = CommandSpec.create();
        StoreOptions options = new StoreOptions().addTo(spec);
        new CommandLine(spec).parseArgs(args);
        return options;
    }

    @Test
    void namesTheDefaultStoreWhenNeitherOptionNorEnvironmentDoes() {
        assumeTrue(System.getenv(StoreOptions.DB_ENV) == null, "$" + StoreOptions.DB_ENV + " is set");

        assertThat(parsed().dbName()).isEqualTo(StoreOptions.DEFAULT_DB);
        assertThat(parsed("--db", "other.duckdb").dbName()).isEqualTo("other.duckdb");
    }

    @Test
    void showsAStoreFileAbsoluteAndRefusesAPasswordInAServersName() {
        StoreOptions file = parsed("--db", dir.resolve("hits.duckdb").toString());
        StoreOptions server = parsed("--db", "clickhouse://127.0.0.1:8123/crawl", "--db-user", "reader");

        assertThat(file.shownStore()).isEqualTo(dir.resolve("hits.duckdb").toAbsolutePath().toString());
        assertThat(server.shownStore()).contains("127.0.0.1:8123").contains("crawl");
        assertThat(file.address()).isSameAs(file.address());
        assertThatThrownBy(parsed("--db", "clickhouse://ops:secret@127.0.0.1:8123/crawl")::address).isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("--db: ").hasMessageContaining("--db-user").hasMessageNotContaining("secret");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--db-threads|-1|--db-threads: the threads must be 0 (the engine's own choice) or more; got -1",
            "--db-memory|lots|--db-memory: a memory limit is a number and a unit such as 512MB or 2GB; got 'lots'",
            "--timezone|Mars/Olympus|--timezone: 'Mars/Olympus' is not a time zone; use a region such as Europe/Brussels or an offset such as +02:00",
            "--dns-server|[::1|--dns-server: DNS server '[::1' is not [IPv6-address] or [IPv6-address]:port"})
    void refusesABadValueNamingItsOptionAndMakesNoStore(String option, String value, String message) {
        Path db = dir.resolve("hits.duckdb");
        StoreOptions options = parsed("--db", db.toString(), option, value);

        assertThatThrownBy(options::validate).isInstanceOf(ParameterException.class).hasMessageStartingWith(message);
        assertThat(db).doesNotExist();
    }

    @Test
    void refusesSignatureDirectoriesThatAreNoDirectory() throws Exception {
        Path file = Files.writeString(dir.resolve("keys.json"), "{}");

        assertThatThrownBy(parsed("--db", dir.resolve("hits.duckdb").toString(), "--signature-directories", file.toString())::validate)
                .isInstanceOf(ParameterException.class).hasMessage("--signature-directories: " + file + " is not a directory");
    }

    @Test
    void refusesAStoreNameNoEngineTakes() {
        assertThatThrownBy(parsed("--db", "clickhouse://")::address)
                .isInstanceOf(ParameterException.class).hasMessageStartingWith("--db: ");
    }

    @Test
    void readsTrustedProxiesAndRefusesOneThatIsNoAddress() {
        TrustedProxies proxies = parsed("--trusted-proxies", "173.245.48.0/20,2400:cb00::/32").trustedProxies();

        assertThat(proxies).isNotSameAs(TrustedProxies.NONE);
        assertThat(parsed().trustedProxies()).isSameAs(TrustedProxies.NONE);
        assertThatThrownBy(parsed("--trusted-proxies", "cloudflare")::trustedProxies).isInstanceOf(ParameterException.class)
                .hasMessage("--trusted-proxies: 'cloudflare' is not an IP address or CIDR prefix such as 173.245.48.0/20 or 2400:cb00::/32");
    }

    @Test
    void laysTheUsersCatalogOverTheBuiltInOneAndNamesTheOptionWhenItIsWrong() throws Exception {
        Path broken = Files.writeString(dir.resolve("crawlers.json"), "{ not json");

        assertThat(parsed().hasOwnCatalog()).isFalse();
        assertThat(parsed().catalog()).isNotNull();
        StoreOptions own = parsed("--crawlers", broken.toString());
        assertThat(own.hasOwnCatalog()).isTrue();
        assertThatThrownBy(own::catalog).isInstanceOf(ParameterException.class).hasMessageStartingWith("--crawlers: ");
    }

    @Test
    void takesTheZoneAsked() {
        assertThat(parsed("--timezone", "Europe/Brussels").zone()).isEqualTo(ZoneId.of("Europe/Brussels"));
        assertThat(parsed().zone()).isEqualTo(ZoneId.systemDefault());
    }

    @Test
    void removesAStoreItMadeButNeverOneThatWasThere() throws Exception {
        Path db = dir.resolve("hits.duckdb");
        StoreOptions options = parsed("--db", db.toString(), "--dns-server", "none");
        boolean existed = options.storeExists();
        try (WritableStore store = options.openStoreForImport()) {
            assertThat(store).isNotNull();
        }
        assertThat(existed).isFalse();
        assertThat(db).exists();

        options.removeIfMadeNow(true);
        assertThat(db).as("it was there before").exists();
        options.removeIfMadeNow(false);
        assertThat(db).doesNotExist();
    }

    @Test
    void opensAStoreToServeAndRefusesOneThatIsNoStore() throws Exception {
        Path db = dir.resolve("hits.duckdb");
        try (WritableStore made = parsed("--db", db.toString()).openStoreForImport()) {
            assertThat(made).isNotNull();
        }
        try (HitStore store = parsed("--db", db.toString(), "--db-threads", "1").openStore(2)) {
            assertThat(store.describe()).contains(db.getFileName().toString());
        }

        Path garbage = Files.write(dir.resolve("garbage.duckdb"), new byte[64 * 1024]);
        assertThatThrownBy(() -> parsed("--db", garbage.toString()).openStore(1)).isInstanceOf(RuntimeException.class);
    }
}
