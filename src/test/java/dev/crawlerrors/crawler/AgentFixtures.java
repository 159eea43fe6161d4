package dev.crawlerrors.crawler;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The peers' user agents the identification is tested against (src/test/resources/agents, written
 * by scripts/refresh-bot-fixtures.sh): device-detector's bots with the name and category it gives
 * them, and its other fixtures' agents (browsers, apps, devices, libraries), plus uap-core's
 * browser agents.
 */
public final class AgentFixtures {

    /** A bot agent and what device-detector's fixture says of it. */
    public record Bot(String agent, String name, String category) {
    }

    private AgentFixtures() {
    }

    public static List<Bot> deviceDetectorBots() {
        List<Bot> bots = new ArrayList<>();
        for (String line : lines("/agents/device-detector/bots.tsv")) {
            String[] fields = line.split("\t", -1);
            bots.add(new Bot(fields[0], fields[1], fields[2]));
        }
        return bots;
    }

    /** device-detector's fixtures of everything but bots. */
    public static List<String> deviceDetectorOthers() {
        return lines("/agents/device-detector/others.txt");
    }

    /** uap-core's Firefox and Opera Mini agents. */
    public static List<String> uapBrowsers() {
        return lines("/agents/uap-core/browsers.txt");
    }

    private static List<String> lines(String resource) {
        try (InputStream in = AgentFixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing; scripts/refresh-bot-fixtures.sh writes it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
