package dev.crawlerrors.crawler;

/** What kind of crawler made a request; the names are the report's and the API's values. */
public enum BotType {
    crawler_search,
    crawler_inspection_tool,
    crawler_ads,
    crawler_ai,
    crawler_other,
    fetcher_user
}
