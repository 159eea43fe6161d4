package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.SignatureFields;
import org.junit.jupiter.api.Test;

/** A signed request kept as logged reads back as kept, whatever its fields hold; its name changes with any part. */
class LoggedSignatureTest {

    @Test
    void readsBackWhatItKeptWhateverTheFieldsHold() {
        LoggedSignature kept = new LoggedSignature("203.0.113.7", new SignatureFields("sig1=:AAEC:", "sig1=(\"@path\");x=\"12:3\"\t\u00e9",
                null), "GET", null, "/a?b=1:2", 1_000, 12.5);

        LoggedSignature read = LoggedSignature.decoded(kept.encoded(), 1_000, kept.id());

        assertThat(read).usingRecursiveComparison().isEqualTo(kept);
        assertThat(LoggedSignature.decoded(new LoggedSignature("203.0.113.7", kept.fields(), "GET", null, "/a", 1_000, Double.NaN)
                .encoded(), 1_000, "x").durationMs()).isNaN();
        assertThatThrownBy(() -> LoggedSignature.decoded("3:GET", 1_000, "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void itsNameIsItsAddressAndEveryPart() {
        SignatureFields fields = new SignatureFields("sig1=:AAEC:", "sig1=()", "\"https://chatgpt.com\"");
        String id = new LoggedSignature("203.0.113.7", fields, "GET", "example.com", "/a", 1_000, Double.NaN).id();

        assertThat(new LoggedSignature("203.0.113.7", fields, "GET", "example.com", "/a", 1_000, 5).id()).isEqualTo(id);
        assertThat(new LoggedSignature("203.0.113.8", fields, "GET", "example.com", "/a", 1_000, Double.NaN).id()).isNotEqualTo(id);
        assertThat(new LoggedSignature("203.0.113.7", fields, "GET", "example.com", "/b", 1_000, Double.NaN).id()).isNotEqualTo(id);
        assertThat(new LoggedSignature("203.0.113.7", fields, "GET", "example.com", "/a", 1_001, Double.NaN).id()).isNotEqualTo(id);
    }
}
