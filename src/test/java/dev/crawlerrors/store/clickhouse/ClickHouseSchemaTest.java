package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClickHouseSchemaTest {

    private static final Path SCHEMA = Path.of("deploy/clickhouse/schema.sql");

    /** The statements of deploy/clickhouse/schema.sql, comments left out. */
    static List<String> deployed() throws Exception {
        List<String> statements = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        for (String line : Files.readAllLines(SCHEMA)) {
            if (!line.startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        for (String statement : sql.toString().split(";\n")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip());
            }
        }
        return statements;
    }

    @Test
    void theSchemaADeploymentReadsIsTheOneTheStoreCreates() throws Exception {
        ClickHouseCluster cluster = ClickHouseCluster.discoveredForTest("crawl_errors", URI.create("http://127.0.0.1:8123"));
        assertThat(deployed()).containsExactlyElementsOf(ClickHouseSchema.statements("crawl_errors", cluster).stream()
                .map(String::strip).toList());
    }
}
