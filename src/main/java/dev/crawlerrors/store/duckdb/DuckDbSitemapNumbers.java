package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlKey;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.duckdb.DuckDBConnection;

/**
 * Numbers the sitemap URLs a store kept before they were kept with their numbers ({@code k} and
 * {@code any_k} NULL): each one's {@link UrlKey#number} with and without its host, computed here as
 * DuckDB's SQL cannot, written in one transaction. Once per store; a store whose URLs all have
 * their numbers costs one count.
 */
final class DuckDbSitemapNumbers {

    private DuckDbSitemapNumbers() {
    }

    /** Writes the numbers of every URL of {@code sitemap_urls} that has none. */
    static void number(DuckDBConnection connection) throws SQLException {
        long[] rows = new long[0];
        String[][] names = new String[0][];
        int n = 0;
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT rowid, host, target FROM sitemap_urls WHERE k IS NULL OR any_k IS NULL")) {
            while (rs.next()) {
                if (n == rows.length) {
                    rows = Arrays.copyOf(rows, Math.max(1024, n * 2));
                    names = Arrays.copyOf(names, rows.length);
                }
                rows[n] = rs.getLong(1);
                names[n++] = new String[] {rs.getString(2), rs.getString(3)};
            }
        }
        if (n == 0) {
            return;
        }
        boolean auto = connection.getAutoCommit();
        connection.setAutoCommit(false);
        Long[] rowIds = new Long[n];
        Long[] numbers = new Long[n];
        Long[] anyHost = new Long[n];
        for (int i = 0; i < n; i++) {
            rowIds[i] = rows[i];
            numbers[i] = UrlKey.number(names[i][0], names[i][1]);
            anyHost[i] = UrlKey.number("", names[i][1]);
        }
        try (PreparedStatement st = connection.prepareStatement("UPDATE sitemap_urls SET k = m.k, any_k = m.any_k"
                + " FROM (SELECT unnest(?) AS r, unnest(?) AS k, unnest(?) AS any_k) m WHERE sitemap_urls.rowid = m.r")) {
            st.setArray(1, connection.createArrayOf("BIGINT", rowIds));
            st.setArray(2, connection.createArrayOf("BIGINT", numbers));
            st.setArray(3, connection.createArrayOf("BIGINT", anyHost));
            st.execute();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(auto);
        }
    }
}
