package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.format.FormatChooser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.BadLine;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import dev.crawlerrors.ingest.format.FormatDetector;
import dev.crawlerrors.ingest.format.LineParser;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.ingest.format.W3cLineParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogReaderTest {

    @TempDir
    Path dir;

    static String line(int i) {
        return "66.249.66." + (i % 250) + " - - [14/May/2025:09:31:02 +0200] \"GET /page/" + i + " HTTP/1.1\" 404 0 \"-\" \"Googlebot/2.1\" 0.001";
    }

    private final List<Hit> hits = new ArrayList<>();

    private ParseCounts read(byte[] log, int threads) throws Exception {
        try (LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser()), threads)) {
            return reader.read(new ByteArrayInputStream(log), ReadRequest.of("access.log", AgentFilter.ALL, hits::addAll));
        }
    }

    @Test
    void keepsGoodLinesAroundGarbageAndReportsItsLineNumbers() throws Exception {
        String log = line(1) + "\n" + "garbage\n" + line(2) + "\n\u0000\u00ff\u0001\n" + line(3) + "\n";

        ParseCounts counts = read(log.getBytes(StandardCharsets.ISO_8859_1), 2);

        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/page/2", "/page/3");
        assertThat(counts.linesRead()).isEqualTo(5);
        assertThat(counts.linesParsed()).isEqualTo(3);
        assertThat(counts.linesBad()).isEqualTo(2);
        assertThat(counts.firstBadLines()).extracting(BadLine::lineNumber).containsExactly(2L, 4L);
        assertThat(counts.firstBadLines().get(0).toString()).startsWith("access.log line 2: ");
    }

    @Test
    void keepsLogOrderAndAbsoluteLineNumbersAcrossManyChunks() throws Exception {
        StringBuilder log = new StringBuilder();
        int lines = 30_000; // about 4 MiB: several chunks, parsed on two threads
        for (int i = 1; i <= lines; i++) {
            log.append(i == 25_001 ? "not a log line" : line(i)).append('\n');
        }

        ParseCounts counts = read(log.toString().getBytes(StandardCharsets.UTF_8), 2);

        assertThat(counts.linesRead()).isEqualTo(lines);
        assertThat(counts.linesBad()).isEqualTo(1);
        assertThat(counts.firstBadLines().get(0).lineNumber()).isEqualTo(25_001);
        assertThat(hits).hasSize(lines - 1);
        for (int i = 1; i < hits.size(); i++) {
            int previous = Integer.parseInt(hits.get(i - 1).url().substring(6));
            int current = Integer.parseInt(hits.get(i).url().substring(6));
            assertThat(current).isGreaterThan(previous);
        }
    }

    @Test
    void readsCrlfLinesAndALastLineWithoutNewline() throws Exception {
        String log = line(1) + "\r\n\r\n" + line(2);

        ParseCounts counts = read(log.getBytes(StandardCharsets.UTF_8), 1);

        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/page/2");
        assertThat(counts.linesBlank()).isEqualTo(1);
        assertThat(counts.linesBad()).isZero();
    }

    @Test
    void reportsTruncatedLinesWithTheirNumbersAndReasonsAndReadsTheLinesAfterThem() throws Exception {
        String truncatedAgent = line(2).substring(0, line(2).indexOf("bot/2.1"));
        String truncatedRequest = line(4).substring(0, line(4).indexOf(" HTTP"));
        String log = line(1) + "\r\n" + truncatedAgent + "\n\n" + truncatedRequest + "\r\n" + line(5) + "\n" + line(6) + "\r";

        ParseCounts counts = read(log.getBytes(StandardCharsets.UTF_8), 1);

        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/page/5", "/page/6");
        assertThat(hits).extracting(Hit::durationMs).containsExactly(1.0, 1.0, 1.0);
        assertThat(counts.linesRead()).isEqualTo(6);
        assertThat(counts.linesBlank()).isEqualTo(1);
        assertThat(counts.firstBadLines()).extracting(BadLine::lineNumber).containsExactly(2L, 4L);
        assertThat(counts.firstBadLines()).extracting(BadLine::reason).containsExactly("truncated", "truncated");
        assertThat(counts.firstBadLines().get(0).toString())
                .isEqualTo("access.log line 2: the user agent has no closing quote; the line looks truncated");
        assertThat(counts.firstBadLines().get(1).toString())
                .isEqualTo("access.log line 4: the request line has no closing quote; the line looks truncated");
    }

    @Test
    void reportsALineLongerThanTheLimitThatWouldParseAndReadsOneJustAtIt() throws Exception {
        String base = line(2);
        String atLimit = base.replace("Googlebot/2.1", "Googlebot/2.1 " + "x".repeat(LineParser.MAX_LINE_BYTES - base.length() - 1));
        String overLimit = line(3).replace("Googlebot/2.1", "Googlebot/2.1 " + "x".repeat(LineParser.MAX_LINE_BYTES - base.length()));
        String log = line(1) + "\n" + atLimit + "\r\n" + overLimit + "\n" + line(4) + "\n";

        ParseCounts counts = read(log.getBytes(StandardCharsets.UTF_8), 1);

        assertThat(atLimit).hasSize(LineParser.MAX_LINE_BYTES);
        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/page/2", "/page/4");
        assertThat(counts.badByReason()).containsOnly(java.util.Map.entry("too long", 1L));
        assertThat(counts.firstBadLines()).extracting(BadLine::lineNumber).containsExactly(3L);
    }

    @Test
    void reportsOverlongLinesAndKeepsTheLinesAfterThem() throws Exception {
        String huge = "x".repeat(LogReader.CHUNK_BYTES * 2 + 17);
        String longish = "y".repeat(LineParser.MAX_LINE_BYTES + 1);
        String log = line(1) + "\n" + huge + "\n" + line(2) + "\n" + longish + "\n" + line(3) + "\n";

        ParseCounts counts = read(log.getBytes(StandardCharsets.UTF_8), 2);

        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/page/2", "/page/3");
        assertThat(counts.badByReason()).containsEntry("too long", 2L);
        assertThat(counts.firstBadLines()).extracting(BadLine::lineNumber).containsExactly(2L, 4L);
    }

    @Test
    void readsGzipFilesByTheirContentNotTheirName() throws Exception {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write((line(1) + "\n" + line(2) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        Path file = dir.resolve("access.log.1");
        Files.write(file, gz.toByteArray());

        LogSource source = LogSource.of(file.toString());
        try (InputStream in = source.open(); LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser()), 2)) {
            reader.read(in, ReadRequest.of(source.name(), AgentFilter.ALL, hits::addAll));
        }

        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/page/2");
        assertThat(source.consumed()).isEqualTo(gz.size());
    }

    @Test
    void keepsWhatWasReadBeforeATruncatedGzipEnds() throws Exception {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            for (int i = 1; i <= 20_000; i++) {
                out.write((line(i) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] truncated = java.util.Arrays.copyOf(gz.toByteArray(), gz.size() / 2);
        Path file = dir.resolve("access.log.gz");
        Files.write(file, truncated);

        ParseCounts counts;
        LogSource source = LogSource.of(file.toString());
        try (InputStream in = source.open(); LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser()), 2)) {
            counts = reader.read(in, ReadRequest.of(source.name(), AgentFilter.ALL, hits::addAll));
        }

        assertThat(hits).isNotEmpty();
        assertThat(counts.sourceErrors()).singleElement().asString()
                .matches(file + " is damaged: its gzip data ends early \\(the file was cut short\\): its first [0-9,]+ lines were read,"
                        + " the rest of it cannot be");
    }

    @Test
    void numbersBadLinesFromTheStartOfTheLogWhenReadingOnFromAPosition() throws Exception {
        String log = line(1) + "\n" + "garbage\n";
        ParseCounts counts;
        try (LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser()), 1)) {
            counts = reader.read(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), ReadRequest.of(new SourceProgress("f", "access.log", 5_000, 12_345), AgentFilter.ALL, (batch, from, through) -> hits.addAll(batch)));
        }

        assertThat(counts.firstBadLines()).extracting(BadLine::toString).containsExactly("access.log line 12347: "
                + counts.firstBadLines().get(0).message());
    }

    @Test
    void appliesAW3cFieldsChangeToEveryLaterChunkThoughChunksAreParsedOnSeveralThreads() throws Exception {
        StringBuilder log = new StringBuilder(SampleLogs.IIS_HEADER);
        int before = 15_000; // about 2 MiB: the change comes in the second or third chunk, and more chunks follow it
        int after = 20_000;
        for (int i = 1; i <= before; i++) {
            log.append("2025-05-14 07:31:02 10.0.0.4 GET /old/").append(i).append(" - 443 - 66.249.66.1 ")
                    .append("Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - 404 0 2 15\n");
        }
        int change = log.length();
        log.append("#Software: Microsoft Internet Information Services 10.0\n")
                .append("#Fields: date time c-ip cs-uri-stem sc-status cs-method cs(User-Agent) time-taken\n");
        for (int i = 1; i <= after; i++) {
            log.append("2025-05-14 08:00:00 157.55.39.1 /new/").append(i).append(" 301 HEAD bingbot/2.0 7\n");
        }
        byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);
        assertThat(change).isGreaterThan(LogReader.CHUNK_BYTES);
        assertThat(bytes.length - change).isGreaterThan(LogReader.CHUNK_BYTES);

        ParseCounts counts;
        try (LogReader reader = new LogReader(FormatChooser.of(new W3cLineParser()), 2)) {
            counts = reader.read(new ByteArrayInputStream(bytes), ReadRequest.of("u_ex250514.log", AgentFilter.ALL, hits::addAll));
        }

        assertThat(counts.linesBad()).isZero();
        assertThat(hits).hasSize(before + after);
        assertThat(hits.get(before - 1).url()).isEqualTo("/old/" + before);
        assertThat(hits.get(before)).extracting(Hit::url, Hit::method, Hit::status, Hit::userAgent)
                .containsExactly("/new/1", "HEAD", 301, "bingbot/2.0");
        assertThat(hits.get(before + after - 1).url()).isEqualTo("/new/" + after);
    }

    @Test
    @org.junit.jupiter.api.Timeout(60) // a line longer than the replay's buffer once made it loop for ever
    void aW3cLogReadOnFromTheMiddleTakesTheLastFieldsBeforeThereWhereverTheChunksEnd() throws Exception {
        StringBuilder log = new StringBuilder(SampleLogs.IIS_HEADER);
        for (int i = 1; i <= 5_000; i++) {
            log.append("2025-05-14 07:31:02 10.0.0.4 GET /old/").append(i).append(" - 443 - 66.249.66.1 ")
                    .append("Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - 404 0 2 15\n");
        }
        // a line longer than a chunk that starts like a directive, then the directive that counts,
        // across the end of the second chunk, then lines read before, then the line read now
        log.append("#Fields: ").append("x".repeat(LogReader.CHUNK_BYTES + 100)).append('\n');
        log.append("y".repeat(2 * LogReader.CHUNK_BYTES - 40 - log.length())).append('\n');
        int directive = log.length();
        log.append("#Fields: date time c-ip cs-uri-stem sc-status cs-method cs(User-Agent) time-taken\n");
        assertThat(directive).isLessThan(2 * LogReader.CHUNK_BYTES).isGreaterThan(2 * LogReader.CHUNK_BYTES - 80);
        log.append("2025-05-14 08:00:00 157.55.39.1 /new/1 301 HEAD bingbot/2.0 7\n");
        int position = log.length();
        log.append("2025-05-14 08:00:01 157.55.39.1 /new/2 410 GET bingbot/2.0 7\n");
        Path file = Files.writeString(dir.resolve("u_ex250514.log"), log);
        LogSource source = LogSource.file(file, "u_ex250514.log");

        ParseCounts counts;
        try (LogReader reader = new LogReader(new FormatDetector(message -> { }), 2)) {
            counts = reader.readOn(source, ReadRequest.of(new SourceProgress(null, "u_ex250514.log", position, 0), AgentFilter.ALL, (parsed, from, through) -> hits.addAll(parsed)));
        }

        assertThat(counts.linesBad()).isZero();
        assertThat(hits).extracting(Hit::url, Hit::method, Hit::status).containsExactly(org.assertj.core.groups.Tuple.tuple("/new/2", "GET", 410));
    }

    @Test
    void aCombinedLogReadOnFromTheMiddleIsNotReadTwice() throws Exception {
        Path file = Files.writeString(dir.resolve("access.log"), line(1) + "\n" + line(2) + "\n");

        try (LogReader reader = new LogReader(new FormatDetector(message -> { }), 2)) {
            assertThat(reader.resumedParser(LogSource.file(file, "access.log"), line(1).length() + 1)).isNull();
        }
    }

    @Test
    void readsALineInAnotherFormatThatCarriesTheAgentInItAndCountsLinesInNoneByReason() throws Exception {
        // a Caddy line reads as JSON; an IIS line without its log's #Fields, and a stray directive, read in no format
        String log = line(1) + "\n" + SampleLogs.CADDY + "\n" + line(2) + "\n" + SampleLogs.IIS_LINE + "\n"
                + "#Fields: date time\n" + line(3) + "\n";

        ParseCounts counts;
        try (LogReader reader = new LogReader(new FormatDetector(message -> { }), 2)) {
            counts = reader.read(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), ReadRequest.of("access.log", AgentFilter.ALL, hits::addAll));
        }

        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/gent/veldstraat?x=1", "/page/2", "/page/3");
        assertThat(hits.get(1).ip()).isEqualTo("66.249.66.1");
        assertThat(counts.linesParsed()).isEqualTo(4);
        assertThat(counts.inOtherFormat()).containsExactly(java.util.Map.entry("JSON lines (Caddy)", 1L));
        assertThat(counts.firstInOtherFormat().get("JSON lines (Caddy)").lineNumber()).isEqualTo(2);
        assertThat(counts.linesBad()).isEqualTo(2);
        assertThat(counts.badByReason()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("no client address", 1L, "no time", 1L));
        assertThat(counts.firstBadLines()).extracting(BadLine::lineNumber).containsExactly(4L, 5L);
        assertThat(counts.firstBadLines().get(0).toString()).startsWith("access.log line 4: no [time] field;")
                .contains("got '2025-05-14 07:31:02 10.0.0.4 GET");
    }

    @Test
    void readsOnInTheNewFormatWhenALogChangesFormatPartway() throws Exception {
        // nginx given log_format ... escape=json and reloaded: the same file goes on in JSON, across chunks and threads
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 3_000; i++) {
            log.append(line(i)).append('\n');
        }
        for (int i = 3_001; i <= 6_000; i++) {
            log.append(SampleLogs.NGINX_JSON.replace("/gent/veldstraat?x=1", "/page/" + i)).append('\n');
        }
        List<String> notices = new ArrayList<>();

        ParseCounts counts;
        try (LogReader reader = new LogReader(new FormatDetector(notices::add), 2)) {
            counts = reader.read(new ByteArrayInputStream(log.toString().getBytes(StandardCharsets.UTF_8)), ReadRequest.of("access.log", AgentFilter.ALL, hits::addAll));
        }

        assertThat(notices).singleElement().asString().startsWith("format: combined");
        assertThat(hits).extracting(Hit::url).containsExactlyElementsOf(IntStream.rangeClosed(1, 6_000).mapToObj(i -> "/page/" + i).toList());
        assertThat(hits.get(5_999).durationMs()).isEqualTo(12.0);
        assertThat(counts.linesParsed()).isEqualTo(6_000);
        assertThat(counts.linesBad()).isZero();
        assertThat(counts.inOtherFormat()).containsExactly(java.util.Map.entry("JSON lines", 3_000L));
        assertThat(counts.firstInOtherFormat().get("JSON lines").lineNumber()).isEqualTo(3_001);
    }

    @Test
    void aLogInTheFormatItWasNamedInReadsNoOtherFormat() throws Exception {
        // --format names the format: lines in another are bad lines, as the user said
        String log = line(1) + "\n" + SampleLogs.NGINX_JSON + "\n";

        ParseCounts counts;
        try (LogReader reader = new LogReader(NamedFormats.chooser("combined", message -> { }), 2)) {
            counts = reader.read(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), ReadRequest.of("access.log", AgentFilter.ALL, hits::addAll));
        }

        assertThat(hits).extracting(Hit::url).containsExactly("/page/1");
        assertThat(counts.linesBad()).isEqualTo(1);
        assertThat(counts.inOtherFormat()).isEmpty();
    }

    @Test
    void recordsASourceWhoseFormatCannotBeDetectedAndReadsNothingOfIt() throws Exception {
        String log = "Tue May 14 09:31:02 2025 [error] something\n".repeat(5);

        ParseCounts counts;
        try (LogReader reader = new LogReader(new FormatDetector(message -> { }), 2)) {
            counts = reader.read(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), ReadRequest.of("error.log", AgentFilter.ALL, hits::addAll));
        }

        assertThat(hits).isEmpty();
        assertThat(counts.linesRead()).isZero();
        assertThat(counts.sourceErrors()).singleElement().asString()
                .startsWith("error.log: the log format could not be detected: 5 of all 5 lines are in none of the formats tried");
    }

    @Test
    void saysWhenAFileIsMissingOrADirectory() {
        assertThat(openError(dir.resolve("missing.log").toString())).isEqualTo(dir.resolve("missing.log") + " does not exist");
        assertThat(openError(dir.toString())).endsWith("is a directory, not a log file");
    }

    private static String openError(String path) {
        try (InputStream in = LogSource.of(path).open()) {
            return "opened";
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
