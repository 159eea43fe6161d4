package dev.crawlerrors.cli;

import dev.crawlerrors.alert.AlertDurations;
import dev.crawlerrors.alert.AlertFormat;
import dev.crawlerrors.alert.AlertRules;
import dev.crawlerrors.alert.AlertSettings;
import dev.crawlerrors.alert.AlertsFile;
import dev.crawlerrors.alert.Receiver;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code serve}'s built-in alerts: where they go ({@code --alert-webhook}, and the webhook lines of
 * {@code --alerts FILE}), in which format, how often a firing one is sent again, and whose hits count.
 * Checked before anything starts: a bad value is a usage error naming the option (or the file's line).
 */
final class AlertOptions {

    private CommandSpec spec;

    List<String> webhooks = new ArrayList<>();

    Path file;

    String format = AlertFormat.alertmanager.name();

    String repeat = AlertDurations.written(AlertSettings.DEFAULT_REPEAT);

    String verification = Verification.verified.name();

    String reportUrl;

    /** Adds the alert options to {@code command}. */
    AlertOptions addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.listOption("--alert-webhook", "URL", String.class, () -> webhooks, value -> webhooks = value,
                "Send alerts on new crawl errors of verified crawlers to this webhook, in Alertmanager's webhook format (an "
                        + "Alertmanager's own /api/v2/alerts takes them as Prometheus's alerts). Repeatable. Rules: --alerts, "
                        + "or defaults that work without one (docs/alerts.md).").build());
        command.addOption(CommandSpecs.option("--alerts", "FILE", Path.class, () -> file, value -> file = value,
                "The alert rules, one a line (new-pattern, error-rate-jump, server-error-burst, robots-txt, and webhook URL "
                        + "lines); docs/alerts.md describes the format.").build());
        command.addOption(CommandSpecs.option("--alert-format", "alertmanager|slack", String.class, () -> format,
                value -> format = value,
                "What a webhook is sent (default: alertmanager): slack sends the plain-text summary a Slack-compatible incoming "
                        + "webhook shows as it is.").build());
        command.addOption(CommandSpecs.option("--alert-repeat", "DURATION", String.class, () -> repeat, value -> repeat = value,
                "How often a receiver is told again of an alert that still fires (default: " + repeat + ").").build());
        command.addOption(CommandSpecs.option("--alert-verification", "LIST", String.class, () -> verification,
                value -> verification = value,
                "Whose hits the alerts count, as the report's verification (default: verified; verified,unverified to widen).")
                .build());
        command.addOption(CommandSpecs.option("--alert-report-url", "URL", String.class, () -> reportUrl, value -> reportUrl = value,
                "The report's address as the alerts' readers open it, for their links (default: where this serve listens, "
                        + "e.g. http://127.0.0.1:8080).").build());
        return this;
    }

    private AlertFormat parseFormat(String value) {
        try {
            return AlertFormat.valueOf(value.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--alert-format must be alertmanager or slack; got '" + value + "'");
        }
    }

    /** Whether alerts are asked for: a webhook on the command line or in the file. */
    boolean any() {
        return !webhooks.isEmpty() || file != null;
    }

    /**
     * The settings, checked: a bad option or file line is a usage error (exit 2) before anything starts.
     *
     * @param defaultReportUrl the report's address when {@code --alert-report-url} gives none, once it listens
     */
    AlertSettings check(CrawlerCatalog catalog, ZoneId zone, Supplier<String> defaultReportUrl) {
        AlertFormat format = parseFormat(this.format);
        List<Receiver> receivers = new ArrayList<>();
        for (String webhook : webhooks) {
            try {
                receivers.add(Receiver.of(webhook, format));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--alert-webhook: " + e.getMessage());
            }
        }
        AlertRules rules = AlertRules.DEFAULT;
        if (file != null) {
            Set<String> families = catalog.crawlers().stream().map(Crawler::family).collect(Collectors.toCollection(TreeSet::new));
            try {
                rules = AlertsFile.read(file, families, format);
            } catch (AlertsFile.BadAlertsFileException e) {
                throw new ParameterException(spec.commandLine(), "--alerts " + file + ": " + e.getMessage());
            }
            receivers.addAll(rules.webhooks());
        }
        if (file != null && receivers.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--alerts " + file + " names no webhook: add --alert-webhook URL, or a line "
                    + "webhook URL to the file");
        }
        Duration every;
        try {
            every = AlertDurations.parse(repeat);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--alert-repeat must be a duration " + AlertDurations.EXAMPLES + "; got '"
                    + repeat + "'");
        }
        if (every.toMinutes() < 1) {
            throw new ParameterException(spec.commandLine(), "--alert-repeat must be 1m or more; got '" + repeat + "'");
        }
        Set<Verification> verifications = EnumSet.noneOf(Verification.class);
        for (String part : verification.split(",", -1)) {
            try {
                verifications.add(Verification.valueOf(part.strip().toLowerCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--alert-verification takes verified, unverified and spoofed, "
                        + "separated by commas; got '" + verification + "'");
            }
        }
        Supplier<String> url = defaultReportUrl;
        if (reportUrl != null) {
            try {
                Receiver.of(reportUrl, format);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--alert-report-url: " + e.getMessage());
            }
            String given = reportUrl;
            url = () -> given;
        }
        return new AlertSettings(rules, receivers, every, verifications, zone, url);
    }
}
