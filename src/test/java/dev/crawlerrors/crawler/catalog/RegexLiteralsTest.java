package dev.crawlerrors.crawler.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RegexLiteralsTest {

    @Test
    void aWordIsItsOwnRequirementInLowerCase() {
        assertThat(RegexLiterals.required("SeznamBot", 3)).containsExactly("seznambot");
        assertThat(RegexLiterals.required("Backlink-Check\\.de", 3)).containsExactly("backlink-check.de");
    }

    @Test
    void anAlternationRequiresOneOfItsWords() {
        assertThat(RegexLiterals.required("Qwantify|Qwantbot", 3)).containsExactly("qwantify", "qwantbot");
    }

    @Test
    void anOptionalSuffixLeavesTheStemAsTheRequirement() {
        // the exact strings 360spider, 360spider-image and 360spider-video all hold 360spider
        assertThat(RegexLiterals.required("(360Spider(?:-Image|-Video)?)", 3)).containsExactly("360spider");
    }

    @Test
    void aSmallClassMultipliesTheStrings() {
        assertThat(RegexLiterals.required("Y!J-(ASR|BR[IJOWY]|[BPW]SC)", 3)).containsExactly(
                "y!j-asr", "y!j-bri", "y!j-brj", "y!j-bro", "y!j-brw", "y!j-bry", "y!j-bsc", "y!j-psc", "y!j-wsc");
        assertThat(RegexLiterals.required("Amazon[ -]Route ?53", 3)).containsExactly(
                "amazon route 53", "amazon route53", "amazon-route 53", "amazon-route53");
    }

    @Test
    void whatAWildcardSeparatesKeepsTheLongerSide() {
        assertThat(RegexLiterals.required("Baidu.*spider|baidu Transcoder", 3)).containsExactly("spider", "baidu transcoder");
        assertThat(RegexLiterals.required("GoogleBot.+Search\\d+", 3)).containsExactly("googlebot");
    }

    @Test
    void lookaroundsAndAnchorsRequireNothingOfTheirOwn() {
        assertThat(RegexLiterals.required("(?<!HTC)[ _]Butterfly/", 3)).containsExactly(" butterfly/", "_butterfly/");
        assertThat(RegexLiterals.required("^Google$", 3)).containsExactly("google");
        assertThat(RegexLiterals.required("zeal(?!ot)", 3)).containsExactly("zeal");
    }

    @Test
    void aRepeatedPartIsRequiredOnceAndAnOptionalOneNotAtAll() {
        assertThat(RegexLiterals.required("(?:abc)+defg", 3)).containsExactly("defg");
        assertThat(RegexLiterals.required("(?:abcde)+fg", 3)).containsExactly("abcde");
        assertThat(RegexLiterals.required("x(?:abcd){2,3}", 3)).containsExactly("abcd");
        assertThat(RegexLiterals.required("(?:abcd)*x", 3)).isNull();
        assertThat(RegexLiterals.required("(?:abcd){0,2}xy", 3)).isNull();
    }

    @Test
    void findsNoRequirementWhereAnyTextMatches() {
        assertThat(RegexLiterals.required("a.b", 3)).isNull();
        assertThat(RegexLiterals.required("[a-z]+bot", 3)).containsExactly("bot");
        assertThat(RegexLiterals.required("\\w+", 3)).isNull();
        assertThat(RegexLiterals.required("ab|cdef", 3)).isNull(); // one side is too short to look for
        assertThat(RegexLiterals.required("(?x) a b c", 3)).isNull(); // extended mode is not followed
        assertThat(RegexLiterals.required("(unclosed", 3)).isNull();
    }

    @Test
    void aCapturingGroupListsTheStringsItMatchesAsSpelled() {
        assertThat(RegexLiterals.groupStrings("(360Spider(?:-Image|-Video)?)", 1))
                .containsExactlyInAnyOrder("360Spider", "360Spider-Image", "360Spider-Video");
        assertThat(RegexLiterals.groupStrings("Y!J-(ASR|[BP]SC)", 1)).containsExactly("ASR", "BSC", "PSC");
        assertThat(RegexLiterals.groupStrings("(\\w+)bot", 1)).isNull();
        assertThat(RegexLiterals.groupStrings("nogroup", 1)).isNull();
    }
}
