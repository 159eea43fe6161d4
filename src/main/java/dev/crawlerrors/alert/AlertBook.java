package dev.crawlerrors.alert;

import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.StoredAlert;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The alerts, firing and resolved, and what each receiver was told of them: what the evaluation
 * changes ({@link #update}) and the senders read ({@link #due}) and mark ({@link #delivered}).
 * Changes are made in memory under the book's lock, then kept in the store, all of a call's in one
 * write, before that call returns: a restart starts from here, not from nothing, and a sender never
 * waits for the store to read what is due. A store that fails to keep them is said in the log once
 * a minute; the alerts go on from memory.
 */
final class AlertBook {

    /** Resolved alerts kept (listed on the Alerts page) this long. */
    static final Duration KEEP_RESOLVED = Duration.ofDays(7);
    /** Alerts read back from the store at most: the firing ones and the latest resolved. */
    static final int MAX_KEPT = 1_000;
    /** How often an Alertmanager's API is posted a firing alert again: it resolves what it is not told of for 5 minutes. */
    static final Duration ALERTMANAGER_RESEND = Duration.ofMinutes(1);
    /** How long an Alertmanager's API may take a firing alert for firing without hearing of it again: 4 resends, as Prometheus does. */
    static final Duration ALERTMANAGER_VALID = ALERTMANAGER_RESEND.multipliedBy(4);

    /** A time long past, for "never said yet": far enough from {@link Long#MIN_VALUE} that {@code now - NEVER} does not overflow. */
    static final long NEVER = Long.MIN_VALUE / 2;

    private final AlertStore store;
    private final Duration repeat;
    private final Consumer<String> log;
    private final Map<String, Alert> alerts = new LinkedHashMap<>();
    /** Each changed alert's latest record, not yet in the store; guarded by the book's lock. */
    private Map<String, StoredAlert> unsaved = new LinkedHashMap<>();
    /** Held while records are written, so a later record of a key is never overwritten by an earlier one. */
    private final Object saving = new Object();
    private long storeFailureSaid = NEVER;

    /**
     * @param repeat how often a receiver is told again of an alert that still fires ({@code --alert-repeat})
     * @param log    told, in a sentence, when the store cannot keep an alert
     */
    AlertBook(AlertStore store, Duration repeat, Consumer<String> log) {
        this.store = store;
        this.repeat = repeat;
        this.log = log;
    }

    /** Reads the alerts the store kept: firing ones go on firing, without a word to anyone already told. */
    synchronized void load() {
        for (StoredAlert stored : store.alerts(MAX_KEPT)) {
            Alert alert = Alert.of(stored);
            if (alert != null) {
                alerts.put(alert.key, alert);
            }
        }
    }

    /**
     * Brings the alerts up to what holds at {@code now}: an alert in {@code firing} that was not
     * firing starts (with a link at the snapshot {@code snapshot} gives), one that fires goes on
     * (its figures brought up to date), and one no longer in it resolves.
     *
     * @return whether an alert started or resolved
     */
    boolean update(List<Firing> firing, long now, Supplier<String> snapshot) {
        boolean changed = change(firing, now, snapshot);
        save(now);
        return changed;
    }

    private synchronized boolean change(List<Firing> firing, long now, Supplier<String> snapshot) {
        boolean changed = false;
        Set<String> holding = new HashSet<>();
        String at = null;
        for (Firing f : firing) {
            if (!holding.add(f.key())) {
                continue;
            }
            Alert alert = alerts.get(f.key());
            if (alert != null && alert.firing) {
                alert.summary = f.summary();
                continue;
            }
            if (alert == null) {
                alert = new Alert(f.key());
                alerts.put(f.key(), alert);
            }
            if (at == null) {
                at = snapshot.get();
            }
            alert.fire(f, now, f.link().at(at));
            keep(alert, now);
            changed = true;
        }
        for (Alert alert : alerts.values()) {
            if (alert.firing && !holding.contains(alert.key)) {
                alert.firing = false;
                alert.endsMillis = now;
                keep(alert, now);
                changed = true;
            }
        }
        return changed;
    }

    /**
     * What {@code receiver} is to be sent at {@code now}: the firing alerts it was not told of this
     * firing, or not for {@code --alert-repeat} (an Alertmanager: a minute); the resolved ones it was
     * not told of, for as long as {@code --alert-repeat} after they resolved.
     */
    synchronized List<Alert.Notice> due(Receiver receiver, long now) {
        String id = receiver.id();
        long again = (receiver.alertmanagerApi() ? ALERTMANAGER_RESEND : repeat).toMillis();
        List<Alert.Notice> due = new ArrayList<>();
        for (Alert alert : alerts.values()) {
            if (alert.firing) {
                Long sent = alert.firingSent.get(id);
                if (sent == null || now - sent >= again) {
                    due.add(alert.notice());
                }
            } else if (!alert.resolvedSent.contains(id) && now - alert.endsMillis < repeat.toMillis()
                    && (alert.firingSent.containsKey(id) || !receiver.alertmanagerApi())) {
                due.add(alert.notice());
            }
        }
        return due;
    }

    /** {@code receiver} took {@code notices} at {@code now}; what each said is kept as told. */
    void delivered(Receiver receiver, List<Alert.Notice> notices, long now) {
        markDelivered(receiver, notices, now);
        save(now);
    }

    private synchronized void markDelivered(Receiver receiver, List<Alert.Notice> notices, long now) {
        String id = receiver.id();
        for (Alert.Notice notice : notices) {
            Alert alert = alerts.get(notice.key());
            if (alert == null || alert.startsMillis != notice.startsMillis()) {
                continue; // it fired again meanwhile: that firing is still to be told
            }
            if (notice.firing()) {
                alert.firingSent.put(id, now);
            } else {
                alert.firingSent.putIfAbsent(id, now);
                alert.resolvedSent.add(id);
            }
            keep(alert, now);
        }
    }

    /** When the next notice for {@code receiver} falls due without an alert changing; {@link Long#MAX_VALUE} for never. */
    synchronized long nextDue(Receiver receiver) {
        String id = receiver.id();
        long again = (receiver.alertmanagerApi() ? ALERTMANAGER_RESEND : repeat).toMillis();
        long next = Long.MAX_VALUE;
        for (Alert alert : alerts.values()) {
            Long sent = alert.firingSent.get(id);
            if (alert.firing && sent != null) {
                next = Math.min(next, sent + again);
            }
        }
        return next;
    }

    /** Forgets alerts resolved longer than {@link #KEEP_RESOLVED} ago, here and in the store. */
    void forgetOld(long now) {
        long before = now - KEEP_RESOLVED.toMillis();
        synchronized (this) {
            alerts.values().removeIf(alert -> !alert.firing && alert.endsMillis < before);
        }
        synchronized (saving) {
            try {
                store.forgetResolved(before);
            } catch (RuntimeException e) {
                storeFailed(e, now);
            }
        }
    }

    /** Notes {@code alert}'s state as to be kept: by the end of the call that changed it. */
    private void keep(Alert alert, long now) {
        unsaved.put(alert.key, alert.stored(now));
    }

    /**
     * Writes the records changed so far, in one write, outside the book's lock: the senders read
     * what is due meanwhile. The records are taken and written under {@link #saving}, so writes
     * keep the order the changes were made in.
     */
    private void save(long now) {
        synchronized (saving) {
            List<StoredAlert> records;
            synchronized (this) {
                if (unsaved.isEmpty()) {
                    return;
                }
                records = List.copyOf(unsaved.values());
                unsaved = new LinkedHashMap<>();
            }
            try {
                store.save(records);
            } catch (RuntimeException e) {
                storeFailed(e, now);
                synchronized (this) {
                    // tried again with the next change, unless a later record of the key is there by then
                    records.forEach(record -> unsaved.putIfAbsent(record.key(), record));
                }
            }
        }
    }

    private synchronized void storeFailed(RuntimeException e, long now) {
        if (now - storeFailureSaid >= 60_000) {
            storeFailureSaid = now;
            log.accept("the store could not keep the alerts' state (" + e.getMessage() + "); alerts go on, and a restart may send"
                    + " one again");
        }
    }

    /** The alerts, firing first, then the latest resolved, as the Alerts page lists them. */
    synchronized List<AlertListing> listing() {
        return alerts.values().stream().map(AlertBook::listed)
                .sorted(Comparator.comparing((AlertListing a) -> !a.firing())
                        .thenComparing(Comparator.comparingLong((AlertListing a) -> a.firing() ? a.startsMillis() : a.endsMillis()).reversed()))
                .toList();
    }

    /** How many alerts fire, by their {@code alertname}. */
    synchronized Map<String, Long> firingByName() {
        Map<String, Long> byName = new TreeMap<>();
        for (Alert alert : alerts.values()) {
            if (alert.firing) {
                byName.merge(alert.name(), 1L, Long::sum);
            }
        }
        return byName;
    }

    private static AlertListing listed(Alert alert) {
        return new AlertListing(alert.key, alert.name(), alert.labels.getOrDefault("kind", ""), alert.labels.getOrDefault("severity", ""),
                alert.firing, alert.startsMillis, alert.endsMillis, alert.summary, alert.link, new HashMap<>(alert.labels),
                alert.firingSent.size());
    }

    /** The alerts kept in {@code store}, as the Alerts page lists them, for a serve whose alerts are off. */
    static List<AlertListing> listing(AlertStore store) {
        AlertBook book = new AlertBook(store, Duration.ofHours(4), line -> { });
        book.load();
        return book.listing();
    }
}
