package dev.crawlerrors.store;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which hits a report shows; one filter for HTML, JSON and CSV. Empty parts mean "the default":
 * statuses default to errors ({@code >= 300}); bot types to those the report shows by default
 * (every type but monitors and security scanners: {@link BotType#shownByDefault}); verifications
 * to everything but {@code spoofed} (spoofed hits are not requests the crawler made); crawlers to
 * every crawler.
 *
 * @param botTypes   the types asked for; every type ({@link #ALL_BOT_TYPES}) shows hits of any type
 * @param from       inclusive, or null
 * @param to         exclusive, or null
 * @param crawlers   crawlers' names, as the catalog spells them; empty for every crawler
 * @param urlPattern the URL shape a hit's path must have, or null
 * @param inSitemap  true: only hits of URLs a sitemap lists ({@link SitemapStore}); false: only those none lists; null: either
 */
public record HitFilter(
        List<StatusRange> statuses,
        Set<BotType> botTypes,
        Set<Verification> verifications,
        Instant from,
        Instant to,
        String urlPrefix,
        String host,
        Set<String> crawlers,
        UrlPattern urlPattern,
        Boolean inSitemap) {

    /** The report's default: every error hit not known to be spoofed, of the bot types shown by default. */
    public static final HitFilter ERRORS = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null);

    /** Every bot type: {@code bot=all}. */
    public static final Set<BotType> ALL_BOT_TYPES = Set.copyOf(EnumSet.allOf(BotType.class));

    public HitFilter {
        statuses = List.copyOf(statuses);
        botTypes = botTypes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(botTypes));
        verifications = verifications.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(verifications));
        crawlers = crawlers == null || crawlers.isEmpty() ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(crawlers));
    }

    /** A filter of hits whether a sitemap lists their URL or not. */
    public HitFilter(List<StatusRange> statuses, Set<BotType> botTypes, Set<Verification> verifications, Instant from, Instant to,
            String urlPrefix, String host, Set<String> crawlers, UrlPattern urlPattern) {
        this(statuses, botTypes, verifications, from, to, urlPrefix, host, crawlers, urlPattern, null);
    }

    /** A filter of every crawler and any URL shape. */
    public HitFilter(List<StatusRange> statuses, Set<BotType> botTypes, Set<Verification> verifications, Instant from, Instant to,
            String urlPrefix, String host) {
        this(statuses, botTypes, verifications, from, to, urlPrefix, host, Set.of(), null);
    }

    /** A filter of any URL shape. */
    public HitFilter(List<StatusRange> statuses, Set<BotType> botTypes, Set<Verification> verifications, Instant from, Instant to,
            String urlPrefix, String host, Set<String> crawlers) {
        this(statuses, botTypes, verifications, from, to, urlPrefix, host, crawlers, null);
    }

    /** The statuses this filter shows. */
    public List<StatusRange> effectiveStatuses() {
        return statuses.isEmpty() ? List.of(StatusRange.ERRORS) : statuses;
    }

    /** The verdicts this filter shows. */
    public Set<Verification> effectiveVerifications() {
        return verifications.isEmpty() ? EnumSet.of(Verification.verified, Verification.unverified) : verifications;
    }

    /** Whether hits of every bot type are shown ({@code bot=all}), so that no condition on the type is needed. */
    public boolean everyBotType() {
        return botTypes.containsAll(ALL_BOT_TYPES);
    }

    /**
     * The bot types this filter leaves out because none was asked for: those the report hides by
     * default; none when a type or a crawler was asked for (a crawler asked for by name is shown
     * whatever its type).
     */
    public Set<BotType> hiddenBotTypes() {
        return botTypes.isEmpty() && crawlers.isEmpty() ? BotType.hiddenByDefault() : Set.of();
    }

    /** Whether {@code status} is one this filter shows. */
    public boolean showsStatus(int status) {
        return effectiveStatuses().stream().anyMatch(range -> range.contains(status));
    }

    /** This filter with other statuses (empty: the default, errors). */
    public HitFilter withStatuses(List<StatusRange> value) {
        return new HitFilter(value, botTypes, verifications, from, to, urlPrefix, host, crawlers, urlPattern, inSitemap);
    }

    /** This filter with other verdicts (empty: the default, all but spoofed). */
    public HitFilter withVerifications(Set<Verification> value) {
        return new HitFilter(statuses, botTypes, value, from, to, urlPrefix, host, crawlers, urlPattern, inSitemap);
    }

    /** This filter over another time range ({@code from} inclusive, {@code to} exclusive; null: no bound). */
    public HitFilter withTimes(Instant from, Instant to) {
        return new HitFilter(statuses, botTypes, verifications, from, to, urlPrefix, host, crawlers, urlPattern, inSitemap);
    }

    /** This filter with another URL shape, or none. */
    public HitFilter withUrlPattern(UrlPattern value) {
        return new HitFilter(statuses, botTypes, verifications, from, to, urlPrefix, host, crawlers, value, inSitemap);
    }

    /** This filter of hits a sitemap lists ({@code true}), none lists ({@code false}), or either ({@code null}). */
    public HitFilter withInSitemap(Boolean value) {
        return new HitFilter(statuses, botTypes, verifications, from, to, urlPrefix, host, crawlers, urlPattern, value);
    }
}
