package dev.crawlerrors.crawler;

import dev.crawlerrors.ingest.Hit;

/**
 * A hit made by a known crawler, with its verdict as of when it was identified.
 *
 * @param claim the address and the crawler it claims to be, as one key ({@link #claimKey}): the
 *              verifier, the store and the import each keep something per claim, and a key made
 *              once per hit (with its hash) serves them all. A signed hit's claim also names what
 *              its signature proved ({@link #signedClaim}): one address's signed requests may
 *              verify or not, each by its own signature
 */
public record CrawlerHit(Hit hit, Crawler crawler, Verdict verdict, String claim) {

    /**
     * Between a crawler's name and the group of a signed claim ({@link #signedClaim}): a control
     * character, which no crawler's name holds.
     */
    public static final char GROUP = '\u001f';

    public CrawlerHit(Hit hit, Crawler crawler, Verdict verdict) {
        this(hit, crawler, verdict, claimKey(hit.ip(), crawler.name()));
    }

    /** The key of an address claiming to be the crawler named {@code crawler}. */
    public static String claimKey(String ip, String crawler) {
        return ip + ' ' + crawler;
    }

    /**
     * What a signed claim is recorded under in place of the crawler's name: the name, then the
     * group of signatures its verdict stands for ({@code verified <key>}, {@code expired <key>}, a
     * signature still to be checked), so the store keeps one verdict per address, signer and group.
     */
    public static String signedClaim(String crawler, String group) {
        return crawler + GROUP + group;
    }

    /** What the claim is recorded under: the crawler's name, or for a signed hit its {@link #signedClaim}. */
    public String claimCrawler() {
        return isSigned() ? claim.substring(hit.ip().length() + 1) : crawler.name();
    }

    /** Whether the claim is a signed one ({@link #signedClaim}), which names more than the address and the crawler. */
    public boolean isSigned() {
        return claim.length() != hit.ip().length() + 1 + crawler.name().length();
    }

    /** The group of a signed hit whose signature waits to be checked: the rest of its claim names the line alone. */
    public static final String PENDING = "pending ";
    /**
     * The group of an address's signed hits, of one signer, whose signatures wait in their own rows: one
     * claim for them all until each is checked and moved to a claim of its own.
     */
    public static final String WAITING_IN_ROWS = PENDING + "in rows";

    /**
     * Whether this hit's signature waits to be checked in the hit's own row: a signed hit (its
     * {@link Hit#signed} kept) whose claim is its line's alone ({@link #PENDING}). A hit whose
     * signature waits apart from it, in the store's list of waiting signatures, was stored without
     * its fields.
     */
    public boolean waitsInRow() {
        if (hit.signed() == null) {
            return false;
        }
        int group = claim.indexOf(GROUP);
        return group >= 0 && claim.startsWith(PENDING, group + 1);
    }

    /** The crawler's name a claim recorded under {@code claimCrawler} is of. */
    public static String crawlerOf(String claimCrawler) {
        int group = claimCrawler.indexOf(GROUP);
        return group < 0 ? claimCrawler : claimCrawler.substring(0, group);
    }

    /** The group of a signed claim recorded under {@code claimCrawler}, or empty for an address's claim. */
    public static String groupOf(String claimCrawler) {
        int group = claimCrawler.indexOf(GROUP);
        return group < 0 ? "" : claimCrawler.substring(group + 1);
    }
}
