package dev.crawlerrors.report;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A filter's conditions on what a hit is, not where or when: its status, bot type (asked and hidden),
 * crawler, verdict and host, tested against a kind of hit as the count cubes ({@link CountCube}) and
 * the default view's rows held ({@link DefaultViewRows}) keep them, each a combination at a time
 * rather than a hit at a time.
 */
final class KindMatch {
    private final List<StatusRange> statuses;
    private final Set<String> botTypes;
    private final Set<String> hidden;
    private final Set<String> crawlers;
    private final Set<String> verifications;
    private final String host;

    KindMatch(HitFilter filter) {
        host = filter.host();
        statuses = filter.effectiveStatuses();
        botTypes = filter.botTypes().isEmpty() || filter.everyBotType() ? null : names(filter.botTypes());
        hidden = filter.hiddenBotTypes().isEmpty() ? null : names(filter.hiddenBotTypes());
        crawlers = filter.crawlers().isEmpty() ? null : filter.crawlers();
        verifications = filter.effectiveVerifications().stream().map(Verification::name).collect(Collectors.toSet());
    }

    /** Whether hits of this kind are in the filter's view (a null bot type, crawler or host matches no list of them). */
    boolean matches(int status, String botType, String crawler, String verification, String host) {
        return statuses.stream().anyMatch(range -> range.contains(status))
                && (botTypes == null || (botType != null && botTypes.contains(botType)))
                && (hidden == null || (botType != null && !hidden.contains(botType)))
                && (crawlers == null || (crawler != null && crawlers.contains(crawler)))
                && verification != null && verifications.contains(verification)
                && (this.host == null || this.host.equals(host));
    }

    private static Set<String> names(Set<BotType> types) {
        return types.stream().map(BotType::name).collect(Collectors.toSet());
    }
}
