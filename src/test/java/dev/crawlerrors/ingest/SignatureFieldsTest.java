package dev.crawlerrors.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SignatureFieldsTest {

    @Test
    void theTextsBytesAreTheTextAsUtf8WhateverTheFieldsHold() {
        String[] parts = {null, "", "a", "sig1=:abc:", "x".repeat(9), "y".repeat(10), "z".repeat(99), "w".repeat(100),
                "v".repeat(1_000), "h\u00e9t \u20ac", "\ud83d\ude00 two chars, four bytes", "\u0000\n\"quoted\""};
        for (String signature : parts) {
            for (String input : parts) {
                for (String agent : parts) {
                    SignatureFields fields = new SignatureFields(signature, input, agent);
                    assertThat(fields.textUtf8()).as("%s", fields).isEqualTo(fields.text().getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }

    @Test
    void theTextsBytesMatchItsTextForRandomFields() {
        SplittableRandom random = new SplittableRandom(35);
        for (int n = 0; n < 2_000; n++) {
            SignatureFields fields = new SignatureFields(random(random), random(random), random(random));
            assertThat(fields.textUtf8()).as("%s", fields).isEqualTo(fields.text().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String random(SplittableRandom random) {
        if (random.nextInt(5) == 0) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(300); i > 0; i--) {
            text.appendCodePoint(random.nextInt(4) == 0 ? random.nextInt(0x10000, 0x10FFFF) : random.nextInt(0x20, 0x7F));
        }
        return text.toString();
    }
}
