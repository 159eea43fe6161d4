package dev.crawlerrors.ingest.push;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyslogStreamTest {

    private final List<String> frames = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();

    private void read(InputStream in) throws Exception {
        SyslogStream.read(in, new SyslogStream.Frames() {
            @Override
            public void frame(byte[] b, int from, int to) {
                frames.add(new String(b, from, to - from, StandardCharsets.UTF_8));
            }

            @Override
            public void skipped(String message) {
                skipped.add(message);
            }
        });
    }

    private void read(String stream) throws Exception {
        read(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)));
    }

    /** A stream that hands out at most {@code step} bytes a read, as a network connection may. */
    private static InputStream trickle(String stream, int step) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        return new InputStream() {
            int at;

            @Override
            public int read() {
                return at < bytes.length ? bytes[at++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (at >= bytes.length) {
                    return -1;
                }
                int n = Math.min(Math.min(len, step), bytes.length - at);
                System.arraycopy(bytes, at, b, off, n);
                at += n;
                return n;
            }
        };
    }

    @Test
    void readsOctetCountedFrames() throws Exception {
        read("11 <190>a: one12 <190>a: two\n");

        assertThat(frames).containsExactly("<190>a: one", "<190>a: two\n");
    }

    @Test
    void readsNewlineTerminatedFramesAndTheLastOneWithoutItsNewline() throws Exception {
        read("<190>a: one\r\n<190>a: two\n\n<190>a: three");

        assertThat(frames).containsExactly("<190>a: one\r", "<190>a: two", "<190>a: three");
    }

    @Test
    void tellsTheFramingsApartFrameByFrame() throws Exception {
        read("11 <190>a: one<190>a: two\n11 <190>a: six");

        assertThat(frames).containsExactly("<190>a: one", "<190>a: two", "<190>a: six");
    }

    @Test
    void readsFramesThatArriveAByteAtATime() throws Exception {
        read(trickle("11 <190>a: one<190>a: two\n", 1));

        assertThat(frames).containsExactly("<190>a: one", "<190>a: two");
    }

    @Test
    void readsABareLineThatStartsWithDigitsAsANewlineTerminatedFrame() throws Exception {
        read("66.249.66.1 - - [x] \"GET / HTTP/1.1\" 404 0\n");

        assertThat(frames).containsExactly("66.249.66.1 - - [x] \"GET / HTTP/1.1\" 404 0");
    }

    @Test
    void skipsOverlongFramesOfEitherFramingAndReadsOn() throws Exception {
        String huge = "x".repeat(SyslogStream.MAX_FRAME + 10);
        read(trickle((huge.length()) + " " + huge + "<190>a: after one\n<190>" + huge + "\n<190>a: after two\n", 8192));

        assertThat(frames).containsExactly("<190>a: after one", "<190>a: after two");
        assertThat(skipped).containsExactly("a frame of " + huge.length() + " bytes was skipped; log lines are at most 65536",
                "a frame longer than " + SyslogStream.MAX_FRAME + " bytes was skipped; log lines are at most 65536");
    }

    @Test
    void saysWhenTheConnectionClosesInsideAFrame() throws Exception {
        read("30 <190>a: cut");

        assertThat(frames).isEmpty();
        assertThat(skipped).containsExactly("the connection closed 11 bytes into a frame of 30");
    }

    @Test
    void passesOnAReadErrorAfterTheFramesBeforeIt() {
        InputStream failing = new java.io.SequenceInputStream(new ByteArrayInputStream("<190>a: one\n".getBytes(StandardCharsets.UTF_8)),
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("Connection reset");
                    }
                });

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> read(failing)).hasMessage("Connection reset");
        assertThat(frames).containsExactly("<190>a: one");
    }
}
