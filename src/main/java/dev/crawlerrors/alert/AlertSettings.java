package dev.crawlerrors.alert;

import dev.crawlerrors.crawler.Verification;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * How {@code serve}'s built-in alerts run, from its options.
 *
 * @param rules         the rules ({@code --alerts FILE}, or the defaults)
 * @param receivers     where alerts go ({@code --alert-webhook}, and the file's webhook lines)
 * @param repeat        how often a receiver is told again of an alert that still fires ({@code --alert-repeat})
 * @param verifications whose hits count ({@code --alert-verification}; verified by default)
 * @param zone          the report's display zone, for the times in summaries and links
 * @param externalUrl   the report's address as people open it, for the links alerts carry; asked when a
 *                      message is written, as a serve on port 0 knows its port once it listens
 */
public record AlertSettings(AlertRules rules, List<Receiver> receivers, Duration repeat, Set<Verification> verifications, ZoneId zone,
        Supplier<String> externalUrl) {

    public static final Duration DEFAULT_REPEAT = Duration.ofHours(4);

    public AlertSettings {
        receivers = List.copyOf(receivers);
        verifications = Set.copyOf(verifications);
    }
}
