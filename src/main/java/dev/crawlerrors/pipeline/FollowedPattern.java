package dev.crawlerrors.pipeline;

import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.source.LogFiles;
import dev.crawlerrors.ingest.source.LogReader;
import dev.crawlerrors.ingest.source.LogSource;
import dev.crawlerrors.text.Figures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code serve --follow DIR} or {@code --follow 'DIR/*.gz'}: the files a directory or a glob names,
 * as they come. Each look lists them (one directory listing, one stat a file: no file is opened)
 * and hands the ones that changed since the last look to the import's reading ({@link
 * LogImport#readFiles}), in the order their names give ({@link LogFiles}: a rotated family oldest
 * first). So a file is read once, on from where the store's checkpoint says (a plain file that grows
 * is read on at each look; a partial last line waits for its newline, as import leaves it), and a
 * restart, even after SIGKILL, neither repeats nor loses a line: what was committed decides.
 *
 * <p>A compressed file is complete when it appears, or damaged: it is taken once its stamp is the
 * same at two looks in a row (or it has not changed for {@link #QUIET}), and read only when it
 * decompresses to its end; one still being written is left until it changes. The files listed after
 * one that waits wait with it, so that files are read in their order.
 *
 * <p>Memory: the stamp of each file listed at the last look, nothing else per file (no open file,
 * no thread): a directory of 50,000 files holds a few MB.
 */
final class FollowedPattern {

    /** How often the files are listed again: a new file is in the report within about this. */
    static final Duration LOOK = Duration.ofSeconds(1);
    /** A compressed file not changed for this long is whole (or damaged for good) without a second look. */
    static final Duration QUIET = Duration.ofSeconds(5);
    /** At most this many files read at one look are named one by one; more are counted. */
    private static final int NAMED_FILES = 5;
    private static final String[] COMPRESSED = {".gz", ".zst", ".bz2", ".xz"};

    private final String pattern;
    private final LogImport importer;
    private final LogReader reader;
    /** Files followed on their own ({@code --follow FILE}), left to their follower. */
    private final Set<Path> followedAlone;
    private final Consumer<ImportSummary> afterRead;
    private final Consumer<String> notices;
    /** Each file listed at the last look, by name: its stamp then, and whether it needs no reading at that stamp. */
    private Map<String, Look> looked = new HashMap<>();
    private boolean first = true;
    private boolean saidNothing;
    private final Set<String> saidNotes = new HashSet<>();

    private record Look(FileStamp stamp, boolean done) {
    }

    /**
     * @param afterRead told what each look read, once it is committed
     * @param notices   told, in one sentence, what was picked up, and what could not be read
     */
    FollowedPattern(String pattern, LogImport importer, LogReader reader, Set<Path> followedAlone, Consumer<ImportSummary> afterRead,
            Consumer<String> notices) {
        this.pattern = pattern;
        this.importer = importer;
        this.reader = reader;
        this.followedAlone = followedAlone;
        this.afterRead = afterRead;
        this.notices = notices;
    }

    /** The directory or glob, as the user gave it. */
    String pattern() {
        return pattern;
    }

    /** One look: lists the files and reads what changed, until {@code stopping} says to stop. */
    void poll(BooleanSupplier stopping) throws Exception {
        LogFiles.Expansion listing = LogFiles.expand(List.of(pattern));
        for (String note : listing.notes()) {
            sayOnce(note);
        }
        boolean unreadable = false;
        for (String problem : listing.problems()) {
            if (!problem.startsWith("no file matches ") && !problem.contains(" holds no access logs")) {
                unreadable = true;
                sayOnce(problem); // a glob that cannot be read: said once, looked at again in case it is a name after all
            }
        }
        List<LogSource> take = new ArrayList<>();
        Map<String, Look> now = new HashMap<>();
        int waiting = 0;
        long nowNanos = System.currentTimeMillis() * 1_000_000L;
        for (LogSource source : listing.sources()) {
            if (followedAlone.contains(source.path().toAbsolutePath().normalize())) {
                continue;
            }
            FileStamp stamp = source.stamp();
            Look before = looked.get(source.name());
            boolean same = before != null && stamp != null && stamp.equals(before.stamp);
            if (same && before.done) {
                now.put(source.name(), before);
                continue;
            }
            boolean quiet = stamp != null && nowNanos - stamp.modifiedNanos() >= QUIET.toNanos();
            if (waiting > 0 || (compressed(source.name()) && !same && !quiet)) {
                // taken at the next look if it stays as it is; the files after it wait with it, so they are read in order
                now.put(source.name(), new Look(stamp, false));
                waiting++;
                continue;
            }
            now.put(source.name(), new Look(stamp, true));
            take.add(source);
        }
        looked = now;
        if (listing.sources().isEmpty()) {
            if (!saidNothing && !unreadable) {
                notices.accept("no file matches " + pattern + " yet; files are read as they appear");
            }
            saidNothing = true;
            return;
        }
        if (take.isEmpty()) {
            if (first) {
                say(new ImportSummary(true), now.size(), waiting);
            }
            return;
        }
        ImportSummary summary;
        try {
            summary = importer.readFiles(take, reader, stopping);
        } catch (Exception e) {
            again(take);
            throw e;
        }
        if (summary.storeFailure() != null) {
            again(take);
            notices.accept("the store did not take what was read of " + pattern + " (" + summary.storeFailure() + "); trying again");
            return;
        }
        for (SourceOutcome outcome : summary.outcomes()) {
            if (outcome.waitingBytes() > 0) {
                // a last line without its newline yet: looked at again, though the file may not change
                looked.computeIfPresent(outcome.name(), (name, look) -> new Look(look.stamp, false));
            }
        }
        if (stopping.getAsBoolean()) {
            return;
        }
        summary.problems().forEach(notices);
        afterRead.accept(summary);
        say(summary, now.size(), waiting);
    }

    /** What a look read: at the first, how the files stand; after, the new files by name (or counted, when many). */
    private void say(ImportSummary summary, int files, int waiting) {
        List<SourceOutcome> fresh = summary.outcomes().stream().filter(o -> o.kind() == SourceOutcome.Kind.NEW).toList();
        long freshLines = fresh.stream().mapToLong(SourceOutcome::lines).sum();
        if (first) {
            first = false;
            long read = summary.outcomes().stream().filter(SourceOutcome::read).count();
            long lines = summary.outcomes().stream().filter(SourceOutcome::read).mapToLong(SourceOutcome::lines).sum();
            List<String> parts = new ArrayList<>();
            if (read > 0) {
                parts.add(Figures.grouped(read) + " read now (" + Figures.counted(lines, "line") + ")");
            }
            if (summary.outcomes().size() > read) {
                parts.add(Figures.grouped(summary.outcomes().size() - read) + " read before");
            }
            if (waiting > 0) {
                parts.add(Figures.grouped(waiting) + " at the next look (a compressed file is read once it stays unchanged, "
                        + "and the files after it with it)");
            }
            notices.accept("following " + pattern + ": " + Figures.counted(files, "file") + (parts.isEmpty() ? "" : ": " + String.join(", ", parts)));
        } else if (fresh.size() > NAMED_FILES) {
            notices.accept(pattern + ": " + Figures.counted(fresh.size(), "new file") + " read (" + Figures.counted(freshLines, "line") + ")");
        } else {
            for (SourceOutcome outcome : fresh) {
                notices.accept(outcome.name() + " appeared: read " + Figures.counted(outcome.lines(), "line"));
            }
        }
    }

    private static boolean compressed(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String extension : COMPRESSED) {
            if (lower.endsWith(extension)) {
                return true;
            }
        }
        return false;
    }

    /** Nothing of {@code taken} counts as read: the next look takes them again, on from what the store holds. */
    private void again(List<LogSource> taken) {
        taken.forEach(source -> looked.computeIfPresent(source.name(), (name, look) -> new Look(look.stamp, false)));
    }

    private void sayOnce(String notice) {
        if (saidNotes.add(notice)) {
            notices.accept(notice);
        }
    }
}
