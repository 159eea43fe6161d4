package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ClickHouseLocationTest {

    @Test
    void readsHostPortDatabaseAndClusterAndDefaultsThePortUserAndCluster() {
        assertThat(ClickHouseLocation.parse("clickhouse://ch1.example.org:18123/crawl?cluster=logs", "reporter", "s3cr&t"))
                .isEqualTo(new ClickHouseLocation(URI.create("http://ch1.example.org:18123"), "crawl", "logs", "reporter", "s3cr&t"));
        assertThat(ClickHouseLocation.parse("clickhouse://127.0.0.1/crawl_errors", null, null))
                .isEqualTo(new ClickHouseLocation(URI.create("http://127.0.0.1:8123"), "crawl_errors", "crawl_errors", "default", ""));
        assertThat(ClickHouseLocation.parse("CLICKHOUSE://[::1]:8123/crawl", "", null).http()).isEqualTo(URI.create("http://[::1]:8123"));
    }

    @Test
    void showsItselfWithoutThePassword() {
        ClickHouseLocation location = ClickHouseLocation.parse("clickhouse://127.0.0.1:8123/crawl?cluster=logs", "u", "secret");
        assertThat(location.shown()).isEqualTo("clickhouse://127.0.0.1:8123/crawl?cluster=logs");
        assertThat(location.toString()).doesNotContain("secret");
    }

    @Test
    void tellsWhatIsWrongWithAUrlAndWhatItShouldLookLike() {
        String shape = "; write clickhouse://HOST:PORT/DATABASE, PORT being the server's HTTP port (8123 by default)";
        assertThatThrownBy(() -> ClickHouseLocation.parse("clickhouse://127.0.0.1:8123/", null, null))
                .hasMessage("'clickhouse://127.0.0.1:8123/' is not a ClickHouse store: it names no database" + shape);
        assertThatThrownBy(() -> ClickHouseLocation.parse("clickhouse://u:pw@127.0.0.1/crawl", null, null))
                .hasMessage("'clickhouse://127.0.0.1/crawl' is not a ClickHouse store: it holds a user or password; give the user "
                        + "with --db-user and the password in $CRAWL_ERRORS_DB_PASSWORD, never on the command line" + shape);
        assertThatThrownBy(() -> ClickHouseLocation.parse("clickhouse://127.0.0.1/crawl;drop", null, null))
                .hasMessage("'clickhouse://127.0.0.1/crawl;drop' is not a ClickHouse store: the database 'crawl;drop' is not a plain name "
                        + "(letters, digits and _, not starting with a digit)" + shape);
        assertThatThrownBy(() -> ClickHouseLocation.parse("clickhouse://127.0.0.1/crawl?shards=2", null, null))
                .hasMessage("'clickhouse://127.0.0.1/crawl?shards=2' is not a ClickHouse store: 'shards' is not a setting it knows "
                        + "(only cluster=NAME)" + shape);
        assertThatThrownBy(() -> ClickHouseLocation.parse("clickhouse:///crawl", null, null))
                .hasMessage("'clickhouse:///crawl' is not a ClickHouse store: it names no host" + shape);
        assertThat(ClickHouseLocation.isLocation("./crawl-errors.duckdb")).isFalse();
        assertThat(ClickHouseLocation.isLocation("clickhouse://h/d")).isTrue();
    }
}
