package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What every engine keeps for signature verification, asserted the same way on each: the readings
 * of key directories, the signatures waiting for one, and signed claims, which give one address's
 * signed hits a verdict each by what their signature proved.
 */
public final class SignatureStoreContract {

    static final Crawler AGENT = new Crawler("ChatGPT agent", "OpenAI", BotType.fetcher_ai, List.of(), null, null, null,
            List.of("https://chatgpt.com"));
    static final Verdict VERIFIED = new Verdict(Verification.verified, "signed by https://chatgpt.com with key k1");
    static final Verdict SPOOFED = new Verdict(Verification.spoofed, "the signature does not verify with key k1");
    static final Verdict PENDING = new Verdict(Verification.unverified, "signed for https://chatgpt.com with key k1; check pending");

    private SignatureStoreContract() {
    }

    /** Readings are kept and read back oldest first. */
    public static void keepsTheReadingsOfDirectories(HitStore store) {
        StoredDirectory later = new StoredDirectory("https://chatgpt.com", 2_000, "https://chatgpt.com/.well-known/x", "{\"keys\":[2]}", "");
        StoredDirectory earlier = new StoredDirectory("https://chatgpt.com", 1_000, "a file", "{\"keys\":[1]}", "signed by its key k1");
        StoredDirectory other = new StoredDirectory("https://agent.bot.goog", 1_500, "its URL", "{\"keys\":[]}", "");

        store.signatures().keepDirectory(later);
        store.signatures().keepDirectory(earlier);
        store.signatures().keepDirectory(other);

        assertThat(store.signatures().directories()).containsExactly(earlier, other, later);
    }

    /** Signatures wait until settled, oldest request first, each once however often kept. */
    public static void keepsSignaturesUntilTheyAreSettled(HitStore store) {
        StoredSignature first = signature("s1", 1_000);
        StoredSignature second = signature("s2", 2_000);
        StoredSignature third = new StoredSignature("s3", "66.1.2.3", "ChatGPT agent\u001fpending s3", "https://chatgpt.com", "k1", null,
                "\"@authority\": example.com\n\"@signature-params\": ()", "AAEC", 500);

        // a signed request kept as logged, every check left to whoever settles it
        StoredSignature logged = new StoredSignature("r4", "66.1.2.3", "ChatGPT agent\u001fpending r4", "", "", null, "", "", 3_000,
                new dev.crawlerrors.crawler.signature.LoggedSignature(new dev.crawlerrors.ingest.SignatureFields("sig1=:AAEC:",
                        "sig1=(\"@path\");tag=\"web-bot-auth\"\t\u00e9", null), "GET", "www.example.com", "/a?b=1", 3_000, 12.5, "r4")
                        .encoded());

        store.signatures().keepPending(List.of(second, first, second)); // a line logged twice: kept once
        store.signatures().keepPending(List.of(first, third, logged));

        assertThat(store.signatures().pendingCount()).isEqualTo(4);
        assertThat(store.signatures().pending(10)).containsExactly(third, first, second, logged);
        assertThat(store.signatures().pending(1)).containsExactly(third);

        store.signatures().settled(List.of("s1", "s3"));

        assertThat(store.signatures().pending(10)).containsExactly(second, logged);
        assertThat(store.signatures().pendingCount()).isEqualTo(2);
    }

    /**
     * An address's signed hits get a verdict each by the group their signature is in, none spoiling
     * another's; a pending one changes alone when its signature is settled; an address's unsigned
     * claim beside them is untouched.
     */
    public static void givesEachSignedGroupItsOwnVerdict(HitStore store) {
        String ip = "66.1.2.3";
        store.writer().append(List.of(
                signed("2026-03-01T10:00:00Z", ip, "/good", "verified k1", VERIFIED),
                signed("2026-03-01T10:00:01Z", ip, "/tampered", "signature-invalid k1", SPOOFED),
                signed("2026-03-01T10:00:02Z", ip, "/waiting", "pending s9", PENDING),
                signed("2026-03-01T10:00:03Z", ip, "/good-again", "verified k1", VERIFIED)));
        store.writer().flush();

        // the hits of the signer's host: a store brought up from an older version holds others
        HitFilter all = new HitFilter(List.of(), Set.of(), Set.of(Verification.values()), null, null, null, "www.example.com");
        assertThat(store.reader().page(all, 0, 10)).extracting(StoredHit::url, StoredHit::crawler, StoredHit::verification).containsExactly(
                tuple("/good-again", "ChatGPT agent", "verified"),
                tuple("/waiting", "ChatGPT agent", "unverified"),
                tuple("/tampered", "ChatGPT agent", "spoofed"),
                tuple("/good", "ChatGPT agent", "verified"));

        store.verdicts().update(ip, CrawlerHit.signedClaim(AGENT.name(), "pending s9"), VERIFIED);
        store.writer().flush();

        assertThat(store.reader().page(all, 0, 10)).extracting(StoredHit::url, StoredHit::verification, StoredHit::reason).containsExactly(
                tuple("/good-again", "verified", VERIFIED.reason()),
                tuple("/waiting", "verified", VERIFIED.reason()),
                tuple("/tampered", "spoofed", SPOOFED.reason()),
                tuple("/good", "verified", VERIFIED.reason()));
        HitFilter verified = new HitFilter(List.of(), Set.of(), Set.of(Verification.verified), null, null, null, "www.example.com");
        assertThat(store.reader().count(verified)).isEqualTo(3);
        assertThat(store.verdicts().of(Verification.spoofed)).filteredOn(v -> v.ip().equals(ip))
                .extracting(StoredVerdict::ip, StoredVerdict::crawler)
                .containsExactly(tuple(ip, "ChatGPT agent\u001fsignature-invalid k1"));
    }

    public static StoredSignature signature(String id, long requestMillis) {
        return new StoredSignature(id, "66.1.2.3", "ChatGPT agent\u001fpending " + id, "https://chatgpt.com", "k1", "ed25519",
                "\"@authority\": example.com", "c2ln", requestMillis);
    }

    static CrawlerHit signed(String time, String ip, String url, String group, Verdict verdict) {
        Hit hit = new Hit(Instant.parse(time).toEpochMilli(), 0, ip, "GET", url, 404, -1, null, "Mozilla/5.0 Chrome/131", Double.NaN,
                "www.example.com");
        return new CrawlerHit(hit, AGENT, verdict, CrawlerHit.claimKey(ip, CrawlerHit.signedClaim(AGENT.name(), group)));
    }
}
