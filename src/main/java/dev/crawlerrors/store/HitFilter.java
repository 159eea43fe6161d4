package dev.crawlerrors.store;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import java.time.Instant;
import java.util.ArrayList;
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

    /** A SQL condition over {@code h} (hits) and the verdict expression {@code verdict}, with its parameters appended to {@code params}. */
    String where(String verdict, List<Object> params) {
        List<String> parts = new ArrayList<>();
        List<String> status = new ArrayList<>();
        for (StatusRange range : effectiveStatuses()) {
            if (range.low() == range.high()) {
                status.add("h.status = ?");
                params.add(range.low());
            } else {
                status.add("h.status BETWEEN ? AND ?");
                params.add(range.low());
                params.add(range.high());
            }
        }
        parts.add("(" + String.join(" OR ", status) + ")");
        parts.add(verdict + " IN (" + placeholders(effectiveVerifications().size()) + ")");
        effectiveVerifications().forEach(v -> params.add(v.name()));
        if (!botTypes.isEmpty()) {
            parts.add("h.bot_type IN (" + placeholders(botTypes.size()) + ")");
            botTypes.forEach(b -> params.add(b.name()));
        }
        if (from != null) {
            parts.add("h.ts >= epoch_ms(?)");
            params.add(from.toEpochMilli());
        }
        if (to != null) {
            parts.add("h.ts < epoch_ms(?)");
            params.add(to.toEpochMilli());
        }
        if (urlPrefix != null) {
            parts.add("starts_with(h.url, ?)");
            params.add(urlPrefix);
        }
        if (host != null) {
            parts.add("h.host = ?");
            params.add(host);
        }
        return String.join(" AND ", parts);
    }

    private static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }
}
