package dev.crawlerrors.store;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import java.util.EnumSet;
import java.util.Set;

/**
 * What the URLs page asks for: the URLs the view's crawlers fetched ({@code filter}: its crawlers,
 * bot types, verdicts, time range, host, URL prefix and shape), whose state from the view's hits is
 * among {@code states} (every state when empty), fixed or flapping if asked, and whose last status
 * is among the filter's statuses (any when it names none), in {@code sort}'s order.
 *
 * @param fixedOnly        only URLs that are fixed ({@code fixed=true})
 * @param inconsistentOnly only URLs whose answers flapped ({@code inconsistent=true})
 */
public record UrlQuery(HitFilter filter, Set<UrlState.State> states, boolean fixedOnly, boolean inconsistentOnly, UrlSort sort) {

    /** The default view: URLs broken now, most error hits first. */
    public static final UrlQuery BROKEN = new UrlQuery(HitFilter.ERRORS, EnumSet.of(UrlState.State.broken), false, false, UrlSort.errors);

    public UrlQuery {
        states = states.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(states));
    }

    /** The scope of every crawler the default view shows. */
    public static final String EVERY_CRAWLER = "";
    /** The scope of every crawler of every bot type ({@code bot=all}). */
    public static final String EVERY_BOT_TYPE = "*";

    /**
     * The kept scope whose states are this query's, or null when they must be made from the hits: the
     * default view's crawlers ({@link #EVERY_CRAWLER}), every bot type's ({@link #EVERY_BOT_TYPE})
     * or one crawler's name, over all time, of every verdict but spoofed.
     */
    public String scope() {
        boolean defaultVerdicts = filter.verifications().isEmpty()
                || filter.verifications().equals(EnumSet.of(Verification.verified, Verification.unverified));
        if (!defaultVerdicts || filter.from() != null || filter.to() != null) {
            return null;
        }
        if (filter.botTypes().isEmpty()) {
            if (filter.crawlers().isEmpty()) {
                return EVERY_CRAWLER;
            }
            return filter.crawlers().size() == 1 ? filter.crawlers().iterator().next() : null;
        }
        return filter.everyBotType() && filter.crawlers().isEmpty() ? EVERY_BOT_TYPE : null;
    }

    /** Whether a hit of this bot type, crawler, verdict and time is one of the view's. */
    public boolean shows(UrlHit hit, Verification verdict) {
        return showsHit(filter, hit, verdict);
    }

    /** Whether {@code filter}'s view takes a hit: its crawlers, bot types, verdicts and time range (not its statuses). */
    public static boolean showsHit(HitFilter filter, UrlHit hit, Verification verdict) {
        if (!filter.effectiveVerifications().contains(verdict)) {
            return false;
        }
        if (!filter.crawlers().isEmpty() && !filter.crawlers().contains(hit.crawler())) {
            return false;
        }
        if (!filter.botTypes().isEmpty() && !filter.everyBotType() && !filter.botTypes().contains(botType(hit.botType()))) {
            return false;
        }
        if (!filter.hiddenBotTypes().isEmpty() && filter.hiddenBotTypes().contains(botType(hit.botType()))) {
            return false;
        }
        if (filter.from() != null && hit.epochMillis() < filter.from().toEpochMilli()) {
            return false;
        }
        return filter.to() == null || hit.epochMillis() < filter.to().toEpochMilli();
    }

    private static BotType botType(String name) {
        try {
            return BotType.valueOf(name);
        } catch (IllegalArgumentException e) {
            return BotType.crawler_other;
        }
    }

    /** Whether a URL is one the view asks about, by its host and URL: the filter's host, prefix and shape. */
    public boolean takesUrl(String host, String url) {
        if (filter.host() != null && !filter.host().equals(host)) {
            return false;
        }
        if (filter.urlPrefix() != null && !url.startsWith(filter.urlPrefix())) {
            return false;
        }
        return filter.urlPattern() == null || filter.urlPattern().matches(url);
    }

    /** Whether a URL's state is one the view lists. */
    public boolean takesState(UrlState state) {
        if (!states.isEmpty() && !states.contains(state.state())) {
            return false;
        }
        if (fixedOnly && !state.fixed()) {
            return false;
        }
        if (inconsistentOnly && !state.inconsistent()) {
            return false;
        }
        return filter.statuses().isEmpty() || filter.statuses().stream().anyMatch(range -> range.contains(state.lastStatus()));
    }
}
