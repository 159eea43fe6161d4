package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.signature.LoggedSignature;
import dev.crawlerrors.ingest.SignatureFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DuckDbClaimNumbersTest {

    /** The key of a signed line left waiting, as the import makes it. */
    private static String waiting(String ip, String crawler, int line) {
        LoggedSignature logged = new LoggedSignature(ip, new SignatureFields("sig1=:AAAA" + line + ":", "sig1=();tag=\"web-bot-auth\"",
                "\"https://chatgpt.com\""), "GET", "example.com", "/page/" + line, 1_700_000_000_000L + line, Double.NaN);
        return CrawlerHit.claimKey(ip, CrawlerHit.signedClaim(crawler, "pending " + logged.id()));
    }

    @Test
    void waitingLinesKeysAreKeptAsNumbersAndEveryKeyFindsItsClaim() {
        DuckDbClaimNumbers numbers = new DuckDbClaimNumbers();
        Map<String, Integer> expected = new HashMap<>();
        int claim = 1;
        for (int line = 0; line < 30_000; line++) { // past several growths of the arrays
            String key = waiting("20.171.207." + (line % 7), "ChatGPT agent", line);
            assertThat(numbers.putIfAbsent(key, claim)).as("new").isEqualTo(-1);
            expected.put(key, claim++);
        }
        for (String key : List.of(CrawlerHit.claimKey("66.249.66.1", "Googlebot"),
                CrawlerHit.claimKey("1.2.3.4", CrawlerHit.signedClaim("ChatGPT agent", "verified abc")),
                // the form of a waiting line's key, but not an id's characters
                CrawlerHit.claimKey("1.2.3.4", CrawlerHit.signedClaim("ChatGPT agent", "pending r!!!!!!!!!!!!!!!!!!!!!!")))) {
            assertThat(numbers.putIfAbsent(key, claim)).as("new").isEqualTo(-1);
            expected.put(key, claim++);
        }
        assertThat(numbers.sizes()).containsExactly(30_000, 3);
        expected.forEach((key, number) -> assertThat(numbers.get(new String(key))).as(key).isEqualTo(number));

        // the same line's id from another address or crawler is another claim
        String key = waiting("20.171.207.0", "ChatGPT agent", 7);
        String otherAddress = "20.171.207.99" + key.substring("20.171.207.0".length());
        String otherCrawler = key.replace("ChatGPT agent", "Google-Agent");
        assertThat(numbers.get(otherAddress)).isEqualTo(-1);
        assertThat(numbers.get(otherCrawler)).isEqualTo(-1);
        assertThat(numbers.putIfAbsent(otherAddress, claim)).isEqualTo(-1);
        assertThat(numbers.putIfAbsent(otherAddress, claim + 1)).as("known: its number, unchanged").isEqualTo(claim);
        assertThat(numbers.get(otherAddress)).isEqualTo(claim);
        assertThat(numbers.get(key)).isEqualTo(expected.get(key));
    }

    @Test
    void idsThatDifferInAnyCharacterAreDifferentClaims() {
        DuckDbClaimNumbers numbers = new DuckDbClaimNumbers();
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        Random random = new Random(35);
        List<String> keys = new ArrayList<>();
        char[] id = new char[22];
        for (int i = 0; i < id.length; i++) {
            id[i] = alphabet.charAt(random.nextInt(64));
        }
        for (int at = 0; at < id.length; at++) {
            for (int c = 0; c < 64; c++) {
                char[] changed = id.clone();
                changed[at] = alphabet.charAt(c);
                String key = CrawlerHit.claimKey("1.2.3.4", CrawlerHit.signedClaim("ChatGPT agent", "pending r" + new String(changed)));
                if (!keys.contains(key)) {
                    keys.add(key);
                }
            }
        }
        for (int i = 0; i < keys.size(); i++) {
            assertThat(numbers.putIfAbsent(keys.get(i), i + 1)).isEqualTo(-1);
        }
        assertThat(numbers.sizes()[0]).isEqualTo(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            assertThat(numbers.get(keys.get(i))).isEqualTo(i + 1);
        }
        numbers.clear();
        assertThat(numbers.get(keys.get(0))).isEqualTo(-1);
        assertThat(numbers.sizes()).containsExactly(0, 0);
    }
}
