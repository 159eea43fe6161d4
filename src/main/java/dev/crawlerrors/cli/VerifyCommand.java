package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.signature.SignatureOutcome;
import dev.crawlerrors.crawler.signature.SignedHits;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeList;
import dev.crawlerrors.text.ShownText;
import inet.ipaddr.IPAddressString;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code crawl-errors verify IP [USER-AGENT]}: explains how one address and agent are identified and
 * verified; with {@code --signature}, {@code --signature-input} and {@code --signature-agent} (a
 * request's Web Bot Auth headers, as logged), how that signed request is verified, step by step.
 */
final class VerifyCommand implements Callable<Integer> {

    static final int SPOOFED = 3;
    static final int UNVERIFIED = 4;
    static final String DEFAULT_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    private CommandSpec spec;

    final StoreOptions options = new StoreOptions();

    String ip;

    String agent;

    String signature;
    String signatureInput;
    String signatureAgent;
    String method = "GET";
    String host;
    String url = "/";
    String at;

    /** The command, bound to this object. */
    CommandSpec spec() {
        spec = CommandSpecs.command(this, "verify", "Explains how an address (and agent) is identified and verified; with "
                + "--signature, --signature-input and --signature-agent, how that signed request is verified, step by step. "
                + "Exits 0 when verified, 3 when spoofed, 4 when unverified.");
        CommandSpecs.exitCodes(spec, "0:verified", "3:spoofed", "4:unverified or not a crawler", "2:bad usage");
        options.addTo(spec);
        spec.addPositional(CommandSpecs.positional("IP", String.class, () -> ip, value -> ip = value,
                "The client address, IPv4 or IPv6.").index("0").arity("1").required(true).build());
        spec.addPositional(CommandSpecs.positional("USER-AGENT", String.class, () -> agent, value -> agent = value,
                "The agent it sent (default: Googlebot's desktop agent).").index("1").arity("0..1").build());
        spec.addOption(CommandSpecs.option("--signature", "VALUE", String.class, () -> signature, value -> signature = value,
                "A request's Signature header, as logged: with --signature-input and --signature-agent, the request is "
                        + "verified by its Web Bot Auth signature instead of its address.").build());
        spec.addOption(CommandSpecs.option("--signature-input", "VALUE", String.class, () -> signatureInput,
                value -> signatureInput = value, "The request's Signature-Input header, as logged.").build());
        spec.addOption(CommandSpecs.option("--signature-agent", "VALUE", String.class, () -> signatureAgent,
                value -> signatureAgent = value, "The request's Signature-Agent header, as logged.").build());
        spec.addOption(CommandSpecs.option("--host", "HOST", String.class, () -> host, value -> host = value,
                "The signed request's Host (its @authority).").build());
        spec.addOption(CommandSpecs.option("--method", "METHOD", String.class, () -> method, value -> method = value,
                "The signed request's method (default: GET).").build());
        spec.addOption(CommandSpecs.option("--url", "TARGET", String.class, () -> url, value -> url = value,
                "The signed request's target, path and query (default: /).").build());
        spec.addOption(CommandSpecs.option("--at", "TIME", String.class, () -> at, value -> at = value,
                "When the signed request was made, as ISO 8601 (2026-03-01T12:00:00Z) or epoch seconds (default: now).").build());
        return spec;
    }

    /** Longer than the checks' own bounds (a list's download, two DNS queries), so a verdict is final when printed. */
    static final long WAIT_FOR_DNS_MS = 40_000;

    /** How the operator lets its crawler be verified: the lists and DNS names the catalog gives. */
    private static String proof(Crawler crawler) {
        List<String> ways = new ArrayList<>();
        if (!crawler.ipLists().isEmpty()) {
            ways.add("IP list" + (crawler.ipLists().size() == 1 ? " " : "s ") + String.join(", ", crawler.ipLists()));
        }
        if (!crawler.dnsDomains().isEmpty()) {
            ways.add("reverse DNS " + String.join(", ", crawler.dnsDomains()));
        }
        return ways.isEmpty() ? "none published" : String.join("; ", ways);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (new IPAddressString(ip).getAddress() == null) {
            throw new ParameterException(spec.commandLine(), "'" + ip + "' is not an IPv4 or IPv6 address");
        }
        if (signature != null || signatureInput != null || signatureAgent != null) {
            return signed();
        }
        CrawlerCatalog catalog = options.catalog();
        String userAgent = agent == null ? DEFAULT_AGENT : agent;
        Optional<Crawler> crawler = new CrawlerIdentifier(catalog).identify(userAgent);
        // the agent (and an address's zone) is shown as typed, with its controls escaped
        System.out.println("address:  " + ShownText.of(ip));
        System.out.println("agent:    " + ShownText.of(userAgent));
        if (crawler.isEmpty()) {
            System.out.println("crawler:  none (the agent names no crawler this tool knows)");
            return UNVERIFIED;
        }
        Crawler c = crawler.get();
        System.out.println("crawler:  " + c.name() + " (" + c.operator() + ", " + c.botType() + ")");
        System.out.println("proof:    " + proof(c));
        Verdict verdict;
        try (CrawlerVerifier verifier = options.verifier(catalog)) {
            CrawlerVerifier.Explanation why = verifier.explain(ip, c, WAIT_FOR_DNS_MS);
            Instant now = Instant.now();
            for (IpRangeList list : why.listsRead()) {
                System.out.println("list:     " + ShownText.of(list.describe(now)));
            }
            System.out.println("lists:    " + ShownText.of(why.list().evidence()));
            why.resolver().ifPresent(health -> System.out.println("resolver: " + ShownText.of(health.description())));
            why.dns().ifPresent(dns -> {
                List<String> answers = dns.answers();
                for (int i = 0; i < answers.size(); i++) {
                    System.out.println((i == 0 ? "dns:      " : "          ") + ShownText.of(answers.get(i)));
                }
            });
            verdict = why.verdict();
        }
        return verdict(verdict);
    }

    /** Prints the verdict and its evidence, and returns the exit code that says it. */
    private static int verdict(Verdict verdict) {
        System.out.println("verdict:  " + verdict.verification());
        System.out.println("evidence: " + ShownText.of(verdict.reason()));
        return switch (verdict.verification()) {
            case verified -> 0;
            case spoofed -> SPOOFED;
            case unverified -> UNVERIFIED;
        };
    }

    /** The signed request the options describe, verified by its signature, each step printed as it is taken. */
    private int signed() {
        Instant when = requestTime();
        CrawlerCatalog catalog = options.catalog();
        SignedHits signed = options.signedHits(catalog);
        System.out.println("address:  " + ShownText.of(ip));
        System.out.println("agent:    " + (agent == null ? "-" : ShownText.of(agent)));
        System.out.println("request:  " + ShownText.of(method + " " + (host == null ? url + " (no --host)" : "https://" + host + url)
                + " at " + when));
        System.out.println("keys:     from " + ShownText.of(signed.verifier().directories().source().describe()));
        SignedHits.Explanation why = signed.explain(signature, signatureInput, signatureAgent, method, host, url, when);
        SignatureOutcome outcome = why.outcome();
        List<String> steps = why.steps();
        Crawler signer = why.signer();
        System.out.println("signer:   " + ShownText.of(signer.name()) + " (" + (signer.operator() == null ? "unknown" : ShownText.of(signer.operator()))
                + ", " + signer.botType() + ")" + (outcome.signer() == null ? "" : ", " + ShownText.of(outcome.signer().toString())));
        for (String step : steps) {
            String[] lines = step.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                System.out.println((i == 0 ? "step:     " : "          ") + ShownText.of(lines[i]));
            }
        }
        return verdict(outcome.verdict());
    }

    /** {@code --at}: ISO 8601 or epoch seconds; now when not given. */
    private Instant requestTime() {
        if (at == null) {
            return Instant.now();
        }
        try {
            return at.chars().allMatch(Character::isDigit) ? Instant.ofEpochSecond(Long.parseLong(at)) : Instant.parse(at);
        } catch (RuntimeException e) {
            throw new ParameterException(spec.commandLine(), "--at: '" + ShownText.of(at) + "' is not a time; give ISO 8601 such as "
                    + "2026-03-01T12:00:00Z, or epoch seconds");
        }
    }
}
