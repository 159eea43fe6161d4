package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decision, through a stand-in for {@code /proc/self/fd}: a link named 2 to what standard error writes to. */
class StandardErrorTerminalTest {

    @TempDir
    Path fd;

    @Test
    void standardErrorOnAPseudoTerminalIsThatTerminal() throws Exception {
        Path stderr = Files.createSymbolicLink(fd.resolve("2"), Path.of("/dev/pts/3"));

        assertThat(StandardErrorTerminal.find(stderr)).isEqualTo(new StandardErrorTerminal(Path.of("/dev/pts/3")));
    }

    @Test
    void standardErrorRedirectedToAFileIsNoTerminal() throws Exception {
        Path stderr = Files.createSymbolicLink(fd.resolve("2"), Files.createFile(fd.resolve("r.err")));

        assertThat(StandardErrorTerminal.find(stderr)).isNull();
    }

    @Test
    void standardErrorIntoAPipeIsNoTerminal() throws Exception {
        // what Linux shows for `import big.log 2>&1 | tee out`
        Path stderr = Files.createSymbolicLink(fd.resolve("2"), Path.of("pipe:[4026531]"));

        assertThat(StandardErrorTerminal.find(stderr)).isNull();
    }

    @Test
    void aClosedStandardErrorIsNoTerminal() {
        assertThat(StandardErrorTerminal.find(fd.resolve("2"))).isNull();
    }

    @Test
    void aDeviceThatCannotSayItsWidthIsTakenAsEightyColumnsWide() throws Exception {
        // stty refuses a file: "Inappropriate ioctl for device"
        StandardErrorTerminal notOne = new StandardErrorTerminal(Files.createFile(fd.resolve("r.err")));

        assertThat(notOne.columns()).isEqualTo(80);
    }

    @Test
    void terminalsAreToldByTheirDeviceNames() {
        assertThat(StandardErrorTerminal.namesTerminal("/dev/pts/0")).isTrue();
        assertThat(StandardErrorTerminal.namesTerminal("/dev/tty1")).isTrue();
        assertThat(StandardErrorTerminal.namesTerminal("/dev/ttyS0")).isTrue();
        assertThat(StandardErrorTerminal.namesTerminal("/dev/tty")).isTrue();
        assertThat(StandardErrorTerminal.namesTerminal("/dev/console")).isTrue();
        assertThat(StandardErrorTerminal.namesTerminal("/dev/null")).isFalse();
        assertThat(StandardErrorTerminal.namesTerminal("/tmp/r.err")).isFalse();
        assertThat(StandardErrorTerminal.namesTerminal("/home/me/dev/pts/log")).isFalse();
        assertThat(StandardErrorTerminal.namesTerminal("socket:[88123]")).isFalse();
    }
}
