package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.crawler.dns.DnsEvidence;

/**
 * How the evidence of a claim makes its verdict, and the words its reason says it in: the lists'
 * answer alone, while DNS is under way, and with DNS's answer. A claim verified before (the lists
 * changed since) is never made spoofed by the lists alone.
 */
final class VerdictRules {

    private VerdictRules() {
    }

    /** What the lists alone say, when DNS cannot add to it. */
    static Verdict listVerdict(Crawler crawler, ListCheck list, Verdict verifiedBefore) {
        String claims = "claims " + crawler.name() + "; ";
        return switch (list.kind()) {
            case LISTED -> new Verdict(Verification.verified, list.evidence());
            case NOT_LISTED -> verifiedBefore != null
                    ? new Verdict(Verification.unverified, claims + "was " + verifiedBefore.reason() + "; now " + list.evidence()
                            + ", which alone does not overturn it")
                    : new Verdict(Verification.spoofed, claims + list.evidence());
            case UNREADABLE -> new Verdict(Verification.unverified, claims + "not checked: " + list.evidence());
            case NO_LISTS -> new Verdict(Verification.unverified, list.evidence());
        };
    }

    /** The verdict shown while reverse DNS is asked: spoofed where the list already says so, else unverified. */
    static Verdict provisional(Crawler crawler, ListCheck list, Verdict before) {
        String claims = "claims " + crawler.name() + "; ";
        return switch (list.kind()) {
            case NOT_LISTED -> before != null
                    ? new Verdict(Verification.unverified, claims + "was " + before.reason() + "; now " + list.evidence()
                            + "; reverse DNS " + CrawlerVerifier.CHECK_PENDING)
                    : new Verdict(Verification.spoofed, claims + list.evidence() + "; reverse DNS " + CrawlerVerifier.CHECK_PENDING);
            case UNREADABLE -> new Verdict(Verification.unverified, claims + "list not read (" + list.evidence() + "); reverse DNS "
                    + CrawlerVerifier.CHECK_PENDING);
            default -> new Verdict(Verification.unverified, claims + "reverse DNS " + CrawlerVerifier.CHECK_PENDING);
        };
    }

    /**
     * The lists' answer and DNS's together: DNS confirms (a list lags behind new ranges) or refutes;
     * when DNS could not be asked (a timeout, a resolver that failed its check), the list alone decides,
     * and a claim checked again is never spoofed by the list alone.
     */
    static Verdict combine(String ip, Crawler crawler, ListCheck list, DnsEvidence dns, Verdict before) {
        String claims = "claims " + crawler.name() + "; ";
        boolean notListed = list.kind() == ListCheck.Kind.NOT_LISTED;
        return switch (dns.outcome()) {
            case CONFIRMED -> new Verdict(Verification.verified, notListed
                    ? dns.reason() + " (" + ip + " is not in the published list yet)"
                    : dns.reason());
            case REFUTED -> new Verdict(Verification.spoofed, notListed
                    ? claims + list.evidence() + " and " + dns.reason()
                    : claims + dns.reason());
            case FAILED -> !notListed
                    ? new Verdict(Verification.unverified, claims + dns.reason() + "; " + CrawlerVerifier.CHECK_AGAIN)
                    : before != null
                    ? new Verdict(Verification.unverified, claims + "was " + before.reason() + "; now " + list.evidence()
                            + ", and reverse DNS could not be checked: " + dns.reason() + "; " + CrawlerVerifier.CHECK_AGAIN)
                    : new Verdict(Verification.spoofed, claims + list.evidence() + "; reverse DNS could not be checked: "
                            + dns.reason() + "; " + CrawlerVerifier.CHECK_AGAIN);
        };
    }
}
