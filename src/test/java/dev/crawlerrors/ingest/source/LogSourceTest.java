package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.format.FormatChooser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import dev.crawlerrors.ingest.Compressed;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.ParseCounts;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSourceTest {

    @TempDir
    Path dir;

    private final List<Hit> hits = new ArrayList<>();

    static String lines(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i <= to; i++) {
            sb.append(LogReaderTest.line(i)).append('\n');
        }
        return sb.toString();
    }

    static byte[] zstd(String text) throws IOException {
        return Compressed.zstd(text);
    }

    static byte[] gzip(String text) throws IOException {
        return Compressed.gzip(text);
    }

    private ParseCounts read(LogSource source, long position) throws Exception {
        try (InputStream in = source.openAt(position); LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser()), 2)) {
            return reader.read(in, ReadRequest.of(new SourceProgress("f", source.name(), position, 0), AgentFilter.ALL, (batch, from, through) -> hits.addAll(batch)));
        }
    }

    @Test
    void readsZstdFilesByTheirContentNotTheirName() throws Exception {
        Path file = Files.write(dir.resolve("access.log.1"), zstd(lines(1, 3)));

        LogSource source = LogSource.of(file.toString());
        read(source, 0);

        assertThat(source.compression()).isEqualTo(Compression.ZSTD);
        assertThat(hits).extracting(Hit::url).containsExactly("/page/1", "/page/2", "/page/3");
    }

    @Test
    void keepsWhatWasReadBeforeATruncatedZstdEnds() throws Exception {
        byte[] whole = zstd(lines(1, 20_000));
        Path file = Files.write(dir.resolve("access.log.2.zst"), Arrays.copyOf(whole, whole.length / 2));

        ParseCounts counts = read(LogSource.of(file.toString()), 0);

        assertThat(hits).hasSizeGreaterThan(1000);
        assertThat(hits).extracting(Hit::url).startsWith("/page/1", "/page/2");
        assertThat(counts.sourceErrors()).singleElement().asString()
                .startsWith(file + " is damaged: its zstd data ends early (the file was cut short): its first ")
                .endsWith(" lines were read, the rest of it cannot be");
    }

    @Test
    void opensAtAPositionInTheDecompressedContentWhateverTheCompression() throws Exception {
        String text = lines(1, 5);
        long position = lines(1, 2).length();
        Path plain = Files.writeString(dir.resolve("access.log"), text);
        Path gz = Files.write(dir.resolve("access.log.1.gz"), gzip(text));
        Path zst = Files.write(dir.resolve("access.log.2.zst"), zstd(text));

        for (Path file : List.of(plain, gz, zst)) {
            try (InputStream in = LogSource.of(file.toString()).openAt(position)) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(lines(3, 5));
            }
        }
    }

    @Test
    void knowsWithoutReadingWhenACompressedLogHoldsNothingPastAPosition() throws Exception {
        String text = lines(1, 5);
        Path gz = Files.write(dir.resolve("access.log.1.gz"), gzip(text));
        // as the zstd tool writes a file: the frame header carries the content size
        Path zst = Files.write(dir.resolve("access.log.2.zst"), Zstd.compress(text.getBytes(StandardCharsets.UTF_8)));
        Path plain = Files.writeString(dir.resolve("access.log"), text);
        Path streamed = Files.write(dir.resolve("access.log.3.zst"), zstd(text));

        for (Path file : List.of(gz, zst, plain)) {
            LogSource source = LogSource.of(file.toString());
            assertThat(source.endsBy(text.length())).as(file.toString()).isTrue();
            assertThat(source.endsBy(text.length() - 1)).as(file.toString()).isFalse();
        }
        assertThat(LogSource.of(streamed.toString()).endsBy(text.length())).as("a zstd stream without its size must be read").isFalse();
    }

    @Test
    void namesACompressionItDoesNotReadAndSaysWhatToDo() throws Exception {
        Path file = Files.write(dir.resolve("access.log.3.bz2"), new byte[] {'B', 'Z', 'h', '9', '1', 'A', 'Y'});

        assertThatThrownBy(() -> LogSource.of(file.toString()).open()).isInstanceOf(IOException.class)
                .hasMessage(file + " is compressed with bzip2, which crawl-errors does not read; decompress it into the import, e.g. "
                        + "bzip2 -dc " + file + " | crawl-errors import -");
    }

    @Test
    void theBeginningOfATruncatedSmallGzipIsWhatCameBeforeTheDamage() throws Exception {
        byte[] whole = gzip(lines(1, 3));
        Path file = Files.write(dir.resolve("access.log.2.gz"), Arrays.copyOf(whole, whole.length - 12));

        LogSource.Beginning beginning = LogSource.of(file.toString()).beginning(Fingerprint.PREFIX_BYTES);

        assertThat(beginning.whole()).isTrue();
        assertThat(new String(beginning.bytes(), StandardCharsets.UTF_8)).startsWith(LogReaderTest.line(1));
    }

    /** What a small gzip file holds when loaded, and what it holds read as a stream, byte for byte. */
    private void loadsAsItStreams(Path file, String expected) throws Exception {
        LogSource loaded = LogSource.of(file.toString());
        assertThat(loaded.load()).isTrue();
        byte[] fromMemory;
        try (InputStream in = loaded.open()) {
            fromMemory = in.readAllBytes();
        }
        byte[] streamed;
        try (InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
            streamed = in.readAllBytes();
        }
        assertThat(new String(fromMemory, StandardCharsets.UTF_8)).isEqualTo(expected).isEqualTo(new String(streamed, StandardCharsets.UTF_8));
        assertThat(loaded.damage()).isNull();
    }

    @Test
    void aLoadedGzipOfSeveralMembersWithNamesInTheirHeadersHoldsEveryMember() throws Exception {
        // gzip -N writes the name (FNAME); logs concatenated with cat a.gz b.gz are several members
        byte[] first = gzip(lines(1, 3));
        byte[] named = gzip(lines(4, 5));
        byte[] header = Arrays.copyOf(named, 10);
        header[3] = 8; // FNAME
        byte[] withName = new byte[named.length + 11];
        System.arraycopy(header, 0, withName, 0, 10);
        System.arraycopy("access.log\0".getBytes(StandardCharsets.ISO_8859_1), 0, withName, 10, 11);
        System.arraycopy(named, 10, withName, 21, named.length - 10);
        byte[] both = new byte[first.length + withName.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(withName, 0, both, first.length, withName.length);

        loadsAsItStreams(Files.write(dir.resolve("both.log.gz"), both), lines(1, 5));
    }

    @Test
    void aLoadedGzipWhoseChecksumIsWrongIsDamagedAsWhenStreamed() throws Exception {
        byte[] whole = gzip(lines(1, 3));
        whole[whole.length - 8] ^= 1; // the CRC-32 of the trailer
        Path file = Files.write(dir.resolve("bad.log.gz"), whole);

        LogSource loaded = LogSource.of(file.toString());
        assertThat(loaded.load()).isTrue();
        assertThat(loaded.damage()).isNotNull();
        assertThat(loaded.damage().getMessage()).isEqualTo(LogSource.of(file.toString()).damage().getMessage());
    }

    @Test
    void aLoadedGzipFollowedByBytesThatAreNoMemberReadsAsTheStreamDoes() throws Exception {
        byte[] whole = gzip(lines(1, 2));
        byte[] padded = Arrays.copyOf(whole, whole.length + 32); // zeros after the member, as some copies leave

        loadsAsItStreams(Files.write(dir.resolve("padded.log.gz"), padded), lines(1, 2));
    }

    @Test
    void aLoadedGzipThatHoldsNothingIsEmpty() throws Exception {
        loadsAsItStreams(Files.write(dir.resolve("empty.log.gz"), gzip("")), "");
    }
}
