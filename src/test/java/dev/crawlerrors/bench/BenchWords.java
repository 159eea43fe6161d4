package dev.crawlerrors.bench;

/**
 * The words the bench logs are made of: month names for the log's timestamps, the cities and
 * sections of the street-information site they describe, and Google's crawlers' user agents.
 * Kept once so that every generator writes the same site.
 */
final class BenchWords {

    static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    static final String[] CITIES = {"antwerpen", "gent", "brugge", "leuven", "mechelen", "vilvoorde", "hasselt",
        "kortrijk", "oostende", "aalst", "genk", "sint-niklaas", "brussel", "namur", "liege", "charleroi"};
    static final String[] SECTIONS = {"parkeren", "mobiliteit", "bedrijven", "scholen"};
    static final String SMARTPHONE = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36"
            + " (KHTML, like Gecko) Chrome/131.0.6778.108 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    static final String DESKTOP = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    static final String INSPECTION = "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)";

    private BenchWords() {
    }
}
