package dev.crawlerrors.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ShownTextTest {

    private static String ofBytes(byte... b) {
        return ShownText.of(b, 0, b.length);
    }

    @Test
    void showsC0ControlsAndDelAsNginxStyleByteEscapes() {
        assertThat(ShownText.of("\u001B]0;PWNED\u0007\u001B[2J\u0000\r\n\t\u007F"))
                .isEqualTo("\\x1B]0;PWNED\\x07\\x1B[2J\\x00\\x0D\\x0A\\x09\\x7F");
    }

    @Test
    void showsC1ControlsAsTheirUtf8Bytes() {
        assertThat(ShownText.of("a\u009Bb\u0080\u0085")).isEqualTo("a\\xC2\\x9Bb\\xC2\\x80\\xC2\\x85");
    }

    @Test
    void showsTheControlsThatReorderOrHideTextAsUnicodeEscapes() {
        assertThat(ShownText.of("\u202Aa\u202Bb\u202Cc\u202Dd\u202Ee\u2066f\u2067g\u2068h\u2069i\u200Ej\u200Fk\u061Cl\u2028m\u2029"))
                .isEqualTo("\\u202Aa\\u202Bb\\u202Cc\\u202Dd\\u202Ee\\u2066f\\u2067g\\u2068h\\u2069i\\u200Ej\\u200Fk\\u061Cl\\u2028m\\u2029");
    }

    @Test
    void showsEveryOtherInvisibleFormatCharacterAsAUnicodeEscape() {
        // zero width space, word joiner, byte order mark, soft hyphen, Mongolian vowel separator
        assertThat(ShownText.of("/a\u200Bb\u2060c\uFEFFd\u00ADe\u180Ef")).isEqualTo("/a\\u200Bb\\u2060c\\uFEFFd\\u00ADe\\u180Ef");
    }

    @Test
    void showsTagCharactersBeyondTheBasicPlaneByTheirCodePoint() {
        // U+E0041 U+E0042: "AB" hidden in tag characters
        assertThat(ShownText.of("/x\uDB40\uDC41\uDB40\uDC42")).isEqualTo("/x\\u{E0041}\\u{E0042}");
    }

    @Test
    void leavesTheJoinersEmojiAndScriptsNeedAsTheyAre() {
        String text = "👩\u200D💻 می\u200Cخواهم";

        assertThat(ShownText.of(text)).isSameAs(text);
    }

    @Test
    void leavesOrdinaryTextBackslashesAndSupplementaryCharactersAsTheyAre() {
        String text = "café 日本 😀 \\x22 \\\" \\ ~ ½";

        assertThat(ShownText.of(text)).isSameAs(text);
    }

    @Test
    void showsUnpairedSurrogatesAsUnicodeEscapes() {
        assertThat(ShownText.of("a\uD83Db\uDE00😀")).isEqualTo("a\\uD83Db\\uDE00😀");
    }

    @Test
    void escapingWhatWasEscapedChangesNothing() {
        String shown = ShownText.of("\u001B\u009B\u202E\\x1B");

        assertThat(ShownText.of(shown)).isEqualTo(shown).isEqualTo("\\x1B\\xC2\\x9B\\u202E\\x1B");
    }

    @Test
    void showsBytesThatAreNotUtf8AsByteEscapesAndDecodesTheRest() {
        assertThat(ofBytes((byte) 'a', (byte) 0xFF, (byte) 0xC3, (byte) 0xA9, (byte) 0xC3, (byte) 'b', (byte) 0xC0, (byte) 0xAF))
                .isEqualTo("a\\xFFé\\xC3b\\xC0\\xAF");
        assertThat(ofBytes((byte) 0xED, (byte) 0xA0, (byte) 0x80)).isEqualTo("\\xED\\xA0\\x80"); // an encoded surrogate
        assertThat(ofBytes((byte) 0xE6, (byte) 0x97)).isEqualTo("\\xE6\\x97"); // a character cut short
    }

    @Test
    void escapesControlsInBytesAsInText() {
        byte[] b = "\u001B[31m\u0000\u0085\u202E日本".getBytes(StandardCharsets.UTF_8);

        assertThat(ShownText.of(b, 0, b.length)).isEqualTo("\\x1B[31m\\x00\\xC2\\x85\\u202E日本");
    }
}
