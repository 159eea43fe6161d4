package dev.crawlerrors.crawler;

import dev.crawlerrors.ingest.Hit;
import java.time.Instant;
import java.util.List;

/** Crawler hits as identification makes them, for the tests of every stage after it. */
public final class SampleHits {

    public static final Crawler GOOGLEBOT = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, List.of("common-crawlers.json"), null);
    public static final Verdict VERIFIED = new Verdict(Verification.verified, "in common-crawlers.json 66.249.66.0/27");
    public static final Verdict UNVERIFIED = new Verdict(Verification.unverified, "check pending");
    public static final Verdict SPOOFED = new Verdict(Verification.spoofed, "claims Googlebot; in no Google list");

    private SampleHits() {
    }

    /** A Googlebot hit at {@code time} (ISO instant) from {@code ip}, with the verdict it was identified with. */
    public static CrawlerHit googlebot(String time, String ip, String url, int status, Verdict verdict) {
        return googlebot(Instant.parse(time).toEpochMilli(), ip, url, status, verdict);
    }

    /** {@code n} verified Googlebot 404s from one address, a second apart, to /page/0, /page/1, ... */
    public static List<CrawlerHit> googlebots(int n) {
        List<CrawlerHit> hits = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            hits.add(googlebot(1_747_200_000_000L + i * 1000L, "66.249.66.1", "/page/" + i, 404, VERIFIED));
        }
        return hits;
    }

    public static CrawlerHit googlebot(long epochMillis, String ip, String url, int status, Verdict verdict) {
        Hit hit = new Hit(epochMillis, 120, ip, "GET", url, status, -1, null, "Googlebot", Double.NaN, null);
        return new CrawlerHit(hit, GOOGLEBOT, verdict);
    }
}
