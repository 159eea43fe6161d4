package dev.crawlerrors.crawler;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Verifies a crawler's address against its operator's published IP lists. A loaded list is
 * authoritative: an address outside every list of a crawler is {@code spoofed}; when a list
 * cannot be read the verdict is {@code unverified} and says why. Lists are read once, on first
 * use, and verdicts are cached per address and crawler.
 */
public final class IpRangeVerifier {

    private final CrawlerCatalog catalog;
    private final IpRangeSource source;
    private final Map<String, Loaded> lists = new ConcurrentHashMap<>();
    private final Map<String, Verdict> verdicts = new ConcurrentHashMap<>();

    public IpRangeVerifier(CrawlerCatalog catalog, IpRangeSource source) {
        this.catalog = catalog;
        this.source = source;
    }

    public Verdict verify(String ip, Crawler crawler) {
        return verdicts.computeIfAbsent(ip + ' ' + crawler.name(), key -> check(ip, crawler));
    }

    private Verdict check(String ip, Crawler crawler) {
        if (crawler.ipLists().isEmpty()) {
            String why = crawler.dnsDomains().isEmpty()
                    ? "no way to verify " + crawler.name() + " is known (no published IP list or DNS domain)"
                    : crawler.name() + " is verified by reverse DNS only, which this version does not check";
            return new Verdict(Verification.unverified, why);
        }
        IPAddress address = new IPAddressString(ip).getAddress();
        if (address == null) {
            return new Verdict(Verification.unverified, "claims " + crawler.name() + "; '" + ip + "' is not an IP address");
        }
        List<String> unreadable = new ArrayList<>();
        List<IpRangeList> checked = new ArrayList<>();
        for (String name : crawler.ipLists()) {
            Loaded loaded = list(name);
            if (loaded.list() != null) {
                IpRangeList list = loaded.list();
                var prefix = list.prefixContaining(address);
                if (prefix.isPresent()) {
                    return new Verdict(Verification.verified,
                            "in " + list.name() + " " + prefix.get() + created(list));
                }
                checked.add(list);
            } else {
                unreadable.add(loaded.failure());
            }
        }
        if (unreadable.isEmpty()) {
            StringBuilder reason = new StringBuilder("claims ").append(crawler.name()).append("; ").append(ip)
                    .append(" is in no ").append(crawler.operator()).append(" list (");
            for (int i = 0; i < checked.size(); i++) {
                reason.append(i > 0 ? ", " : "").append(checked.get(i).name()).append(created(checked.get(i)));
            }
            return new Verdict(Verification.spoofed, reason.append(')').toString());
        }
        return new Verdict(Verification.unverified, "claims " + crawler.name() + "; not checked: " + String.join("; ", unreadable));
    }

    private Loaded list(String name) {
        return lists.computeIfAbsent(name, key -> {
            IpListSpec spec = catalog.list(key).orElseThrow();
            try {
                return new Loaded(source.load(spec), null);
            } catch (IOException e) {
                return new Loaded(null, e.getMessage());
            }
        });
    }

    /** The lists read so far, for the summary. */
    public List<IpRangeList> loadedLists() {
        return lists.values().stream().map(Loaded::list).filter(l -> l != null).toList();
    }

    /** Why lists that could not be read failed, for the summary. */
    public List<String> listFailures() {
        return lists.values().stream().map(Loaded::failure).filter(f -> f != null).toList();
    }

    /** A list read, or the sentence saying why it could not be. */
    private record Loaded(IpRangeList list, String failure) {
    }

    private static String created(IpRangeList list) {
        return list.creationDate().isEmpty() ? "" : " (created " + list.creationDate() + ")";
    }
}
