package dev.crawlerrors.store;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which hits a report shows; one filter for HTML, JSON and CSV. Empty parts mean "the default":
 * statuses default to errors ({@code >= 300}); verifications default to everything but
 * {@code spoofed} (spoofed hits are not requests the crawler made).
 *
 * @param from inclusive, or null
 * @param to   exclusive, or null
 */
public record HitFilter(
        List<StatusRange> statuses,
        Set<BotType> botTypes,
        Set<Verification> verifications,
        Instant from,
        Instant to,
        String urlPrefix,
        String host) {

    /** The report's default: every error hit not known to be spoofed. */
    public static final HitFilter ERRORS = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null);

    public HitFilter {
        statuses = List.copyOf(statuses);
        botTypes = botTypes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(botTypes));
        verifications = verifications.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(verifications));
    }

    /** The statuses this filter shows. */
    public List<StatusRange> effectiveStatuses() {
        return statuses.isEmpty() ? List.of(StatusRange.ERRORS) : statuses;
    }

    /** The verdicts this filter shows. */
    public Set<Verification> effectiveVerifications() {
        return verifications.isEmpty() ? EnumSet.of(Verification.verified, Verification.unverified) : verifications;
    }
}
