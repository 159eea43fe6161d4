package dev.crawlerrors.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFilesTest {

    @TempDir
    Path dir;

    private Path touch(String name) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, name + "\n");
        return file;
    }

    private static List<String> names(LogFiles.Expansion expansion) {
        return expansion.sources().stream().map(s -> s.path().getFileName().toString()).toList();
    }

    @Test
    void readsARotatedFamilyOldestFirstWithNumbersComparedAsNumbers() throws Exception {
        for (String name : List.of("access.log", "access.log.1", "access.log.2.gz", "access.log.3.zst", "access.log.10.gz")) {
            touch(name);
        }
        // the order a shell's glob gives: lexical
        List<String> arguments = List.of("access.log", "access.log.1", "access.log.10.gz", "access.log.2.gz", "access.log.3.zst")
                .stream().map(n -> dir.resolve(n).toString()).toList();

        assertThat(names(LogFiles.expand(arguments)))
                .containsExactly("access.log.10.gz", "access.log.3.zst", "access.log.2.gz", "access.log.1", "access.log");
    }

    @Test
    void ordersDatedRotationsByDateBeforeTheLiveFile() throws Exception {
        for (String name : List.of("access.log", "access.log-20251102.gz", "access.log-20251030", "access.log-20251101.zst")) {
            touch(name);
        }

        assertThat(names(LogFiles.expand(List.of(dir.toString()))))
                .containsExactly("access.log-20251030", "access.log-20251101.zst", "access.log-20251102.gz", "access.log");
    }

    @Test
    void expandsAGlobTheShellLeftAloneInRotationOrder() throws Exception {
        for (String name : List.of("access.log", "access.log.1", "access.log.2.gz", "other.log")) {
            touch(name);
        }

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir + "/access.log*"));

        assertThat(names(expansion)).containsExactly("access.log.2.gz", "access.log.1", "access.log");
        assertThat(expansion.sources()).extracting(LogSource::name).last().isEqualTo(dir + "/access.log");
        assertThat(expansion.problems()).isEmpty();
    }

    @Test
    void aGlobThatMatchesNothingIsAProblem() {
        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir + "/access.log*"));

        assertThat(expansion.sources()).isEmpty();
        assertThat(expansion.problems()).containsExactly("no file matches " + dir + "/access.log*");
    }

    @Test
    void aMalformedGlobIsAProblemAndTheOtherArgumentsAreStillExpanded() throws Exception {
        touch("good.log");

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir + "/miss[ing.log", dir + "/good.log"));

        assertThat(expansion.sources()).extracting(LogSource::name).containsExactly(dir + "/good.log");
        assertThat(expansion.problems()).containsExactly(dir + "/miss[ing.log names no file, and as a glob its '[' is never "
                + "closed: close it with ']', or write a '[' that is part of the name as [[]");
    }

    @Test
    void saysWhatIsWrongWithAMalformedGlobInAGlobsTerms() {
        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir + "/access.{log,txt", dir + "/a{b,{c}}.log",
                dir + "/[a/b].log", dir + "/[z-a].log"));

        assertThat(expansion.sources()).isEmpty();
        assertThat(expansion.problems()).containsExactly(
                dir + "/access.{log,txt names no file, and as a glob its '{' is never closed: close it with '}', "
                        + "or write a '{' that is part of the name as [{]",
                dir + "/a{b,{c}}.log names no file, and as a glob it has a {...} inside another, which a glob cannot: "
                        + "write the choices in one {...}",
                dir + "/[a/b].log names no file, and as a glob a [...] in it holds a '/', but stands for one character of a "
                        + "name: take the '/' out",
                dir + "/[z-a].log names no file, and as a glob it cannot be read (Invalid range): write a *, ?, [ or { that "
                        + "is part of the name in brackets, as [[]");
    }

    @Test
    void aBracketWrittenAsTheProblemSaysMatchesTheFileNamedWithIt() throws Exception {
        touch("miss[ing.log");
        touch("miss{ing.log.1");

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir + "/miss[[]ing.log", dir + "/miss[{]ing.log*"));

        assertThat(names(expansion)).containsExactly("miss[ing.log", "miss{ing.log.1");
        assertThat(expansion.problems()).isEmpty();
    }

    @Test
    void aDirectoryYieldsItsLogsAndSaysWhatItSkipped() throws Exception {
        for (String name : List.of("access.log", "access.log.1", "access_log.2.gz", "api.log", "site.zst", "error.log", "error.log.1",
                "nginx.pid", "backup.tar.gz", ".access.log.swp")) {
            touch(name);
        }
        Files.createDirectories(dir.resolve("old"));

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir.toString()));

        assertThat(names(expansion)).containsExactly("access.log.1", "access.log", "access_log.2.gz", "api.log", "site.zst");
        assertThat(expansion.notes()).containsExactly("skipped in " + dir + ": .access.log.swp (a hidden file), "
                + "backup.tar.gz (an archive, not a log), error.log (an error log, not an access log), "
                + "error.log.1 (an error log, not an access log), nginx.pid (not named like an access log), old (a directory, not searched)");
        assertThat(expansion.problems()).isEmpty();
    }

    /**
     * A name whose bytes are not text in the system's encoding (a Latin-1 name under UTF-8, any byte
     * above 127 under a POSIX locale) cannot be found again by the name the directory's listing
     * decoded; the directory is then listed by its paths, which keep the bytes, and the file is read.
     */
    @Test
    void aFileWhoseNameIsNotInTheSystemsEncodingIsListedAndRead() throws Exception {
        touch("logs/access.log");
        Process p = new ProcessBuilder("/bin/sh", "-c", "printf 'caf\\351 line\\n' > \"$(printf 'caf\\351.log')\"")
                .directory(dir.resolve("logs").toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor()).isZero();

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir.resolve("logs").toString()));

        assertThat(expansion.problems()).isEmpty();
        assertThat(expansion.notes()).isEmpty();
        assertThat(expansion.sources()).hasSize(2);
        LogSource odd = expansion.sources().stream().filter(s -> !s.name().endsWith("access.log")).findFirst().orElseThrow();
        assertThat(odd.name()).startsWith(dir.resolve("logs") + "/caf").endsWith(".log");
        assertThat(odd.load()).isTrue();
        byte[] content = odd.beginning(100).bytes();
        assertThat(content).hasSize(10).endsWith(" line\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(content[3] & 0xff).isEqualTo(0351);
    }

    @Test
    void aLinkToNothingInADirectoryIsSkippedAndSaysSo() throws Exception {
        touch("logs/access.log");
        Files.createSymbolicLink(dir.resolve("logs/gone.log"), dir.resolve("nowhere.log"));

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir.resolve("logs").toString()));

        assertThat(names(expansion)).containsExactly("access.log");
        assertThat(expansion.notes()).containsExactly("skipped in " + dir.resolve("logs") + ": gone.log (cannot be looked at)");
    }

    @Test
    void aDirectoryWithoutLogsIsAProblem() throws Exception {
        touch("empty/nginx.pid");

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir.resolve("empty").toString()));

        assertThat(expansion.sources()).isEmpty();
        assertThat(expansion.problems()).containsExactly("directory " + dir.resolve("empty")
                + " holds no access logs (files named like *.log, *.log.N, *.gz, *.zst or access*)");
    }

    @Test
    void readsAFileNamedTwiceOnceAndKeepsFamiliesInTheOrderGiven() throws Exception {
        touch("b.log");
        touch("a.log");
        touch("a.log.1");

        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir + "/b.log", dir + "/a.log", dir + "/./b.log", dir + "/a.log.1", "-"));

        assertThat(expansion.sources()).extracting(LogSource::name)
                .containsExactly(dir + "/b.log", dir + "/a.log.1", dir + "/a.log", "-");
    }

    @Test
    void keepsAMissingFileSoItsOpeningReportsIt() {
        LogFiles.Expansion expansion = LogFiles.expand(List.of(dir + "/missing.log"));

        assertThat(expansion.sources()).extracting(LogSource::name).containsExactly(dir + "/missing.log");
        assertThat(expansion.problems()).isEmpty();
    }
}
