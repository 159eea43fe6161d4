package dev.crawlerrors.ingest.push;

import dev.crawlerrors.ingest.ParseCounts;

/**
 * What one batch of pushed lines came to.
 *
 * @param counts      lines read, parsed and bad (by reason, the first few kept, numbered from the batch's start)
 * @param format      the format the batch was read in, in words ({@code LineParser#describe}); null for an empty batch
 * @param crawlerHits the crawler hits stored from it
 */
public record PushedBatch(ParseCounts counts, String format, long crawlerHits) {
}
