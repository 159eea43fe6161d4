package dev.crawlerrors.crawler.dns;

import java.util.List;

/**
 * What reverse-then-forward DNS says about an address that claims to be a crawler.
 *
 * @param outcome whether DNS confirms the crawler, refutes it, or could not be asked
 * @param reason  one line that names the evidence, e.g. {@code PTR crawl-66-249-66-1.googlebot.com,
 *                forward-confirmed} or {@code no PTR for 203.0.113.9 (NXDOMAIN)}
 * @param answers the answers the check saw, in the order it asked, one line each, e.g. {@code PTR
 *                1.66.249.66.in-addr.arpa: crawl-66-249-66-1.googlebot.com} and {@code A
 *                crawl-66-249-66-1.googlebot.com: 66.249.66.1}; empty when it asked nothing
 */
public record DnsEvidence(Outcome outcome, String reason, List<String> answers) {

    public enum Outcome {
        /** The PTR name is in an accepted domain and its A/AAAA records contain the address. */
        CONFIRMED,
        /**
         * DNS answered, and the answer says the address is not the crawler's: no PTR (NXDOMAIN or an
         * empty answer), a PTR outside the accepted domains, or a PTR name that does not resolve
         * back to the address.
         */
        REFUTED,
        /**
         * The check could not be completed (timeout, SERVFAIL, REFUSED, a network error, an
         * unusable input, a resolver that failed its own check). Transient: not cached, worth
         * asking again later.
         */
        FAILED
    }

    public DnsEvidence {
        answers = List.copyOf(answers);
    }

    /** Evidence without the answers that led to it. */
    public DnsEvidence(Outcome outcome, String reason) {
        this(outcome, reason, List.of());
    }

    /** The same evidence with the answers that led to it. */
    DnsEvidence withAnswers(List<String> seen) {
        return new DnsEvidence(outcome, reason, seen);
    }

    /** The same evidence without its answers, as tests compare it. */
    public DnsEvidence withoutAnswers() {
        return new DnsEvidence(outcome, reason);
    }

    static DnsEvidence confirmed(String reason) {
        return new DnsEvidence(Outcome.CONFIRMED, reason);
    }

    static DnsEvidence refuted(String reason) {
        return new DnsEvidence(Outcome.REFUTED, reason);
    }

    static DnsEvidence failed(String reason) {
        return new DnsEvidence(Outcome.FAILED, reason);
    }
}
