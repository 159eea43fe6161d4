package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.IpListSpec;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.text.Threads;
import inet.ipaddr.IPAddress;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Checks a crawler's address against its operator's published IP lists. Lists are read on first
 * use, each on a loader thread of its own, so that a slow or unreachable list host holds up no
 * reader: {@link #checkNow} answers only from lists already read (and starts reading the others),
 * {@link #loaded} says when they are. {@link #refreshDue} reads again those whose time has come (the
 * source revalidates them with conditional requests and keeps the last good copy). Answers are
 * cached per address and crawler until a list changes.
 */
public final class IpRangeVerifier {

    /** Lists read at once, at most: a fetch waits on the network, not on a core. */
    private static final int LOADERS = 4;

    private final CrawlerCatalog catalog;
    private final IpRangeSource source;
    private final Map<String, CompletableFuture<Loaded>> lists = new ConcurrentHashMap<>();
    private final Map<String, ListCheck> checks = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor loaders;

    public IpRangeVerifier(CrawlerCatalog catalog, IpRangeSource source) {
        this.catalog = catalog;
        this.source = source;
        this.loaders = new ThreadPoolExecutor(LOADERS, LOADERS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                Threads.numberedDaemons("ip-lists-"));
        this.loaders.allowCoreThreadTimeOut(true);
    }

    /** What the crawler's lists say about {@code ip}, reading them first when they have not been read. */
    public ListCheck check(String ip, Crawler crawler) {
        loaded(crawler).join();
        return checkNow(ip, crawler);
    }

    /**
     * What the crawler's lists say about {@code ip}, or null while one of them is still being read:
     * this never waits, and starts reading the lists not yet asked for.
     */
    public ListCheck checkNow(String ip, Crawler crawler) {
        String key = CrawlerHit.claimKey(ip, crawler.name());
        ListCheck known = checks.get(key);
        if (known != null) {
            return known;
        }
        for (String name : crawler.ipLists()) {
            if (!list(name).isDone()) {
                return null;
            }
        }
        return checks.computeIfAbsent(key, k -> lookUp(ip, crawler));
    }

    /** Completes when every list of {@code crawler} has been read or has failed; starts reading them. */
    public CompletableFuture<Void> loaded(Crawler crawler) {
        List<String> names = crawler.ipLists();
        if (names.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<?>[] loads = new CompletableFuture<?>[names.size()];
        for (int i = 0; i < loads.length; i++) {
            loads[i] = list(names.get(i));
        }
        return CompletableFuture.allOf(loads);
    }

    /** The names of the lists being read now. */
    public List<String> loading() {
        return lists.entrySet().stream().filter(e -> !e.getValue().isDone()).map(Map.Entry::getKey).sorted().toList();
    }

    /** The verdict the lists alone give: listed is verified, not listed is spoofed, otherwise unverified. */
    public Verdict verify(String ip, Crawler crawler) {
        ListCheck check = check(ip, crawler);
        return switch (check.kind()) {
            case LISTED -> new Verdict(Verification.verified, check.evidence());
            case NOT_LISTED -> new Verdict(Verification.spoofed, "claims " + crawler.name() + "; " + check.evidence());
            case UNREADABLE -> new Verdict(Verification.unverified, "claims " + crawler.name() + "; not checked: " + check.evidence());
            case NO_LISTS -> new Verdict(Verification.unverified, check.evidence());
        };
    }

    private ListCheck lookUp(String ip, Crawler crawler) {
        if (crawler.ipLists().isEmpty()) {
            String why = crawler.dnsDomains().isEmpty()
                    ? "no way to verify " + crawler.name() + " is known (no published IP list or DNS domain)"
                    : crawler.name() + " publishes no IP list";
            return new ListCheck(ListCheck.Kind.NO_LISTS, why);
        }
        IPAddress address = IpAddresses.parse(ip);
        if (address == null) {
            return new ListCheck(ListCheck.Kind.UNREADABLE, "'" + ip + "' is not an IP address");
        }
        List<String> unreadable = new ArrayList<>();
        List<IpRangeList> checked = new ArrayList<>();
        for (String name : crawler.ipLists()) {
            Loaded loaded = list(name).join();
            if (loaded.list() == null) {
                unreadable.add(loaded.failure());
                continue;
            }
            IpRangeList list = loaded.list();
            var prefix = list.prefixContaining(address);
            if (prefix.isPresent()) {
                return new ListCheck(ListCheck.Kind.LISTED, "in " + list.name() + " " + prefix.get() + created(list));
            }
            checked.add(list);
        }
        if (!unreadable.isEmpty()) {
            return new ListCheck(ListCheck.Kind.UNREADABLE, String.join("; ", unreadable));
        }
        StringBuilder evidence = new StringBuilder().append(ip).append(" is in no ").append(crawler.operator()).append(" list (");
        for (int i = 0; i < checked.size(); i++) {
            evidence.append(i > 0 ? ", " : "").append(checked.get(i).name()).append(created(checked.get(i)));
        }
        return new ListCheck(ListCheck.Kind.NOT_LISTED, evidence.append(')').toString());
    }

    private CompletableFuture<Loaded> list(String name) {
        return lists.computeIfAbsent(name, n -> CompletableFuture.supplyAsync(() -> load(n), loaders));
    }

    private Loaded load(String name) {
        IpListSpec spec = catalog.list(name).orElseThrow();
        try {
            return new Loaded(source.load(spec), null);
        } catch (IOException e) {
            return new Loaded(null, e.getMessage());
        }
    }

    /**
     * Reads again every list last confirmed longer than {@code every} ago, and every list that could
     * not be read. When any list's prefixes changed, cached answers are dropped.
     *
     * @return whether any list changed
     */
    public boolean refreshDue(Duration every) {
        boolean changed = false;
        for (Map.Entry<String, CompletableFuture<Loaded>> entry : lists.entrySet()) {
            Loaded old = entry.getValue().getNow(null);
            if (old == null || (old.list() != null && !source.isDue(old.list(), every))) {
                continue; // still being read, or not due
            }
            Loaded fresh = load(entry.getKey());
            entry.setValue(CompletableFuture.completedFuture(fresh));
            if (!sameContent(old, fresh)) {
                changed = true;
            }
        }
        if (changed) {
            checks.clear();
        }
        return changed;
    }

    private static boolean sameContent(Loaded a, Loaded b) {
        if (a.list() == null || b.list() == null) {
            return a.list() == null && b.list() == null && Objects.equals(a.failure(), b.failure());
        }
        return a.list().prefixCount() == b.list().prefixCount() && a.list().creationTime().equals(b.list().creationTime())
                && a.list().fetchedAt().equals(b.list().fetchedAt());
    }

    /** Reads every list the catalog names (serve does this at start, so the report can show them). */
    public void loadAll() {
        allLoaded().join();
    }

    /** Completes when every list the catalog names has been read or has failed; starts reading them. */
    public CompletableFuture<Void> allLoaded() {
        return CompletableFuture.allOf(catalog.crawlers().stream().flatMap(c -> c.ipLists().stream()).distinct().map(this::list)
                .toArray(CompletableFuture[]::new));
    }

    /** The source the lists are read from. */
    public IpRangeSource source() {
        return source;
    }

    /** One line per list read or failed, for the report and the summary. */
    public List<String> describeLists() {
        return describeLists(null);
    }

    /** As {@link #describeLists()}, with each list's age as of {@code now} (none when null). */
    public List<String> describeLists(java.time.Instant now) {
        List<String> lines = new ArrayList<>();
        loadedLists().stream().map(list -> now == null ? list.describe() : list.describe(now)).sorted().forEach(lines::add);
        listFailures().stream().sorted().map(f -> "not read: " + f).forEach(lines::add);
        return lines;
    }

    /** The lists read so far, for the summary. */
    public List<IpRangeList> loadedLists() {
        return read().map(Loaded::list).filter(Objects::nonNull).toList();
    }

    /** The lists {@code crawler} names that have been read, for explanations. */
    public List<IpRangeList> listsOf(Crawler crawler) {
        return crawler.ipLists().stream().map(name -> lists.get(name)).filter(Objects::nonNull).map(f -> f.getNow(null))
                .filter(Objects::nonNull).map(Loaded::list).filter(Objects::nonNull).toList();
    }

    private java.util.stream.Stream<Loaded> read() {
        return lists.values().stream().map(f -> f.getNow(null)).filter(Objects::nonNull);
    }

    /** Why lists that could not be read failed, for the summary. */
    public List<String> listFailures() {
        return read().map(Loaded::failure).filter(Objects::nonNull).toList();
    }

    /** A list read, or the sentence saying why it could not be. */
    private record Loaded(IpRangeList list, String failure) {
    }

    private static String created(IpRangeList list) {
        return " (" + list.dated() + ")";
    }
}
