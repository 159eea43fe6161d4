package dev.crawlerrors.store;

/**
 * One alert as the store keeps it between runs of {@code serve}: enough to say, after a restart,
 * which alerts are firing, since when, and what each receiver was last told of them.
 *
 * @param key          the alert's identity (its rule and what it is about), the same each time it fires
 * @param firing       true while its condition holds; false once it resolved
 * @param startsMillis when it started firing (epoch milliseconds)
 * @param endsMillis   when it resolved; 0 while firing
 * @param updatedMillis when this record was written: the newest record of a key is its state
 * @param details      what the alerts make of it (labels, summary, link, deliveries), as JSON the
 *                     alerts write and read; the store keeps it as it is
 */
public record StoredAlert(String key, boolean firing, long startsMillis, long endsMillis, long updatedMillis, String details) {
}
