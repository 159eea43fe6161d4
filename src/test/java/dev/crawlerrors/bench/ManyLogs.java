package dev.crawlerrors.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * Benchmark data for many small logs: {@link BenchLog}'s lines cut into gzipped files of a few
 * lines each, named like CloudFront's ({@code E2BENCH.2025-05-14-09.b0000042.gz}: a distribution, the
 * hour, a serial), and the same lines in one plain file, so an import of the directory can be set
 * against an import of the one file in the same run. Run:
 *
 * <pre>
 * mvn -q test-compile
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.ManyLogs 5000 20 /tmp/many /tmp/many.log [SEED]
 * </pre>
 *
 * The names sort in the order of their lines, which is the order an import of the directory reads them.
 */
public final class ManyLogs {

    private ManyLogs() {
    }

    /** {@code ManyLogs FILES LINES_PER_FILE DIR SINGLE_FILE [SEED]}. */
    public static void main(String[] args) throws IOException {
        if (args.length < 4 || args.length > 5) {
            System.err.println("usage: ManyLogs FILES LINES_PER_FILE DIR SINGLE_FILE [SEED]");
            System.exit(2);
        }
        int files = Integer.parseInt(args[0].replace("_", ""));
        int perFile = Integer.parseInt(args[1]);
        Path dir = Files.createDirectories(Path.of(args[2]));
        Path single = Path.of(args[3]);
        long seed = args.length == 5 ? Long.parseLong(args[4]) : BenchLog.SEED;
        long started = System.nanoTime();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        BenchLog.write((long) files * perFile, seed, all);
        byte[] bytes = all.toByteArray();
        Files.write(single, bytes);
        int at = 0;
        for (int f = 0; f < files; f++) {
            int end = at;
            for (int l = 0; l < perFile; l++) {
                while (bytes[end] != '\n') {
                    end++;
                }
                end++;
            }
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name(f, perFile))))) {
                out.write(bytes, at, end - at);
            }
            at = end;
        }
        System.err.printf(Locale.ROOT, "ManyLogs: %,d files of %d lines (%,d lines, %,d bytes) in %s and in %s, %.1f s%n",
                files, perFile, (long) files * perFile, bytes.length, dir, single, (System.nanoTime() - started) / 1e9);
    }

    /**
     * The {@code f}-th file's name. {@link BenchLog} writes about a million lines a day, so the hour is
     * the one its lines fall in; CloudFront's last part is a random id, here a serial that is not a
     * number (a number would be taken for logrotate's {@code .N}, which counts the other way).
     */
    static String name(int f, int perFile) {
        LocalDateTime hour = LocalDate.of(2025, 5, 14).atStartOfDay().plusHours((long) f * perFile * 24 / 1_000_000);
        return String.format(Locale.ROOT, "E2BENCH.%s.b%07d.gz", hour.format(HOUR), f);
    }

    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyy-MM-dd-HH", Locale.ROOT);
}
