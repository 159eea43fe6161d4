package dev.crawlerrors.alert;

import dev.crawlerrors.crawler.Verification;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One rule of the built-in alerts: what it watches ({@link #kind()}), under which name its alerts
 * go ({@code alertname}), and which alerts hold now, read from the kept counts alone.
 */
sealed interface AlertRule permits NewPatternRule, ErrorRateRule, ServerErrorBurstRule, RobotsTxtRule {

    /** The kind, as the alerts file writes it ({@code new-pattern}). */
    String kind();

    /** The alerts' {@code alertname}. */
    String name();

    /** The family it is limited to, or null for every family. */
    String family();

    /** {@code warning} or {@code critical}. */
    String severity();

    /** The longest past its condition looks at in the recent counts; zero when it looks at none. */
    Duration window();

    /** The alerts whose condition holds at {@code now}. */
    List<Firing> firing(CrawlCounts counts, long now, ZoneId zone);

    /** Whether the rule looks at {@code family}. */
    default boolean covers(String candidate) {
        return family() == null || family().equals(candidate);
    }

    /** The labels every alert of the rule carries, and {@code more}. */
    default Map<String, String> labels(String... more) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("alertname", name());
        labels.put("kind", kind());
        labels.put("severity", severity());
        for (int i = 0; i + 1 < more.length; i += 2) {
            if (more[i + 1] != null) {
                labels.put(more[i], more[i + 1]);
            }
        }
        return labels;
    }

    /** An alert's key: the rule's kind and name, and what the alert is about. */
    default String key(String... about) {
        return kind() + "|" + name() + "|" + String.join("|", about);
    }

    /** The verdicts counted, as a summary says them: {@code verified}, {@code verified or unverified}. */
    static String counted(Set<Verification> verifications) {
        return verifications.stream().sorted().map(Enum::name).collect(Collectors.joining(" or "));
    }

    /** {@code window} as people say it: {@code 5 minutes}, {@code 30 seconds}, {@code 2 hours}. */
    static String spoken(Duration window) {
        long seconds = window.toSeconds();
        if (seconds % 86_400 == 0) {
            return plural(seconds / 86_400, "day");
        }
        if (seconds % 3_600 == 0) {
            return plural(seconds / 3_600, "hour");
        }
        if (seconds % 60 == 0) {
            return plural(seconds / 60, "minute");
        }
        return plural(seconds, "second");
    }

    static String plural(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s%s", n, noun, n == 1 ? "" : "s");
    }

    /** A share as a percentage with one decimal: {@code 12.5%}. */
    static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }
}
