package dev.crawlerrors.sitemap;

import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Figures;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.stream.XMLStreamException;

/**
 * Reads one {@code --sitemap}: a local file or an HTTP(S) URL of a sitemap (XML, gzipped or not),
 * a sitemap index (each sitemap it lists, breadth first), a plain-text sitemap, or a robots.txt
 * (each of its {@code Sitemap:} lines). It is read whole or not at all: a file refused (a limit, a
 * DTD, a status, a timeout) refuses the read, so that the caller keeps its last good copy; what is
 * merely odd (more URLs in a file than the protocol allows, an index that lists itself or too many
 * files, a line that is no URL) is read around and said in a warning.
 */
public final class SitemapReader {

    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    private final SitemapLimits limits;
    private final SitemapFetch fetch;

    public SitemapReader(SitemapLimits limits) {
        this.limits = limits;
        this.fetch = new SitemapFetch(limits);
    }

    /** A file to read: its name as the user or a parent wrote it, and where it is. */
    private record Pending(String name, URI url, Path file, int depth) {
    }

    /**
     * Reads {@code given} and every file it leads to, each URL to {@code sink} as it is read.
     *
     * @throws SitemapRefusedException one sentence naming the file refused and the rule it broke
     */
    public SitemapRead read(String given, SitemapSink sink) throws SitemapRefusedException {
        Instant deadline = Instant.now().plus(limits.deadline());
        Walk walk = new Walk(given, sink);
        Deque<Pending> pending = new ArrayDeque<>();
        pending.add(first(given));
        Set<String> seen = new HashSet<>();
        seen.add(given);
        while (!pending.isEmpty()) {
            Pending next = pending.poll();
            walk.files++;
            for (String child : readOne(next, walk, deadline)) {
                enqueue(next, child, walk, pending, seen);
            }
        }
        walk.finish();
        return new SitemapRead(given, Instant.now(), walk.urls, walk.files, List.copyOf(walk.warnings));
    }

    private Pending first(String given) throws SitemapRefusedException {
        if (!SCHEME.matcher(given).find()) {
            return new Pending(given, null, Path.of(given), 0);
        }
        URI url = SitemapLoc.httpUrl(given);
        if (url == null) {
            throw new SitemapRefusedException("sitemap " + given + " was refused: only HTTP(S) URLs and local files are read");
        }
        return new Pending(given, url, null, 0);
    }

    /** Queues {@code child}, listed by {@code parent}, unless it is no HTTP(S) URL, read already, too deep or one too many. */
    private void enqueue(Pending parent, String child, Walk walk, Deque<Pending> pending, Set<String> seen) {
        URI url = SitemapLoc.httpUrl(child);
        if (url == null) {
            walk.warn(parent.name() + " lists " + child + ", which is not an HTTP(S) URL: left out");
        } else if (!seen.add(url.normalize().toString())) {
            walk.warn(parent.name() + " lists " + child + ", read already (an index that leads back to itself): read once");
        } else if (parent.depth() + 1 > limits.maxDepth()) {
            walk.warn(parent.name() + " lists " + child + ", nested deeper than " + limits.maxDepth() + " levels of indexes: left out");
        } else if (walk.files + pending.size() >= limits.maxSitemaps()) {
            walk.leftOut(parent.name());
        } else {
            pending.add(new Pending(child, url, null, parent.depth() + 1));
        }
    }

    /** Reads one file: its page URLs go to {@code walk}; the files it lists (an index, a robots.txt) are returned. */
    private List<String> readOne(Pending file, Walk walk, Instant deadline) throws SitemapRefusedException {
        List<String> children = new ArrayList<>();
        boolean robots = file.depth() == 0 && file.name().toLowerCase(Locale.ROOT).replaceAll("[?#].*", "").endsWith("robots.txt");
        int before = walk.listed;
        try (InputStream in = file.url() != null ? fetch.open(file.url(), file.name(), deadline)
                : fetch.open(file.file(), file.name(), deadline)) {
            if (robots) {
                SitemapText.lines(in, line -> {
                    String sitemap = SitemapText.robotsSitemap(line);
                    if (sitemap != null) {
                        children.add(sitemap);
                    }
                }, () -> { });
                if (children.isEmpty()) {
                    throw new SitemapRefusedException("robots.txt " + file.name() + " names no sitemap (it has no Sitemap: line)");
                }
                return children;
            }
            BufferedInputStream text = (BufferedInputStream) in;
            if (startsWithMarkup(text)) {
                SitemapXml.read(text, file.name(), new SitemapXml.Locations() {
                    private SitemapXml.Kind kind;

                    @Override
                    public void root(SitemapXml.Kind value) {
                        kind = value;
                    }

                    @Override
                    public void loc(String loc) {
                        if (kind == SitemapXml.Kind.INDEX) {
                            children.add(loc);
                        } else {
                            walk.page(loc);
                        }
                    }

                    @Override
                    public void tooLong() {
                        walk.overlong++;
                    }
                });
            } else {
                SitemapText.lines(text, walk::page, () -> walk.overlong++);
            }
        } catch (XMLStreamException e) {
            BoundedBody.Exceeded bound = bound(e);
            if (bound != null) {
                throw new SitemapRefusedException(bound.getMessage());
            }
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNumber() + ")";
            throw new SitemapRefusedException("sitemap " + file.name() + " is not well-formed XML" + where + ": " + xmlReason(e));
        } catch (BoundedBody.Exceeded e) {
            throw new SitemapRefusedException(e.getMessage());
        } catch (IOException e) {
            throw new SitemapRefusedException("sitemap " + file.name() + " cannot be read: " + Failures.message(e));
        }
        int listed = walk.listed - before;
        if (listed > SitemapLimits.PROTOCOL_URLS_PER_FILE) {
            walk.warn(file.name() + " lists " + Figures.grouped(listed) + " URLs, more than the protocol's "
                    + Figures.grouped(SitemapLimits.PROTOCOL_URLS_PER_FILE) + " a file: read anyway");
        }
        return children;
    }

    /** Whether the text starts with {@code <} after any byte-order mark and white space (XML), rather than a URL (plain text). */
    private static boolean startsWithMarkup(BufferedInputStream in) throws IOException {
        in.mark(4096);
        try {
            for (int i = 0; i < 4096; i++) {
                int b = in.read();
                if (b < 0) {
                    return false;
                }
                if (b == '<') {
                    return true;
                }
                boolean bom = b == 0xEF || b == 0xBB || b == 0xBF;
                if (!bom && b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                    return false;
                }
            }
            return false;
        } finally {
            in.reset();
        }
    }

    private static BoundedBody.Exceeded bound(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BoundedBody.Exceeded exceeded) {
                return exceeded;
            }
            if (t instanceof XMLStreamException xml && xml.getNestedException() instanceof BoundedBody.Exceeded exceeded) {
                return exceeded;
            }
        }
        return null;
    }

    /** The parser's reason, without the position it prefixes (said apart). */
    private static String xmlReason(XMLStreamException e) {
        String message = Failures.message(e);
        int at = message.indexOf("Message: ");
        return (at >= 0 ? message.substring(at + "Message: ".length()) : message).strip().replace('\n', ' ');
    }

    /** What one read has found so far. */
    private final class Walk {
        final String given;
        final SitemapSink sink;
        final List<String> warnings = new ArrayList<>();
        final Map<String, String> hosts = new HashMap<>();
        final Set<String> leftOutBy = new LinkedHashSet<>();
        int urls;
        int files;
        int listed;
        int overlong;
        int notUrls;
        String firstNotUrl;
        boolean full;

        Walk(String given, SitemapSink sink) {
            this.given = given;
            this.sink = sink;
        }

        void page(String loc) {
            listed++;
            SitemapUrl url = SitemapLoc.parse(loc);
            if (url == null) {
                if (notUrls++ == 0) {
                    firstNotUrl = loc;
                }
                return;
            }
            if (urls >= limits.maxUrls()) {
                full = true;
                return;
            }
            if (sink.add(new SitemapUrl(hosts.computeIfAbsent(url.host(), h -> h), url.target()))) {
                urls++;
            }
        }

        void leftOut(String index) {
            leftOutBy.add(index);
        }

        void warn(String warning) {
            if (warnings.size() < 20) {
                warnings.add(warning);
            }
        }

        void finish() {
            for (String index : leftOutBy) {
                warn(index + " lists more sitemaps than the " + Figures.grouped(limits.maxSitemaps())
                        + " files one sitemap may read: the first were read, the rest left out");
            }
            if (full) {
                warn("sitemap " + given + " holds more than " + Figures.grouped(limits.maxUrls())
                        + " URLs (the limit of one sitemap): the first were read, the rest left out");
            }
            if (notUrls > 0) {
                warn("sitemap " + given + " lists " + Figures.grouped(notUrls) + (notUrls == 1 ? " entry that is" : " entries that are")
                        + " not an HTTP(S) URL (the first: " + firstNotUrl + "): left out");
            }
            if (overlong > 0) {
                warn("sitemap " + given + " lists " + Figures.counted(overlong, "URL") + " longer than "
                        + Figures.grouped(SitemapLimits.MAX_URL_CHARS) + " characters: left out");
            }
        }
    }
}
