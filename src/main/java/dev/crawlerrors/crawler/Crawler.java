package dev.crawlerrors.crawler;

import java.util.List;

/**
 * One entry of the crawler catalog.
 *
 * @param name       the crawler's name as its operator documents it
 * @param operator   who runs it
 * @param botType    what kind of crawler it is
 * @param tokens     user-agent tokens that identify it, matched case-insensitively
 * @param alsoContains further tokens the agent must contain for this entry (Googlebot Smartphone
 *                   is Googlebot whose agent also says Mobile)
 * @param ipLists    names of the operator's published IP lists that verify it; empty if none
 * @param dnsDomains reverse-DNS domains that verify it; empty if none
 * @param signatureAgents the origins of the Web Bot Auth key directories it signs its requests
 *                   with ({@code https://chatgpt.com}); empty if it signs none
 */
public record Crawler(
        String name,
        String operator,
        BotType botType,
        List<String> tokens,
        List<String> alsoContains,
        List<String> ipLists,
        List<String> dnsDomains,
        List<String> signatureAgents) {

    /** An entry that signs no request. */
    public Crawler(String name, String operator, BotType botType, List<String> tokens, List<String> alsoContains, List<String> ipLists,
            List<String> dnsDomains) {
        this(name, operator, botType, tokens, alsoContains, ipLists, dnsDomains, List.of());
    }

    public Crawler {
        tokens = tokens == null ? List.of() : List.copyOf(tokens);
        alsoContains = alsoContains == null ? List.of() : List.copyOf(alsoContains);
        ipLists = ipLists == null ? List.of() : List.copyOf(ipLists);
        dnsDomains = dnsDomains == null ? List.of() : List.copyOf(dnsDomains);
        signatureAgents = signatureAgents == null ? List.of() : List.copyOf(signatureAgents);
    }

    /** The family of the crawlers whose operator publishes no way to verify them. */
    public static final String OTHER_FAMILY = "other";

    /**
     * The family its hits are counted under at {@code /metrics} and in alerts: its operator when
     * the crawler can be verified, by its address or by its signature ({@code Google},
     * {@code OpenAI} for GPTBot and ChatGPT agent alike), else {@value #OTHER_FAMILY}. A signer the
     * catalog does not name has no operator ({@code Signers}), so this stays a few dozen values
     * whatever the logs hold, and may be a metric's label.
     */
    public String family() {
        return (verifiable() || !signatureAgents.isEmpty()) && operator != null && !operator.isBlank() ? operator : OTHER_FAMILY;
    }

    /** Whether the operator publishes a way to check, from the address, that a request is genuine. */
    public boolean verifiable() {
        return !ipLists.isEmpty() || !dnsDomains.isEmpty();
    }
}
