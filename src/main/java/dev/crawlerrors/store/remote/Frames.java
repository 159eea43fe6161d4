package dev.crawlerrors.store.remote;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.PositionMovedException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The store socket's messages, as bytes: a request is a kind (one byte) and its fields, an answer
 * {@link #OK} and its fields, {@link #FAILED} and a message, or {@link #MOVED} and a message and
 * how far each refused log's lines are stored. Strings are a length and UTF-8
 * bytes, -1 for null; a log line is at most 64 KiB, so no field comes near the int's bound. An
 * import begins with {@link #HELLO}; a serve with no place for it yet first sends {@link #WAIT} and
 * a message, unasked. The server bounds a request's bytes in all (StoreSocketServer.Limits).
 */
final class Frames {

    static final byte HELLO = 'H';
    static final byte WAIT = 'W';
    static final byte APPEND = 'A';
    static final byte IMPORTED = 'I';
    static final byte IMPORTED_FILES = 'L';
    static final byte VERDICT = 'V';
    static final byte VERDICTS = 'D';
    static final byte FLUSH = 'F';
    static final byte SIZE = 'S';
    static final byte KEEP_DIRECTORY = 'G';
    static final byte DIRECTORIES = 'R';
    static final byte KEEP_PENDING = 'P';
    static final byte PENDING = 'N';
    static final byte PENDING_COUNT = 'C';
    static final byte SETTLED = 'T';
    static final byte QUIT = 'Q';
    static final byte OK = 'K';
    static final byte FAILED = 'E';
    /** An append refused: another writer recorded the log elsewhere; a message and the logs' keys follow. */
    static final byte MOVED = 'M';
    /** The longest string a frame may carry: a log line is at most 64 KiB. */
    private static final int MAX_STRING = 1 << 20;
    /** The most hits one append may carry: an import appends a chunk of a log at a time. */
    static final int MAX_HITS = 1 << 20;

    private Frames() {
    }

    static void writeString(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > MAX_STRING) {
            throw new IOException("a string of " + length + " bytes is not one the store socket sends");
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    static void writeHits(DataOutputStream out, List<CrawlerHit> hits) throws IOException {
        out.writeInt(hits.size());
        for (CrawlerHit crawlerHit : hits) {
            Hit hit = crawlerHit.hit();
            out.writeLong(hit.epochMillis());
            out.writeInt(hit.offsetMinutes());
            writeString(out, hit.ip());
            writeString(out, hit.method());
            writeString(out, hit.url());
            out.writeInt(hit.status());
            out.writeLong(hit.bytes());
            writeString(out, hit.referer());
            writeString(out, hit.userAgent());
            out.writeDouble(hit.durationMs());
            writeString(out, hit.host());
            writeString(out, hit.location());
            writeString(out, crawlerHit.crawler().name());
            writeString(out, crawlerHit.crawler().botType().name());
            writeVerdict(out, crawlerHit.verdict());
            String claim = crawlerHit.claimCrawler();
            writeString(out, claim.equals(crawlerHit.crawler().name()) ? null : claim);
        }
    }

    /**
     * The hits of an append. The crawlers are known by name and type only, which is what the store
     * keeps of them; hits of one crawler share one object, as identification gives them. A signed
     * hit carries the claim its verdict is recorded under.
     */
    static List<CrawlerHit> readHits(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_HITS) {
            throw new IOException("an append of " + n + " hits is not one the store socket sends");
        }
        Map<String, Crawler> crawlers = new HashMap<>();
        List<CrawlerHit> hits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Hit hit = new Hit(in.readLong(), in.readInt(), readString(in), readString(in), readString(in), in.readInt(),
                    in.readLong(), readString(in), readString(in), in.readDouble(), readString(in), null, readString(in));
            String name = readString(in);
            String botType = readString(in);
            Crawler crawler = crawlers.get(name + '\n' + botType);
            if (crawler == null) {
                crawler = new Crawler(name, null, known(BotType.class, botType), null, null, null, null);
                crawlers.put(name + '\n' + botType, crawler);
            }
            Verdict verdict = readVerdict(in);
            String claim = readString(in); // a signed hit's claim; null for an address's
            hits.add(claim == null ? new CrawlerHit(hit, crawler, verdict)
                    : new CrawlerHit(hit, crawler, verdict, CrawlerHit.claimKey(hit.ip(), claim)));
        }
        return hits;
    }

    static void writeVerdict(DataOutputStream out, Verdict verdict) throws IOException {
        writeString(out, verdict.verification().name());
        writeString(out, verdict.reason());
    }

    static Verdict readVerdict(DataInputStream in) throws IOException {
        return new Verdict(known(Verification.class, readString(in)), readString(in));
    }

    /** A name of {@code type}; another is no frame of this version's (a stream out of step, or another version). */
    static <E extends Enum<E>> E known(Class<E> type, String name) throws IOException {
        try {
            return Enum.valueOf(type, String.valueOf(name));
        } catch (IllegalArgumentException e) {
            throw new IOException("'" + name + "' is not a value this version of crawl-errors knows (a stream out of step, or another version)");
        }
    }

    static void writeProgress(DataOutputStream out, SourceProgress progress) throws IOException {
        out.writeBoolean(progress != null);
        if (progress != null) {
            writeString(out, progress.fingerprint());
            writeString(out, progress.name());
            out.writeLong(progress.bytes());
            out.writeLong(progress.lines());
            writeString(out, progress.check());
            FileStamp file = progress.file();
            out.writeBoolean(file != null);
            if (file != null) {
                writeString(out, file.key());
                out.writeLong(file.size());
                out.writeLong(file.modifiedNanos());
            }
        }
    }

    static SourceProgress readProgress(DataInputStream in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        String fingerprint = readString(in);
        String name = readString(in);
        long bytes = in.readLong();
        long lines = in.readLong();
        String check = readString(in);
        FileStamp file = in.readBoolean() ? new FileStamp(readString(in), in.readLong(), in.readLong()) : null;
        return new SourceProgress(fingerprint, name, bytes, lines, check, file);
    }

    /** A refused append ({@link #MOVED}, its message, and how far each log's lines are stored): the import reads on. */
    static void writeMoved(DataOutputStream out, PositionMovedException moved) throws IOException {
        out.writeByte(MOVED);
        writeString(out, moved.getMessage());
        out.writeInt(moved.refused().size());
        for (PositionMovedException.Refused refused : moved.refused()) {
            writeString(out, refused.key());
            writeProgress(out, refused.storedUpTo());
        }
    }

    /** What {@link #writeMoved} wrote, after its first byte. */
    static PositionMovedException readMoved(DataInputStream in) throws IOException {
        String message = readString(in);
        int n = in.readInt();
        if (n < 0 || n > MAX_HITS) {
            throw new IOException("a refusal of " + n + " logs is not one the store socket sends");
        }
        List<PositionMovedException.Refused> refused = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            refused.add(new PositionMovedException.Refused(readString(in), readProgress(in), null, List.of()));
        }
        return PositionMovedException.told(message, refused);
    }

    /** Strings as a count and each string; the count bounded as a batch of hits is. */
    static void writeStrings(DataOutputStream out, java.util.Collection<String> values) throws IOException {
        out.writeInt(values.size());
        for (String value : values) {
            writeString(out, value);
        }
    }

    static List<String> readStrings(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_HITS) {
            throw new IOException("a list of " + n + " names is not one the store socket sends");
        }
        List<String> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(readString(in));
        }
        return values;
    }

    static void writeProgresses(DataOutputStream out, List<SourceProgress> progress) throws IOException {
        out.writeInt(progress.size());
        for (SourceProgress p : progress) {
            writeProgress(out, p);
        }
    }

    static List<SourceProgress> readProgresses(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<SourceProgress> progress = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            progress.add(readProgress(in));
        }
        return progress;
    }
}
