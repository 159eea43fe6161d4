package org.duckdb;

/**
 * Takes the place of DuckDB's JDBC driver's own class of this name (the build leaves that one out
 * of the jar), to leave Java Flight Recorder alone.
 *
 * <p>Why: the driver registers a periodic JFR event for DuckDB's memory when its first connection
 * opens. That makes the JVM load JFR's metadata, a seventh of a second of every command's start,
 * spent before a store can be read or written; this tool never records with JFR. The driver calls
 * these three methods and nothing else of the class (duckdb_jdbc 2.0.0.1); a driver that calls
 * more fails every store test at once.
 */
final class JfrMemoryMonitor {

    private JfrMemoryMonitor() {
    }

    static void init() {
    }

    static void connectionOpened(DuckDBConnection connection) {
    }

    static void connectionClosed(long address) {
    }
}
