package dev.crawlerrors.cli;

import dev.crawlerrors.pipeline.SitemapReads;
import dev.crawlerrors.sitemap.SitemapLimits;
import dev.crawlerrors.sitemap.SitemapReader;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.ShownText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code --sitemap FILE|URL} (import, serve) and {@code --sitemap-refresh} (serve): the site's
 * sitemaps, to compare with the logs; and {@code --host HOST}, the site's host for logs that record
 * none, so their hits match a sitemap's URLs (which always name a host) by host as well as target.
 */
final class SitemapOptions {

    private CommandSpec spec;

    List<String> sitemaps = new ArrayList<>();

    String refresh = "1h";

    String host;

    /** A host name or address with an optional port: what a sitemap's URL names before its path. */
    private static final Pattern HOST = Pattern.compile(
            "([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*|\\[[0-9a-f:.]+])(:[0-9]{1,5})?");

    /** Adds {@code --sitemap} to {@code command}, and {@code --sitemap-refresh} when it serves. */
    SitemapOptions addTo(CommandSpec command, boolean serves) {
        spec = command;
        command.addOption(CommandSpecs.listOption("--sitemap", "FILE|URL", String.class, () -> sitemaps, value -> sitemaps = value,
                "A sitemap of the site, to compare with the logs: XML (sitemaps.org), a sitemap index, gzipped or not, a "
                        + "plain-text sitemap (one URL a line), or a robots.txt URL (its Sitemap: lines). A local file or an "
                        + "HTTP(S) URL; read within bounds (no DTDs, " + "64 MiB a file, 2 minutes a sitemap), and kept in the store: "
                        + "a read that fails keeps the last good copy. Repeatable.").build());
        command.addOption(CommandSpecs.option("--host", "HOST", String.class, () -> host, value -> host = value,
                "The site's host, such as www.example.be, for logs that record none (the combined format): their hits are "
                        + "stored on it, so they match the sitemaps' URLs by host and target, and the host filter finds them. "
                        + "Hits of logs that record a host keep their own." + (serves ? " For --follow, --syslog and the log drain alike." : ""))
                .build());
        if (serves) {
            command.addOption(CommandSpecs.option("--sitemap-refresh", "DURATION", String.class, () -> refresh, value -> refresh = value,
                    "How often each --sitemap is read again while serving, such as 30m, 1h or 1d. Default: 1h.").build());
        }
        return this;
    }

    /** The refresh period. @throws ParameterException (exit 2) naming {@code --sitemap-refresh} for a value that is none */
    Duration refresh() {
        String value = refresh.trim().toLowerCase(Locale.ROOT);
        boolean shaped = value.length() >= 2 && value.length() <= 7 && value.chars().limit(value.length() - 1L).allMatch(Character::isDigit)
                && "smhd".indexOf(value.charAt(value.length() - 1)) >= 0;
        if (!shaped) {
            throw new ParameterException(spec.commandLine(), "--sitemap-refresh must be a duration such as 30m, 1h or 1d; got '"
                    + refresh + "'");
        }
        long n = Long.parseLong(value.substring(0, value.length() - 1));
        Duration period = switch (value.charAt(value.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        if (period.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new ParameterException(spec.commandLine(), "--sitemap-refresh must be a minute or more; got '" + refresh + "'");
        }
        return period;
    }

    /**
     * The {@code --host} given, in lower case, the scheme's default port dropped; null when none is.
     *
     * @throws ParameterException (exit 2) naming {@code --host} for a value that is no host name
     */
    String host() {
        if (host == null) {
            return null;
        }
        String value = host.trim().toLowerCase(Locale.ROOT);
        if (!HOST.matcher(value).matches() || value.length() > 261) {
            throw new ParameterException(spec.commandLine(), "--host must be a host name such as www.example.be, with a port if "
                    + "the site has one (no scheme, no path); got '" + ShownText.of(host) + "'");
        }
        return value.endsWith(":80") || value.endsWith(":443") ? value.substring(0, value.lastIndexOf(':')) : value;
    }

    /** The reads of these sitemaps into {@code store}'s sitemaps, saying what each came to to {@code notices}. */
    SitemapReads reads(WritableStore store, Consumer<String> notices) {
        return new SitemapReads(sitemaps, new SitemapReader(SitemapLimits.DEFAULT), store.sitemaps(), notices);
    }
}
