package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Numbers the sitemap URLs a store kept before they were kept with their numbers ({@code k} and
 * {@code any_k} NULL): each one's {@link UrlKey#number} with and without its host, computed here as
 * DuckDB's SQL cannot, appended to a table of their own as they are read and written in one
 * update, in one transaction. Once per store; a store whose URLs all have their numbers costs one count.
 */
final class DuckDbSitemapNumbers {

    private static final String UNNUMBERED = " FROM sitemap_urls WHERE k IS NULL OR any_k IS NULL";

    private DuckDbSitemapNumbers() {
    }

    /** Writes the numbers of every URL of {@code sitemap_urls} that has none. */
    static void number(DuckDBConnection connection) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*)" + UNNUMBERED)) {
            rs.next();
            if (rs.getLong(1) == 0) {
                return;
            }
        }
        boolean auto = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement st = connection.createStatement(); DuckDBConnection reading = (DuckDBConnection) connection.duplicate()) {
            st.execute("CREATE OR REPLACE TABLE sitemap_numbering (r BIGINT, k BIGINT, any_k BIGINT)");
            // read on a connection of its own: the appender belongs to the transaction begun just now
            try (DuckDBAppender numbers = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "sitemap_numbering");
                 Statement read = reading.createStatement();
                 ResultSet rs = read.executeQuery("SELECT rowid, host, target" + UNNUMBERED)) {
                while (rs.next()) {
                    String target = rs.getString(3);
                    numbers.beginRow().append(rs.getLong(1)).append(UrlKey.number(rs.getString(2), target))
                            .append(UrlKey.number("", target)).endRow();
                }
            }
            st.execute("UPDATE sitemap_urls SET k = m.k, any_k = m.any_k FROM sitemap_numbering m WHERE sitemap_urls.rowid = m.r");
            st.execute("DROP TABLE sitemap_numbering");
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(auto);
        }
    }
}
