package dev.crawlerrors.alert;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * {@code serve}'s built-in alerts: counts the hits as they are stored ({@link #counted}), evaluates
 * the rules on those counts every {@link #EVERY} on a thread of its own, keeps what fires and
 * resolves in the store, and hands it to a sender per receiver. At start the counts are filled from
 * the store ({@link CountsSeed}) at the snapshot taken by {@link #prepare} before any source stores
 * a hit, so no hit is counted twice; evaluations begin once that is done.
 */
public final class Alerts implements AutoCloseable, MeterBinder {

    /** How often the rules are evaluated: a line is in an alert within a few seconds of being written. */
    public static final Duration EVERY = Duration.ofSeconds(1);
    private static final long FORGET_EVERY = Duration.ofHours(1).toMillis();
    private static final long SAY_EVERY = Duration.ofMinutes(1).toMillis();

    private final AlertSettings settings;
    private final AlertStore store;
    private final HitReader reader;
    private final Function<String, String> familyOf;
    private final Consumer<String> log;
    private final LongSupplier clock;
    private final CrawlCounts counts;
    private final AlertBook book;
    private final List<WebhookSender> senders = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile Snapshot start;
    private Thread thread;
    private long forgotAt;
    private long failureSaidAt = AlertBook.NEVER;
    private boolean fullSaid;

    /**
     * @param familyOf a crawler's family by its name (the catalog's)
     * @param log      told what was sent, what failed (once a minute), and what went wrong
     */
    public Alerts(AlertSettings settings, AlertStore store, HitReader reader, Function<String, String> familyOf, Consumer<String> log) {
        this(settings, store, reader, familyOf, log, System::currentTimeMillis);
    }

    Alerts(AlertSettings settings, AlertStore store, HitReader reader, Function<String, String> familyOf, Consumer<String> log,
            LongSupplier clock) {
        this.settings = settings;
        this.store = store;
        this.reader = reader;
        this.familyOf = familyOf;
        this.log = log;
        this.clock = clock;
        this.counts = new CrawlCounts(settings.verifications(), settings.rules().longestWindow());
        this.book = new AlertBook(store, settings.repeat(), log);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(WebhookSender.TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        AlertPayload payload = new AlertPayload(settings.externalUrl());
        for (Receiver receiver : settings.receivers()) {
            senders.add(new WebhookSender(receiver, book, payload, client, log, clock));
        }
    }

    /** Counts hits as they are stored: the store's tap. */
    public void counted(List<CrawlerHit> hits) {
        counts.add(hits, clock.getAsLong());
    }

    /** Takes the snapshot the counts are filled from: before any source stores a hit. */
    public void prepare() {
        start = reader.snapshot();
    }

    /** Fills the counts and reads the alerts kept, then evaluates every {@link #EVERY}, all on a thread of its own. */
    public synchronized void start() {
        if (start == null) {
            prepare();
        }
        thread = Threads.startDaemon("alerts", this::run);
    }

    private void run() {
        long now = clock.getAsLong();
        try {
            book.load();
        } catch (RuntimeException e) {
            log.accept("the alerts kept in the store could not be read (" + Failures.message(e) + "); an alert firing before this"
                    + " start may be sent again");
        }
        try {
            CountsSeed.seed(reader, start, counts, settings.rules().longestWindow(), familyOf, now);
            CountsSeed.learnShapes(reader, start, counts, store);
        } catch (RuntimeException e) {
            log.accept("the store's counts could not be read (" + Failures.message(e) + "); alerts count what arrives from now");
        }
        ready.countDown();
        senders.forEach(WebhookSender::start);
        try {
            do {
                evaluate(clock.getAsLong());
            } while (!stopped.await(EVERY.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Evaluates every rule at {@code now}, and wakes the senders when an alert started or resolved. */
    void evaluate(long now) {
        try {
            List<Firing> firing = new ArrayList<>();
            for (AlertRule rule : settings.rules().rules()) {
                firing.addAll(rule.firing(counts, now, settings.zone()));
            }
            if (book.update(firing, now, this::snapshotToken)) {
                senders.forEach(WebhookSender::wake);
            }
            store.addErrorShapes(counts.takeNewShapes());
            if (now - forgotAt >= FORGET_EVERY) {
                forgotAt = now;
                book.forgetOld(now);
            }
            if (counts.shapesFull() && !fullSaid) {
                fullSaid = true;
                log.accept("over " + CrawlCounts.MAX_SHAPES + " URL shapes erred: a shape not seen before is no longer taken for a new error pattern");
            }
        } catch (RuntimeException e) {
            if (now - failureSaidAt >= SAY_EVERY) {
                failureSaidAt = now;
                log.accept("the alerts could not be evaluated (" + Failures.message(e) + "); trying again");
            }
        }
    }

    /** The newest snapshot's token, for an alert's link; null when the store does not answer now. */
    private String snapshotToken() {
        try {
            return reader.snapshot().token();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Waits at most {@code timeout} for the counts to be filled from the store (tests). */
    boolean awaitReady(Duration timeout) throws InterruptedException {
        return ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The alerts, firing first, for the Alerts page. */
    public List<AlertListing> listing() {
        return book.listing();
    }

    /** The alerts a store kept, for the Alerts page of a serve whose alerts are off. */
    public static List<AlertListing> kept(AlertStore store) {
        return AlertBook.listing(store);
    }

    /** The receivers, as the log names them. */
    public List<String> receivers() {
        return senders.stream().map(s -> s.receiver().shown()).toList();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (WebhookSender sender : senders) {
            String receiver = sender.receiver().shown();
            FunctionCounter.builder("crawl_errors_alert_notifications", sender, s -> s.sent.get())
                    .description("alerts sent to a receiver (a firing, a repeat or a resolution each)").tag("receiver", receiver)
                    .tag("outcome", "sent").register(registry);
            FunctionCounter.builder("crawl_errors_alert_notifications", sender, s -> s.failed.get())
                    .description("alerts sent to a receiver (a firing, a repeat or a resolution each)").tag("receiver", receiver)
                    .tag("outcome", "failed").register(registry);
        }
        Set<String> names = new LinkedHashSet<>();
        settings.rules().rules().forEach(rule -> names.add(rule.name()));
        for (String name : names) {
            Gauge.builder("crawl_errors_alerts_firing", book, b -> b.firingByName().getOrDefault(name, 0L))
                    .description("built-in alerts firing now, by rule name").tag("alertname", name).register(registry);
        }
    }

    @Override
    public void close() {
        stopped.countDown();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        Threads.awaitEnd(t, Duration.ofSeconds(5));
        senders.forEach(WebhookSender::close);
    }
}
