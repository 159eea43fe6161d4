package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlersCommandTest {

    @TempDir
    Path dir;

    /** The line of {@code out} that starts with {@code name} and two spaces. */
    private static String line(String out, String name) {
        return out.lines().filter(l -> l.startsWith(name + "  ")).findFirst().orElseThrow(() -> new AssertionError("no line for " + name));
    }

    private static List<String> fields(String line) {
        return List.of(line.split(" {2,}"));
    }

    @Test
    void listsEveryCrawlerWithItsOperatorTypeAndHowItIsVerified() {
        CommandRun run = CommandRun.of("crawlers");

        assertThat(run.exit()).isZero();
        assertThat(run.err()).isEmpty();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("# 1003 crawlers: 89 of crawl-errors' own catalog, 914 more named by device-detector's bots "
                + "(node-device-detector 2.2.7, LGPL-3.0-or-later), which publish no way to verify them");
        assertThat(fields(lines.get(1))).containsExactly("NAME", "OPERATOR", "BOT TYPE", "SOURCE", "VERIFIED BY", "FROM");
        assertThat(lines).hasSize(2 + 1003);
        assertThat(fields(line(run.out(), "Googlebot Smartphone"))).containsExactly("Googlebot Smartphone", "Google", "crawler_search",
                "built in", "IP list or reverse DNS", "common-crawlers.json <https://developers.google.com/static/crawling/ipranges/"
                        + "common-crawlers.json>; PTR in crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com");
        assertThat(fields(line(run.out(), "SeznamBot"))).containsExactly("SeznamBot", "Seznam", "crawler_search", "built in",
                "reverse DNS", "PTR in *.seznam.cz");
        assertThat(fields(line(run.out(), "GPTBot"))).containsExactly("GPTBot", "OpenAI", "crawler_ai", "built in", "IP list",
                "gptbot.json <https://openai.com/gptbot.json>");
        assertThat(fields(line(run.out(), "Amzn-User"))).containsExactly("Amzn-User", "Amazon", "fetcher_ai", "built in",
                "none published", "-");
        assertThat(fields(line(run.out(), "UptimeRobot"))).containsExactly("UptimeRobot", "Uptime Robot", "monitor", "device-detector",
                "none published", "-");
        // a name of the long tail that is also ours is listed once, as ours
        assertThat(run.out().lines().filter(l -> l.startsWith("GPTBot  "))).hasSize(1);
    }

    @Test
    void listsAUsersCatalogAsItsOwnSourceWithItsFieldsEscaped() throws Exception {
        Path file = dir.resolve("mine.json");
        Files.writeString(file, """
                {"lists": [{"name": "acme.json", "operator": "Acme", "url": "https://acme.example/acme.json"}],
                 "crawlers": [
                   {"name": "AcmeBot\\u001b[31m", "operator": "Acme\\u202eCorp", "botType": "crawler_other", "tokens": ["AcmeBot"],
                    "ipLists": ["acme.json"], "dnsDomains": ["crawl.acme.example"]},
                   {"name": "Bingbot", "operator": "Microsoft", "botType": "crawler_search", "tokens": ["bingbot"]}]}
                """);

        CommandRun run = CommandRun.of("crawlers", "--crawlers", file.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).doesNotContain("\u001b").doesNotContain("\u202e");
        assertThat(fields(line(run.out(), "AcmeBot\\x1B[31m"))).containsExactly("AcmeBot\\x1B[31m", "Acme\\u202ECorp", "crawler_other",
                file.toString(), "IP list or reverse DNS", "acme.json <https://acme.example/acme.json>; PTR in crawl.acme.example");
        // the user's entry replaces the built-in one of the same name
        assertThat(fields(line(run.out(), "Bingbot"))).containsExactly("Bingbot", "Microsoft", "crawler_search", file.toString(),
                "none published", "-");
    }

    @Test
    void aCatalogFileThatIsNotOneIsABadUsageNamingIt() throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "[1, 2]");

        CommandRun run = CommandRun.of("crawlers", "--crawlers", file.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("--crawlers: " + file + " is not a crawler catalog: it is not a JSON object");
    }
}
