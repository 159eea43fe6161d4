package dev.crawlerrors.alert;

import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Sends one receiver what is due to it, on a thread of its own, so a receiver that is down, slow or
 * hangs holds back nothing else: not the other receivers, not the evaluation, not ingest. A
 * failure (no connection, no answer within {@link #TIMEOUT}, a status but 2xx, a redirect, which is
 * never followed) is tried again after a wait that doubles from {@link #FIRST_RETRY} to
 * {@link #LAST_RETRY}; what was due then is sent then (the alerts as they are by then). Failures are
 * said once a minute at most, with how many; every alert sent or failed is counted.
 */
final class WebhookSender implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration LAST_RETRY = Duration.ofSeconds(60);
    /** Alerts in one message at most; more go in the messages after it. */
    static final int MAX_ALERTS = 100;
    private static final long SAY_EVERY = Duration.ofMinutes(1).toMillis();
    /** The latest start or resolution first: what just happened before what is told again. */
    private static final Comparator<Alert.Notice> LATEST_FIRST = Comparator.comparingLong(
            (Alert.Notice notice) -> notice.firing() ? notice.startsMillis() : notice.endsMillis()).reversed();

    private final Receiver receiver;
    private final AlertBook book;
    private final AlertPayload payload;
    private final HttpClient client;
    private final Consumer<String> log;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private boolean wake;
    private volatile boolean stopped;
    private Thread thread;

    final AtomicLong sent = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    /** Failures since the last one said, and when that was. */
    private long failuresUnsaid;
    private long saidAt = AlertBook.NEVER;
    private long failingSince = -1;
    private long retryAt;
    private Duration retry = FIRST_RETRY;

    WebhookSender(Receiver receiver, AlertBook book, AlertPayload payload, HttpClient client, Consumer<String> log, LongSupplier clock) {
        this.receiver = receiver;
        this.book = book;
        this.payload = payload;
        this.client = client;
        this.log = log;
        this.clock = clock;
    }

    Receiver receiver() {
        return receiver;
    }

    void start() {
        thread = Threads.startDaemon("alert-webhook", this::run);
    }

    /** Something may be due: look now (unless waiting to try again). */
    void wake() {
        lock.lock();
        try {
            wake = true;
            woken.signal();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (!stopped) {
            long now = clock.getAsLong();
            if (now >= retryAt) {
                sendDue(now);
            }
            long until = Math.min(book.nextDue(receiver), failingSince >= 0 ? retryAt : Long.MAX_VALUE);
            long wait = Math.clamp(until - clock.getAsLong(), 10, 1_000);
            lock.lock();
            try {
                if (!wake && !stopped) {
                    woken.await(wait, TimeUnit.MILLISECONDS);
                }
                wake = false;
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Sends what is due, a message of at most {@link #MAX_ALERTS} at a time, until one fails. What
     * is due is read again before each message and the latest changes go first, so an alert that
     * fires while a flood is being sent waits for one message, not for the whole backlog.
     */
    void sendDue(long now) {
        Set<Alert.Notice> told = new HashSet<>();
        while (!stopped) {
            List<Alert.Notice> message = book.due(receiver, now).stream().filter(notice -> !told.contains(notice))
                    .sorted(LATEST_FIRST).limit(MAX_ALERTS).toList();
            if (message.isEmpty()) {
                return;
            }
            String failure = send(message, now);
            if (failure != null) {
                failed(message.size(), failure, now);
                return;
            }
            book.delivered(receiver, message, clock.getAsLong());
            told.addAll(message);
            sent.addAndGet(message.size());
            recovered(now);
            log.accept("sent to " + receiver.shown() + ": " + described(message));
        }
    }

    /** Posts one message; null when the receiver took it, else why not. */
    private String send(List<Alert.Notice> message, long now) {
        HttpRequest request = HttpRequest.newBuilder(receiver.url()).timeout(TIMEOUT)
                .header("Content-Type", "application/json").header("User-Agent", "crawl-errors alerts")
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload.body(receiver, message, now))).build();
        try {
            HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
            int status = response.statusCode();
            if (status >= 200 && status <= 299) {
                return null;
            }
            if (status >= 300 && status <= 399) {
                return "it answered " + status + " (a redirect" + response.headers().firstValue("Location").map(l -> " to " + l).orElse("")
                        + "), which alerts do not follow";
            }
            return "it answered " + status;
        } catch (HttpTimeoutException e) {
            return "it did not answer within " + TIMEOUT.toSeconds() + " s";
        } catch (IOException e) {
            return "it could not be reached (" + Failures.message(e) + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "stopping";
        }
    }

    private void failed(int alerts, String why, long now) {
        failed.addAndGet(alerts);
        failuresUnsaid++;
        if (failingSince < 0) {
            failingSince = now;
            retry = FIRST_RETRY;
        } else {
            retry = retry.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : retry.multipliedBy(2);
        }
        retryAt = now + retry.toMillis();
        if (now - saidAt >= SAY_EVERY) {
            saidAt = now;
            log.accept("not sent to " + receiver.shown() + ": " + why + "; " + (failuresUnsaid == 1 ? "1 try failed"
                    : failuresUnsaid + " tries failed") + " since " + (now - failingSince) / 1000 + " s ago, trying again in "
                    + retry.toSeconds() + " s");
            failuresUnsaid = 0;
        }
    }

    private void recovered(long now) {
        if (failingSince >= 0) {
            log.accept(receiver.shown() + " takes alerts again, after " + (now - failingSince) / 1000 + " s of failures");
        }
        failingSince = -1;
        failuresUnsaid = 0;
        retryAt = 0;
        retry = FIRST_RETRY;
        saidAt = AlertBook.NEVER;
    }

    private static String described(List<Alert.Notice> message) {
        StringBuilder text = new StringBuilder();
        for (Alert.Notice notice : message) {
            if (!text.isEmpty()) {
                text.append("; ");
            }
            if (text.length() > 500) {
                text.append("and ").append(message.size()).append(" alerts in all");
                break;
            }
            text.append(notice.firing() ? "[FIRING] " : "[RESOLVED] ").append(notice.labels().getOrDefault("alertname", "")).append(' ')
                    .append(notice.summary());
        }
        return text.toString();
    }

    @Override
    public void close() {
        stopped = true;
        wake();
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
