package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.text.Credentials;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/**
 * Where a ClickHouse store lives, as {@code --db} names it: {@code clickhouse://HOST:PORT/DATABASE},
 * PORT being the server's HTTP interface (8123 when left out), and optionally
 * {@code ?cluster=NAME}, the cluster of the server's {@code remote_servers} to spread hits over
 * (default {@value #DEFAULT_CLUSTER}; a server that has no such cluster is a store on its own).
 * The user and password are never part of it: they come from {@code --db-user} and
 * {@code $CRAWL_ERRORS_DB_PASSWORD}.
 *
 * @param http     the server's HTTP interface, {@code http://HOST:PORT}
 * @param database the database the store's tables live in (created when missing)
 * @param cluster  the cluster name to look for in {@code system.clusters}
 */
public record ClickHouseLocation(URI http, String database, String cluster, String user, String password) {

    public static final String SCHEME = "clickhouse://";
    public static final int DEFAULT_PORT = 8123;
    public static final String DEFAULT_CLUSTER = "crawl_errors";
    public static final String DEFAULT_USER = "default";
    /** A name ClickHouse takes unquoted: it goes into SQL as it is. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

    /** Whether {@code db} names a ClickHouse store rather than a DuckDB file. */
    public static boolean isLocation(String db) {
        return db != null && db.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
    }

    /**
     * The location {@code url} names.
     *
     * @throws IllegalArgumentException saying what is wrong with it and what it should look like
     */
    public static ClickHouseLocation parse(String url, String user, String password) {
        if (!isLocation(url)) {
            throw new IllegalArgumentException(bad(url, "it does not start with " + SCHEME));
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(bad(url, "it is not a URL (" + e.getReason() + ")"));
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(bad(url, "it names no host"));
        }
        if (uri.getUserInfo() != null) {
            throw new IllegalArgumentException(bad(url, "it holds a user or password; give the user with --db-user and the "
                    + "password in $CRAWL_ERRORS_DB_PASSWORD, never on the command line"));
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        String database = path.startsWith("/") ? path.substring(1) : path;
        if (database.isEmpty()) {
            throw new IllegalArgumentException(bad(url, "it names no database"));
        }
        if (!NAME.matcher(database).matches()) {
            throw new IllegalArgumentException(bad(url, "the database '" + database
                    + "' is not a plain name (letters, digits and _, not starting with a digit)"));
        }
        String cluster = DEFAULT_CLUSTER;
        if (uri.getQuery() != null && !uri.getQuery().isEmpty()) {
            for (String part : uri.getQuery().split("&")) {
                int eq = part.indexOf('=');
                String key = eq < 0 ? part : part.substring(0, eq);
                String value = eq < 0 ? "" : part.substring(eq + 1);
                if (!key.equals("cluster")) {
                    throw new IllegalArgumentException(bad(url, "'" + key + "' is not a setting it knows (only cluster=NAME)"));
                }
                if (!NAME.matcher(value).matches()) {
                    throw new IllegalArgumentException(bad(url, "the cluster '" + value + "' is not a plain name"));
                }
                cluster = value;
            }
        }
        int port = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
        String host = uri.getHost();
        URI http = URI.create("http://" + host + ":" + port);
        return new ClickHouseLocation(http, database, cluster, user == null || user.isBlank() ? DEFAULT_USER : user,
                password == null ? "" : password);
    }

    private static String bad(String url, String why) {
        return "'" + Credentials.hidden(url) + "' is not a ClickHouse store: " + why + "; write clickhouse://HOST:PORT/DATABASE, PORT being "
                + "the server's HTTP port (" + DEFAULT_PORT + " by default)";
    }

    /** The store as it is shown: its URL, without user or password. */
    public String shown() {
        return SCHEME + http.getHost() + ":" + http.getPort() + "/" + database
                + (cluster.equals(DEFAULT_CLUSTER) ? "" : "?cluster=" + cluster);
    }

    @Override
    public String toString() {
        return shown(); // never the password
    }
}
