package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.IpListSpec;
import dev.crawlerrors.text.Credentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where published IP lists are read from: the operators' official addresses (the default), a
 * directory holding the lists under their published file names, or a base URL they are served
 * under (both for air-gapped servers and tests; {@code --ip-ranges DIR|URL}).
 *
 * <p>Given a cache directory, lists read from URLs are kept there ({@link IpListCache}) and every
 * {@link #load} asks the server whether the cached copy is still current ({@code If-None-Match},
 * {@code If-Modified-Since}). Downloads are bounded in size and time ({@link ListFetcher}). A
 * download is refused when it cannot be the operator's list ({@link IpRangeList#parse}) or when it
 * is far smaller than the copy in use; then, as when the download fails, the last good copy is
 * returned marked {@link IpRangeList#stale()}: the cached copy, or the release's snapshot
 * ({@link IpListSnapshot}), whichever was fetched later. Only with neither does {@code load} throw.
 * A refusal is logged as a warning. Lists read from a directory are never cached.
 */
public final class IpRangeSource {

    private final Path directory;
    private final String baseUrl;
    private final IpListCache cache;
    private final IpListSnapshot snapshot;
    private final ListFetcher fetcher;
    private final Clock clock;
    // The last list parsed per name, keyed by its bytes' SHA-256, so a 304 costs no re-parse.
    private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();
    private final Map<String, Parsed> snapshotParsed = new ConcurrentHashMap<>();
    // One load per list at a time, so two callers never interleave writes to the same cache files.
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    private IpRangeSource(Path directory, String baseUrl, IpListCache cache, IpListSnapshot snapshot, ListFetcher fetcher,
            Clock clock) {
        this.directory = directory;
        this.baseUrl = baseUrl;
        this.cache = cache;
        this.snapshot = snapshot;
        this.fetcher = fetcher;
        this.clock = clock;
    }

    /** The operators' official addresses, as the catalog gives them, without a cache. */
    public static IpRangeSource official() {
        return official(null);
    }

    /** The operators' official addresses, cached in {@code cacheDirectory} (null: no cache). */
    public static IpRangeSource official(Path cacheDirectory) {
        return parse(null, cacheDirectory, Clock.systemUTC());
    }

    /**
     * {@code --ip-ranges}: an {@code http(s)://} base URL or a directory; null means official. No cache.
     *
     * @throws IllegalArgumentException when the value is neither a URL nor an existing directory
     */
    public static IpRangeSource parse(String value) {
        return parse(value, null, Clock.systemUTC());
    }

    /**
     * {@code --ip-ranges} with a cache: lists read from URLs (official or a base URL) are kept in
     * {@code cacheDirectory}, e.g. {@link IpListCache#besideStore}; null means no cache. A directory
     * source ignores it.
     *
     * @throws IllegalArgumentException when the value is neither a URL nor an existing directory
     */
    public static IpRangeSource parse(String value, Path cacheDirectory) {
        return parse(value, cacheDirectory, Clock.systemUTC());
    }

    /**
     * As {@link #parse(String, Path)}, with the clock that dates fetches, checks and failures.
     *
     * @throws IllegalArgumentException when the value is neither a URL nor an existing directory
     */
    public static IpRangeSource parse(String value, Path cacheDirectory, Clock clock) {
        return parse(value, cacheDirectory, clock, IpListSnapshot.bundled(), new ListFetcher());
    }

    /**
     * As {@link #parse(String, Path, Clock)}, falling back on {@code snapshot} instead of the
     * jar's, and downloading with {@code fetcher}'s bounds.
     */
    static IpRangeSource parse(String value, Path cacheDirectory, Clock clock, IpListSnapshot snapshot, ListFetcher fetcher) {
        IpListCache cache = cacheDirectory == null ? null : new IpListCache(cacheDirectory);
        if (value == null || value.isBlank()) {
            return new IpRangeSource(null, null, cache, snapshot, fetcher, clock);
        }
        if (value.startsWith("http://") || value.startsWith("https://")) {
            // a user and password in it were never sent (the HTTP client sends none): kept out of every message
            String base = Credentials.hidden(value);
            return new IpRangeSource(null, base.endsWith("/") ? base : base + "/", cache, snapshot, fetcher, clock);
        }
        Path dir = Path.of(value);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--ip-ranges: '" + value + "' is neither an http(s) URL nor a directory");
        }
        return new IpRangeSource(dir, null, null, IpListSnapshot.none(), fetcher, clock);
    }

    /**
     * Reads one list: from the directory, or from its URL, revalidating the cached copy if there is
     * a cache. The result is {@link IpRangeList#stale()} when a refresh failed and the last good copy
     * (downloaded from this same URL) stands in.
     *
     * @throws IOException with one sentence saying where it looked and what went wrong, when there
     *                     is neither a current list nor a cached copy
     */
    public IpRangeList load(IpListSpec spec) throws IOException {
        if (directory != null) {
            return fromDirectory(spec);
        }
        String url = url(spec);
        ReentrantLock lock = locks.computeIfAbsent(spec.name(), name -> new ReentrantLock());
        lock.lock();
        try {
            return refresh(spec.name(), url);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether {@code list} was last confirmed current {@code every} or longer ago, so a scheduled
     * refresh should {@link #load} it again. A stale list stays due until a refresh succeeds, since
     * a failed one does not move {@link IpRangeList#checkedAt()}.
     */
    public boolean isDue(IpRangeList list, Duration every) {
        return !list.checkedAt().plus(every).isAfter(clock.instant());
    }

    /** The cache directory, when lists read from URLs are cached. */
    public Optional<Path> cacheDirectory() {
        return Optional.ofNullable(cache).map(IpListCache::directory);
    }

    /** What to do when no list can be read from here, as a user is told it. */
    public String whenNoneCanBeRead() {
        if (directory != null) {
            return "put the published lists in " + directory + " (or point --ip-ranges at where they are)";
        }
        return baseUrl != null ? "make " + baseUrl + " serve the published lists (or point --ip-ranges at where they are)"
                : "let this machine reach the operators' addresses, or point --ip-ranges at a directory or URL that holds the lists";
    }

    /** Where lists come from, for messages. */
    public String describe() {
        if (directory != null) {
            return directory.toString();
        }
        return baseUrl != null ? baseUrl : "the operators' official addresses";
    }

    private IpRangeList fromDirectory(IpListSpec spec) throws IOException {
        List<String> names = new ArrayList<>();
        names.add(spec.name());
        names.addAll(spec.aliases());
        for (String name : names) {
            Path file = directory.resolve(name);
            if (Files.isRegularFile(file)) {
                Instant now = clock.instant();
                return IpRangeList.parse(spec.name(), Files.readAllBytes(file), now, file.toString())
                        .fetched(Files.getLastModifiedTime(file).toInstant());
            }
        }
        throw new IOException("there is no " + spec.name() + " in " + directory);
    }

    /** Where {@code spec} is downloaded from: the base URL and its name, or its official address. */
    String url(IpListSpec spec) {
        return baseUrl != null ? baseUrl + spec.name() : spec.url();
    }

    private IpRangeList refresh(String name, String url) throws IOException {
        // A copy from another address (the official one, when a base URL is given now) is neither
        // revalidated there nor trusted as its fallback; a successful download replaces it.
        CachedIpList copy = cache == null ? null : cached(name).filter(c -> url.equals(c.url())).orElse(null);
        Instant now = clock.instant();
        try {
            ListFetcher.Response response = fetcher.fetch(url, copy != null && copy.hasValidators() ? copy : null);
            if (response.status() == 304) {
                CachedIpList checked = copy.checkedAt(now);
                IpRangeList list = fromCache(name, checked);
                save(name, checked, false);
                return list;
            }
            IpRangeList list = IpRangeList.parse(name, response.body(), now, url);
            LastGood inUse = lastGood(name, copy, null);
            if (inUse != null) {
                list.requireNotFarSmallerThan(inUse.list(), inUse.what());
            }
            if (cache != null) {
                CachedIpList downloaded = CachedIpList.downloaded(url, response.etag(), response.lastModified(), now, response.body());
                parsed.put(name, new Parsed(downloaded.sha256(), list));
                save(name, downloaded, true);
            }
            return list;
        } catch (IOException failure) {
            boolean refused = failure instanceof ListRefusedException;
            LastGood last = lastGood(name, copy, failure);
            String note = "refresh " + (refused ? "refused" : "failed") + " at " + IpRangeList.minute(now) + ": " + failure.getMessage()
                    + (last == null ? "" : "; using " + last.what());
            if (refused) {
                Log.LOG.warn("IP list {}: {}", name, note);
            }
            if (last == null) {
                throw failure;
            }
            return last.list().checked(last.checkedAt(), note);
        }
    }

    /**
     * The copy to use when a download fails or is refused, and to compare a fresh one with: the
     * cached copy or the release snapshot's, whichever was fetched later; null when there is neither.
     * Problems reading either are added to {@code failure}, when given, else ignored.
     */
    private LastGood lastGood(String name, CachedIpList copy, IOException failure) {
        LastGood cached = null;
        if (copy != null) {
            try {
                cached = new LastGood(fromCache(name, copy), copy.checkedAt(), "the copy fetched " + IpRangeList.minute(copy.fetchedAt()));
            } catch (IOException unusable) {
                if (failure != null) {
                    failure.addSuppressed(unusable);
                }
            }
        }
        LastGood bundled = null;
        try {
            Optional<IpListSnapshot.Copy> shipped = snapshot.copy(name);
            if (shipped.isPresent()) {
                IpListSnapshot.Copy s = shipped.get();
                IpRangeList list = parsedOnce(name, s.body(), s.fetchedAt(), s.url() == null ? "the release snapshot" : s.url());
                bundled = new LastGood(list.fetched(s.fetchedAt()).checked(s.fetchedAt(), ""), s.fetchedAt(),
                        "the release snapshot taken " + IpRangeList.minute(s.takenAt()).substring(0, 10)
                                + " (fetched " + IpRangeList.minute(s.fetchedAt()) + ")");
            }
        } catch (IOException unusable) {
            if (failure != null) {
                failure.addSuppressed(unusable);
            }
        }
        if (cached == null || (bundled != null && bundled.list().fetchedAt().isAfter(cached.list().fetchedAt()))) {
            return bundled;
        }
        return cached;
    }

    /** A copy that stands in for the current list, when it was last confirmed current, and how messages name it. */
    private record LastGood(IpRangeList list, Instant checkedAt, String what) {
    }

    /** The cached list as a parsed list dated by its metadata, parsing only bytes not seen before. */
    private IpRangeList fromCache(String name, CachedIpList copy) throws IOException {
        Parsed known = parsed.get(name);
        IpRangeList list;
        if (known != null && known.sha256().equals(copy.sha256())) {
            list = known.list();
        } else {
            try {
                list = IpRangeList.parse(name, copy.body(), copy.fetchedAt(), copy.url());
            } catch (IOException e) {
                throw new IOException("the cached copy " + cache.listFile(name) + " is not a valid list (" + e.getMessage()
                        + "); delete it so the next load downloads " + name + " afresh");
            }
            parsed.put(name, new Parsed(copy.sha256(), list));
        }
        return list.fetched(copy.fetchedAt()).checked(copy.checkedAt(), "");
    }

    /** {@code body} parsed, or the list parsed from the same bytes before (the snapshot's, read again at every refresh that fails). */
    private IpRangeList parsedOnce(String name, byte[] body, Instant fetchedAt, String origin) throws IOException {
        String sha256 = CachedIpList.sha256(body);
        Parsed known = snapshotParsed.get(name);
        if (known != null && known.sha256().equals(sha256)) {
            return known.list();
        }
        IpRangeList list = IpRangeList.parse(name, body, fetchedAt, origin);
        snapshotParsed.put(name, new Parsed(sha256, list));
        return list;
    }

    private Optional<CachedIpList> cached(String name) {
        try {
            return cache.read(name);
        } catch (IOException e) {
            Log.LOG.warn("The cached copy of {} in {} cannot be read ({}); it is downloaded afresh.", name, cache.directory(), e.toString());
            return Optional.empty();
        }
    }

    // A cache that cannot be written costs the fallback next time, not this load: the list in hand is good.
    private void save(String name, CachedIpList copy, boolean withList) {
        try {
            if (withList) {
                cache.write(name, copy);
            } else {
                cache.writeMetadata(name, copy);
            }
        } catch (IOException e) {
            Log.LOG.warn("{} could not be saved in {} ({}); make it a writable directory with free space so a failed refresh can fall back to a saved copy.",
                    name, cache.directory(), e.toString());
        }
    }

    private record Parsed(String sha256, IpRangeList list) {
    }

    /**
     * The logger, made on first use: starting SLF4J's simple logger formats its dates with a
     * {@code SimpleDateFormat}, which starts {@code java.util.Calendar} and its scan of the JDK's
     * locales (see {@code JsonDocument} for what that cost), and an import that reads its lists
     * without trouble logs nothing here.
     */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(IpRangeSource.class);
    }
}
