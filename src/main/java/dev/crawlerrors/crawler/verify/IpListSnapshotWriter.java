package dev.crawlerrors.crawler.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawlerrors.crawler.IpListSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Refills a release's snapshot of the lists ({@link IpListSnapshot}) in a directory: downloads each
 * list from its source, with the bounds and the refusals every download has (and refuses a copy far
 * smaller than the snapshot's), writes it under its name, and dates the whole in the manifest. A
 * list that cannot be downloaded or is refused keeps the snapshot's previous copy, with its old
 * date. Run by {@code bin/refresh-ip-snapshot} in a release run with internet access.
 */
public final class IpListSnapshotWriter {

    private final IpRangeSource source;
    private final ListFetcher fetcher;
    private final Clock clock;

    /**
     * @param source where lists are downloaded from (its base URL, when it has one, or the official addresses)
     */
    public IpListSnapshotWriter(IpRangeSource source, Clock clock) {
        this(source, new ListFetcher(), clock);
    }

    IpListSnapshotWriter(IpRangeSource source, ListFetcher fetcher, Clock clock) {
        this.source = source;
        this.fetcher = fetcher;
        this.clock = clock;
    }

    /** What the refill did with one list. */
    public record Outcome(String name, boolean fresh, boolean kept, String line) {
    }

    /**
     * Refills {@code directory} with {@code lists}.
     *
     * @return one outcome per list, in order: fresh, kept from the previous snapshot, or missing
     * @throws IOException when the directory or the manifest cannot be read or written
     */
    public List<Outcome> refill(Collection<IpListSpec> lists, Path directory) throws IOException {
        Files.createDirectories(directory);
        IpListSnapshot previous = IpListSnapshot.in(directory);
        Instant now = clock.instant();
        List<Outcome> outcomes = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        ArrayNode entries = json.createArrayNode();
        for (IpListSpec spec : lists) {
            String name = spec.name();
            String url = source.url(spec);
            Optional<IpListSnapshot.Copy> old = Optional.empty();
            String oldProblem = null;
            try {
                old = previous.copy(name);
            } catch (IOException e) {
                oldProblem = e.getMessage();
            }
            try {
                ListFetcher.Response response = fetcher.fetch(url, null);
                IpRangeList list = IpRangeList.parse(name, response.body(), now, url);
                if (old.isPresent()) {
                    IpListSnapshot.Copy copy = old.get();
                    list.requireNotFarSmallerThan(IpRangeList.parse(name, copy.body(), copy.fetchedAt(), "the snapshot"),
                            "the snapshot's copy of " + IpRangeList.minute(copy.fetchedAt()));
                }
                IpListCache.replace(directory.resolve(name), response.body());
                entries.add(entry(json, name, url, now, CachedIpList.sha256(response.body())));
                outcomes.add(new Outcome(name, true, false, name + ": " + list.prefixCount() + (list.prefixCount() == 1 ? " prefix" : " prefixes") + ", created "
                        + (list.creationTime().isEmpty() ? "(not stated)" : list.creationTime()) + ", fetched from " + url));
            } catch (IOException failure) {
                if (old.isPresent()) {
                    IpListSnapshot.Copy copy = old.get();
                    entries.add(entry(json, name, copy.url(), copy.fetchedAt(), CachedIpList.sha256(copy.body())));
                    outcomes.add(new Outcome(name, false, true, name + ": not refreshed (" + failure.getMessage()
                            + "); the snapshot keeps its copy fetched " + IpRangeList.minute(copy.fetchedAt())));
                } else {
                    outcomes.add(new Outcome(name, false, false, name + ": not in the snapshot (" + failure.getMessage()
                            + (oldProblem == null ? "" : "; the previous copy is unusable: " + oldProblem) + ")"));
                }
            }
        }
        ObjectNode manifest = json.createObjectNode().put("takenAt", now.toString());
        manifest.set("lists", entries);
        IpListCache.replace(directory.resolve(IpListSnapshot.MANIFEST), json.writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest));
        return outcomes;
    }

    private static ObjectNode entry(ObjectMapper json, String name, String url, Instant fetchedAt, String sha256) {
        return json.createObjectNode().put("name", name).put("url", url).put("fetchedAt", fetchedAt.toString()).put("sha256", sha256);
    }
}
