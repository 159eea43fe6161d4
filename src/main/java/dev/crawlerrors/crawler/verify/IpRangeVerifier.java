package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.IpListSpec;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import inet.ipaddr.IPAddress;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a crawler's address against its operator's published IP lists. Lists are read on first
 * use; {@link #refreshDue} reads again those whose time has come (the source revalidates them with
 * conditional requests and keeps the last good copy). Answers are cached per address and crawler
 * until a list changes.
 */
public final class IpRangeVerifier {

    private final CrawlerCatalog catalog;
    private final IpRangeSource source;
    private final Map<String, Loaded> lists = new ConcurrentHashMap<>();
    private final Map<String, ListCheck> checks = new ConcurrentHashMap<>();

    public IpRangeVerifier(CrawlerCatalog catalog, IpRangeSource source) {
        this.catalog = catalog;
        this.source = source;
    }

    /** What the crawler's lists say about {@code ip}. */
    public ListCheck check(String ip, Crawler crawler) {
        return checks.computeIfAbsent(CrawlerHit.claimKey(ip, crawler.name()), key -> lookUp(ip, crawler));
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
            Loaded loaded = list(name);
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

    private Loaded list(String name) {
        return lists.computeIfAbsent(name, this::load);
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
        for (Map.Entry<String, Loaded> entry : lists.entrySet()) {
            Loaded old = entry.getValue();
            if (old.list() != null && !source.isDue(old.list(), every)) {
                continue;
            }
            Loaded fresh = load(entry.getKey());
            entry.setValue(fresh);
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
        catalog.crawlers().stream().flatMap(c -> c.ipLists().stream()).distinct().forEach(this::list);
    }

    /** One line per list read or failed, for the report and the summary. */
    public List<String> describeLists() {
        List<String> lines = new ArrayList<>();
        loadedLists().stream().map(IpRangeList::describe).sorted().forEach(lines::add);
        listFailures().stream().sorted().map(f -> "not read: " + f).forEach(lines::add);
        return lines;
    }

    /** The lists read so far, for the summary. */
    public List<IpRangeList> loadedLists() {
        return lists.values().stream().map(Loaded::list).filter(Objects::nonNull).toList();
    }

    /** Why lists that could not be read failed, for the summary. */
    public List<String> listFailures() {
        return lists.values().stream().map(Loaded::failure).filter(Objects::nonNull).toList();
    }

    /** A list read, or the sentence saying why it could not be. */
    private record Loaded(IpRangeList list, String failure) {
    }

    private static String created(IpRangeList list) {
        return " (" + list.dated() + ")";
    }
}
