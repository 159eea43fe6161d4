package dev.crawlerrors.store;

import java.util.List;
import java.util.Map;

/**
 * What the built-in alerts keep in the store, so that a restart neither sends again what was sent
 * nor takes a URL shape that erred before for a new one: each alert's latest state, and the URL
 * shapes known to have erred. Small and written seldom (when an alert changes or is delivered),
 * from one thread at a time; a class per engine beside its other concerns.
 */
public interface AlertStore {

    /** Every alert kept, its latest record each, the most recently updated first, at most {@code limit}. */
    List<StoredAlert> alerts(int limit);

    /**
     * Keeps each of {@code alerts} as its key's latest record, all in one write: an evaluation that
     * starts or resolves hundreds of alerts costs one transaction, not one each. At most one record
     * a key; nothing is written when it is empty.
     */
    void save(List<StoredAlert> alerts);

    /** Forgets the alerts that resolved before {@code endedBeforeMillis}. */
    void forgetResolved(long endedBeforeMillis);

    /**
     * The URL shapes known to have erred, each with when it was first seen erring (epoch
     * milliseconds; 0 for shapes that erred before the alerts counted).
     */
    Map<String, Long> errorShapes();

    /** Adds shapes to {@link #errorShapes()}; a shape kept already keeps its first time. */
    void addErrorShapes(Map<String, Long> shapes);

    /** The number of the last hit whose URL's shape is in {@link #errorShapes()}: a later start reads only the hits after it; 0 for none. */
    long shapesThrough();

    /** Records {@link #shapesThrough()}. */
    void shapesThrough(long hits);
}
