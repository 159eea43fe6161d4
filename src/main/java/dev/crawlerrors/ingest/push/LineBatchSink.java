package dev.crawlerrors.ingest.push;

import dev.crawlerrors.ingest.format.FormatChooser;
import java.io.IOException;
import java.io.InputStream;

/**
 * Where the sources that receive lines over the network (the syslog listener, the log drain) hand
 * each batch. When {@link #accept} returns, the batch is parsed and its crawler hits are stored and
 * visible in the report; a batch is acknowledged to its sender only then.
 */
@FunctionalInterface
public interface LineBatchSink {

    /**
     * Parses {@code lines} (one or more log lines, LF or CRLF) in the format {@code formats}
     * chooses, and stores the crawler hits among them. Bad lines are counted; they never lose the
     * good lines around them.
     *
     * @param source names the source in notices and bad lines ({@code udp://127.0.0.1:5140}, {@code drain})
     * @throws IOException when {@code lines} could not be read to their end; nothing of the batch is stored
     */
    PushedBatch accept(InputStream lines, String source, FormatChooser formats) throws IOException;
}
