package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verdict;
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

/** {@code crawl-errors verify IP [USER-AGENT]}: explains how one address and agent are identified and verified. */
final class VerifyCommand implements Callable<Integer> {

    static final int SPOOFED = 3;
    static final int UNVERIFIED = 4;
    static final String DEFAULT_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    private CommandSpec spec;

    final StoreOptions options = new StoreOptions();

    String ip;

    String agent;

    /** The command, bound to this object. */
    CommandSpec spec() {
        spec = CommandSpecs.command(this, "verify", "Explains how an address (and agent) is identified and verified. "
                + "Exits 0 when verified, 3 when spoofed, 4 when unverified.");
        CommandSpecs.exitCodes(spec, "0:verified", "3:spoofed", "4:unverified or not a crawler", "2:bad usage");
        options.addTo(spec);
        spec.addPositional(CommandSpecs.positional("IP", String.class, () -> ip, value -> ip = value,
                "The client address, IPv4 or IPv6.").index("0").arity("1").required(true).build());
        spec.addPositional(CommandSpecs.positional("USER-AGENT", String.class, () -> agent, value -> agent = value,
                "The agent it sent (default: Googlebot's desktop agent).").index("1").arity("0..1").build());
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
        System.out.println("verdict:  " + verdict.verification());
        System.out.println("evidence: " + ShownText.of(verdict.reason()));
        return switch (verdict.verification()) {
            case verified -> 0;
            case spoofed -> SPOOFED;
            case unverified -> UNVERIFIED;
        };
    }
}
