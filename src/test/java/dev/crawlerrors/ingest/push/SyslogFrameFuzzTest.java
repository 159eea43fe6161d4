package dev.crawlerrors.ingest.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.format.FuzzLines;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Arbitrary frames may only ever yield a message inside the frame, or a {@link BadLineException}. */
class SyslogFrameFuzzTest {

    @Property(tries = 3000)
    void arbitraryBytesNeverThrowAnythingElse(@ForAll @Size(max = 300) byte[] frame) {
        messageOrMalformed(frame);
    }

    @Property(tries = 3000)
    void mutatedFramesNeverThrowAnythingElse(@ForAll("mutations") byte[] frame) {
        messageOrMalformed(frame);
    }

    @Provide
    Arbitrary<byte[]> mutations() {
        return FuzzLines.mutationsOf("<190>Nov 22 01:02:03 web1 nginx: " + SyslogFrameTest.LINE,
                "<190>2026-11-22T01:02:03+01:00 nginx[1]: " + SyslogFrameTest.LINE,
                "<165>1 2026-11-22T01:02:03Z web1 app - ID47 [a@1 b=\"\\\"]\"][c@2 d=\"e\"] \uFEFF" + SyslogFrameTest.LINE);
    }

    private static void messageOrMalformed(byte[] frame) {
        try {
            int start = SyslogFrame.messageStart(frame, 0, frame.length);
            assertThat(start).isBetween(1, SyslogFrame.end(frame, 0, frame.length) - 1);
        } catch (BadLineException expected) {
            // the declared outcome for a malformed frame
        }
    }
}
