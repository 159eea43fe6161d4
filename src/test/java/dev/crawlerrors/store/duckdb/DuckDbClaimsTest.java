package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.Verification;
import org.junit.jupiter.api.Test;

class DuckDbClaimsTest {

    @Test
    void claimsSettledWithTheSameReasonHoldOneStringOfIt() {
        DuckDbClaims claims = new DuckDbClaims();
        String said = "signed by https://chatgpt.com with key abc (Ed25519, in its directory since 2026-11-30T21:13Z)";
        for (int claim = 1; claim <= 3; claim++) {
            // each settled verdict brings its own copy, as the checks make them
            claims.record(claim, claim, Verification.verified, new String(said));
        }
        assertThat(claims.latest(2).reason()).isEqualTo(said).isSameAs(claims.latest(1).reason());
        assertThat(claims.latest(3).reason()).isSameAs(claims.latest(1).reason());
        assertThat(claims.verdict(3, 2).reason()).as("not recorded by version 2").isNotEqualTo(said);
    }

    @Test
    void eachSnapshotReadsTheVerdictRecordedByItsVersion() {
        DuckDbClaims claims = new DuckDbClaims();
        claims.record(1, 3, Verification.unverified, "check pending");
        claims.record(2, 4, Verification.verified, "in Google's list");
        claims.record(1, 7, Verification.spoofed, "the signature does not verify");
        claims.record(1, 9, Verification.verified, "signed");

        assertThat(claims.verdict(1, 2).reason()).isEqualTo("not checked yet");
        assertThat(claims.verdict(1, 3)).isEqualTo(new dev.crawlerrors.crawler.Verdict(Verification.unverified, "check pending"));
        assertThat(claims.verdict(1, 6).verification()).isEqualTo(Verification.unverified);
        assertThat(claims.verdict(1, 7)).isEqualTo(new dev.crawlerrors.crawler.Verdict(Verification.spoofed, "the signature does not verify"));
        assertThat(claims.verdict(1, 8).verification()).isEqualTo(Verification.spoofed);
        assertThat(claims.latest(1)).isEqualTo(new dev.crawlerrors.crawler.Verdict(Verification.verified, "signed"));
        assertThat(claims.latest(2).verification()).isEqualTo(Verification.verified);
        assertThat(claims.latest(3)).as("never recorded").isNull();
        assertThat(claims.latest(0)).isNull();

        assertThat(claims.changedBetween(3, 7)).containsExactly(1);
        assertThat(claims.changedBetween(7, 8)).isEmpty();
        assertThat(claims.changedBetween(2, 9)).as("claim 1 was first recorded after version 2").isEmpty();
        assertThat(claims.select(java.util.EnumSet.of(Verification.verified), 8).takes(2, false)).isTrue();
        assertThat(claims.select(java.util.EnumSet.of(Verification.verified), 8).takes(1, false)).isFalse();
        assertThat(claims.select(java.util.EnumSet.of(Verification.verified), 9).takes(1, false)).isTrue();
    }

    @Test
    void reasonsPastTheKeptOnesAreStillEachClaimsOwn() {
        DuckDbClaims claims = new DuckDbClaims();
        int count = 5_000; // more than the reasons kept once each
        for (int claim = 1; claim <= count; claim++) {
            claims.record(claim, claim, claim % 2 == 0 ? Verification.verified : Verification.spoofed, "reason " + claim);
        }
        for (int claim = 1; claim <= count; claim++) {
            assertThat(claims.latest(claim).reason()).isEqualTo("reason " + claim);
            assertThat(claims.latest(claim).verification()).isEqualTo(claim % 2 == 0 ? Verification.verified : Verification.spoofed);
        }
    }
}
