package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.text.Failures;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's failures on one store, in the user's words: a damaged file, a file another program
 * holds, a file a newer DuckDB wrote, else what was being done and DuckDB's first line. DuckDB's
 * own message ("Data Corruption Error: ...", "Could not read enough bytes ...") follows the
 * sentence, never stands alone. Damage, once seen by any read or write, is remembered: the store
 * then says so at once ({@link #damage()}).
 */
final class DuckDbFailures {

    /** DuckDB's lock message names the program holding the file: {@code Conflicting lock is held in /usr/bin/java (PID 4711)}. */
    private static final Pattern HOLDER = Pattern.compile("Conflicting lock is held in (.*?) \\(PID (\\d+)\\)");

    private final String location;
    private volatile DamagedStoreException damage;

    /** @param location the store's file, absolute, as messages name it */
    DuckDbFailures(String location) {
        this.location = location;
    }

    /** The store's file, absolute, as messages name it. */
    String location() {
        return location;
    }

    /** The damage a read or write met, or null while none did. */
    DamagedStoreException damage() {
        return damage;
    }

    /**
     * {@code e} as the store's failure to do what {@code doing} says ({@code "cannot write to"}):
     * a {@link DamagedStoreException} when it shows the file damaged (and remembered), else a
     * {@link StoreException} naming the store.
     */
    StoreException of(String doing, SQLException e) {
        String said = Failures.firstLine(e);
        String damaged = damageIn(said);
        if (damaged != null) {
            DamagedStoreException found = new DamagedStoreException(location, damaged + " (DuckDB: " + said + ")", e);
            damage = found;
            return found;
        }
        Matcher holder = HOLDER.matcher(said);
        if (holder.find()) {
            // DuckDB names the program as the system gives it, which may be no name at all ('.')
            String program = holder.group(1).strip().chars().anyMatch(Character::isLetterOrDigit) ? holder.group(1).strip() + ", " : "";
            return new StoreException("the store " + location + " is in use by another program (" + program + "PID "
                    + holder.group(2) + "): one program at a time may open it; stop that one (another crawl-errors serve or "
                    + "import?) or pass another --db", e);
        }
        if (said.contains("Trying to read a database file with version number")) {
            return new StoreException("the store " + location + " was written by a newer crawl-errors (its DuckDB stores files in a "
                    + "later version); run that version, or import the logs into a new store with this one (DuckDB: " + said + ")", e);
        }
        return new StoreException(doing + " " + location + ": " + said, e);
    }

    /** What DuckDB's first line says is wrong with the file, in words; null when it is no damage. */
    private static String damageIn(String said) {
        if (said.contains("Corrupt database file") || said.contains("Data Corruption Error")) {
            return "part of it fails its checksum, so it was changed outside DuckDB (a disk fault, or a copy taken while it was "
                    + "written)";
        }
        if (said.contains("Could not read enough bytes")) {
            return "it is shorter than its contents say, so it was cut short (a full disk, or a copy that did not finish)";
        }
        if (said.contains("is not a valid DuckDB database file")) {
            return "it is not a DuckDB database, or its first blocks are overwritten";
        }
        return null;
    }
}
