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
    void keptAsFormAndRestItReadsBackWhateverTheFieldsHold() {
        String agent = "\"https://chatgpt.com\"";
        String chatGpt = "sig1=(\"@method\" \"@authority\" \"@path\" \"signature-agent\";key=\"sig1\");created=1747180799;expires=1747180860;"
                + "keyid=\"9AlGo\";alg=\"ed25519\";nonce=\"9k6zkxbfgTpQ=\";tag=\"web-bot-auth\"";
        for (SignatureFields fields : java.util.List.of(
                new SignatureFields("sig1=:AAEC:", chatGpt, agent),
                new SignatureFields("sig1=:AAEC:", "sig1=(\"@path\");nonce=\"a;b\";created=1;tag=\"web-bot-auth\";expires=", null),
                new SignatureFields("sig1=:AAEC:", "sig1=(\"@path\";created=5", agent),
                new SignatureFields("sig1=:AAEC:", "sig1=();created=7, sig2=(\"@path\");created=8;nonce=\"x\"", agent),
                new SignatureFields(null, "", "\t\u00e9:1:"),
                new SignatureFields("sig1=:AAEC:", null, agent))) {
            LoggedSignature logged = new LoggedSignature("203.0.113.7", fields, "GET", null, "/a?b=1:2", 1_000, 12.5);

            LoggedSignature.Kept kept = logged.kept();

            assertThat(LoggedSignature.decoded(kept.text(), kept.form(), 1_000, logged.id())).usingRecursiveComparison().isEqualTo(logged);
        }
        LoggedSignature one = new LoggedSignature("203.0.113.7", new SignatureFields("sig1=:AAEC:", chatGpt, agent), "GET", "example.com",
                "/a", 1_000, Double.NaN);
        LoggedSignature other = new LoggedSignature("203.0.113.8", new SignatureFields("sig1=:AQID:",
                chatGpt.replace("1747180799", "1747180900").replace("9k6zkxbfgTpQ=", "other"), agent), "POST", "example.com", "/b", 2_000, 3);
        assertThat(other.kept().formId()).as("what differs from request to request is not in the form").isEqualTo(one.kept().formId());
        assertThat(one.kept().form()).doesNotContain("1747180799").doesNotContain("9k6zkxbfgTpQ=").contains("9AlGo").contains("chatgpt.com");
        assertThat(one.kept().text().length()).isLessThan(one.encoded().length() / 2);
        assertThat(new LoggedSignature("203.0.113.7", new SignatureFields("sig1=:AAEC:", chatGpt.replace("9AlGo", "other-key"), agent), "GET",
                "example.com", "/a", 1_000, Double.NaN).kept().formId()).as("another key, another form").isNotEqualTo(one.kept().formId());
        LoggedSignature oneLetterOff = new LoggedSignature("203.0.113.7", new SignatureFields("sig1=:AAEC:", chatGpt.replace("9AlGo", "9AlGp"),
                agent), "GET", "example.com", "/a", 1_000, Double.NaN);
        assertThat(oneLetterOff.kept().formId()).as("a key one letter off, as long").isNotEqualTo(one.kept().formId());
        assertThat(LoggedSignature.decoded(oneLetterOff.kept().text(), oneLetterOff.kept().form(), 1_000, oneLetterOff.id()))
                .isEqualTo(oneLetterOff);
        assertThat(one.kept().formId()).as("and back to the first").isNotEqualTo(oneLetterOff.kept().formId());
        assertThat(new LoggedSignature("203.0.113.7", new SignatureFields("sig1=:AAEC:", chatGpt, "\"https://chatgpt.con\""), "GET",
                "example.com", "/a", 1_000, Double.NaN).kept().formId()).as("another agent").isNotEqualTo(one.kept().formId());
        assertThatThrownBy(() -> LoggedSignature.decoded(one.kept().text(), "5:x", 1_000, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LoggedSignature.decoded("3:GET", one.kept().form(), 1_000, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LoggedSignature.decoded("99:GET", one.kept().form(), 1_000, "x")).isInstanceOf(IllegalArgumentException.class);
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
