package dev.crawlerrors.alert;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The built-in alerts' rules and the webhooks the file names: {@link #DEFAULT} with no file, and
 * what {@link AlertsFile} reads from one.
 */
public record AlertRules(List<AlertRule> rules, List<Receiver> webhooks) {

    /** The rules with no file: one of each kind, with thresholds that fire on a real change and not on a quiet site's noise. */
    public static final AlertRules DEFAULT = new AlertRules(List.of(
            new NewPatternRule("CrawlErrorNewPattern", "warning", 5, Duration.ofMinutes(10), Duration.ofDays(1)),
            new ErrorRateRule("CrawlErrorRateJump", null, "warning", Duration.ofMinutes(30), 3, 0.05, 50, 200),
            new ServerErrorBurstRule("CrawlerServerErrors", null, "critical", 10, Duration.ofMinutes(5)),
            new RobotsTxtRule("RobotsTxtNotOk", null, "critical", RobotsTxtRule.DEFAULT_OK)), List.of());

    public AlertRules {
        rules = List.copyOf(rules);
        webhooks = List.copyOf(webhooks);
    }

    /** The longest window a rule looks at: what the recent counts must cover. */
    public Duration longestWindow() {
        Duration longest = Duration.ofMinutes(1);
        for (AlertRule rule : rules) {
            if (rule.window().compareTo(longest) > 0) {
                longest = rule.window();
            }
        }
        return longest;
    }

    /** The kinds a file may name, in the order the documentation lists them. */
    static final List<String> KINDS = List.of(NewPatternRule.KIND, ErrorRateRule.KIND, ServerErrorBurstRule.KIND, RobotsTxtRule.KIND);

    /** The severities a rule may have. */
    static final Set<String> SEVERITIES = Set.of("warning", "critical", "info");
}
