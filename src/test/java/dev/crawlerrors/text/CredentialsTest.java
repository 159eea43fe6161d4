package dev.crawlerrors.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CredentialsTest {

    @Test
    void leavesOutTheUserInfoOfEveryUrlInAMessage() {
        assertThat(Credentials.hidden("--db: 'clickhouse://crawl:Pw-Secret-123@host:8123/db' is not a ClickHouse store"))
                .isEqualTo("--db: 'clickhouse://host:8123/db' is not a ClickHouse store");
        assertThat(Credentials.hidden("https://u:p@a.example/lists/ and http://x@b.example:80/"))
                .isEqualTo("https://a.example/lists/ and http://b.example:80/");
        assertThat(Credentials.hidden("'clickhouse://crawl:Pw/x@y@host/db' is not")).isEqualTo("'clickhouse://host/db' is not");
        assertThat(Credentials.hidden("CLICKHOUSE://:only-password@h/db")).isEqualTo("CLICKHOUSE://h/db");
    }

    @Test
    void leavesTextWithoutUserInfoAsItIs() {
        assertThat(Credentials.hidden("mail crawl@example.com about http://host/a")).isEqualTo("mail crawl@example.com about http://host/a");
        assertThat(Credentials.hidden(null)).isNull();
    }
}
