package dev.crawlerrors.crawler;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * What kind of crawler made a request; the names are the report's and the API's values. The
 * first six are the spec's and stay as they are; the rest tell the long tail apart.
 */
public enum BotType {
    /** A search engine's crawler: Googlebot, Bingbot, Applebot, YandexBot, SeznamBot, ... */
    crawler_search,
    /** A crawler a site's owner sends to one page: Google-InspectionTool. */
    crawler_inspection_tool,
    /** An ad platform's crawler checking landing pages: AdsBot-Google, Mediapartners-Google, AdIdxBot. */
    crawler_ads,
    /** A crawler that gathers pages to train AI models: GPTBot, ClaudeBot, CCBot, meta-externalagent. */
    crawler_ai,
    /** Any other crawler: GoogleOther, archives, research, commercial crawlers, bots only known as bots. */
    crawler_other,
    /** A fetch a person asked for that is not one of the kinds below: Google-Site-Verification, Google-Read-Aloud. */
    fetcher_user,
    /** An SEO tool's crawler, run by a site's owner or its competitors: AhrefsBot, SemrushBot, Screaming Frog. */
    crawler_seo,
    /** A crawler that indexes pages for an AI search or answer engine: OAI-SearchBot, Claude-SearchBot, PerplexityBot. */
    crawler_ai_search,
    /** An AI assistant or agent fetching a page because a person asked it to: ChatGPT-User, Claude-User, Perplexity-User. */
    fetcher_ai,
    /** A feed reader or aggregator fetching a feed: FeedFetcher-Google, Feedly, NewsBlur. */
    fetcher_feed,
    /** A link preview: a social network or chat app fetching a shared link: facebookexternalhit, Twitterbot, Slackbot. */
    fetcher_preview,
    /** An uptime, performance or health check: UptimeRobot, Pingdom, a load balancer's health check. */
    monitor,
    /**
     * A security or vulnerability scanner, an Internet-wide survey or an exploit probe (Nmap, zgrab,
     * CensysInspect, ZmEu, "Hello, World", a Shellshock payload for an agent), and any agent known only
     * as device-detector's catch-all "Generic Bot": nothing says who runs it, and most are probes.
     */
    security_scanner;

    /**
     * The types the report leaves out unless asked for ({@code bot=all} or {@code bot=TYPE}): a
     * monitor's or a scanner's error responses are not crawl errors a site's owner fixes (a
     * scanner asks for /wp-login.php on every site; a health check's 404 is its own set-up).
     */
    private static final Set<BotType> HIDDEN_BY_DEFAULT = EnumSet.of(monitor, security_scanner);

    /** Whether the report shows this type when no {@code bot} filter is given. */
    public boolean shownByDefault() {
        return !HIDDEN_BY_DEFAULT.contains(this);
    }

    /** The types the report shows when no {@code bot} filter is given. */
    public static Set<BotType> shownByDefaultTypes() {
        EnumSet<BotType> shown = EnumSet.noneOf(BotType.class);
        Arrays.stream(values()).filter(BotType::shownByDefault).forEach(shown::add);
        return shown;
    }

    /** The types the report leaves out when no {@code bot} filter is given. */
    public static Set<BotType> hiddenByDefault() {
        return EnumSet.copyOf(HIDDEN_BY_DEFAULT);
    }
}
