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
}
