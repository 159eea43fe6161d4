package dev.crawlerrors.ingest.format;

import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The log formats users name with {@code --format}, each mapped to the parser that reads it:
 * {@code auto} (the default: detected per source by {@link FormatDetector}), {@code combined},
 * {@code common}, {@code combined-vhost}, {@code common-vhost} (each with an optional trailing
 * request time), {@code json} (nginx {@code escape=json}, Caddy, Traefik), {@code w3c} (IIS,
 * CloudFront), and the user's own format string, {@code nginx:'$remote_addr - ...'} or
 * {@code apache:'%h %l %u %t ...'}.
 */
public enum LogFormat {

    AUTO("auto"),
    COMBINED("combined"),
    COMBINED_VHOST("combined-vhost"),
    COMMON("common"),
    COMMON_VHOST("common-vhost"),
    JSON("json"),
    W3C("w3c"),
    NGINX("nginx:"),
    APACHE("apache:");

    /** What auto-detection tries, in order: of two formats that read as many lines, the earlier (more specific) wins. */
    static final List<LogFormat> DETECTED = List.of(COMBINED_VHOST, COMBINED, COMMON_VHOST, COMMON, JSON, W3C);

    /** The accepted forms, for messages and help. */
    public static final String ACCEPTED = "auto, combined, common, combined-vhost, common-vhost, json, w3c, "
            + "nginx:'<log_format>' or apache:'<LogFormat>'";

    private final String name;

    LogFormat(String name) {
        this.name = name;
    }

    /** The name as users type it ({@code nginx:} and {@code apache:} take the format string after the colon). */
    public String label() {
        return name;
    }

    /**
     * The chooser for a {@code --format} value.
     *
     * @param notices told, once, what the user should know about the format (that common lines
     *                carry no agent; which format was detected in each source)
     * @throws IllegalArgumentException for a name that is no format, or a format string that
     *         cannot be used; the message says what is wrong and what is accepted
     */
    public static FormatChooser chooser(String value, Consumer<String> notices) {
        return chooser(value, notices, false);
    }

    /**
     * The chooser for a {@code --format} value given to a source that pushes lines (syslog, the
     * log drain): as {@link #chooser}, but {@code auto} never gives up on a batch, since a pushed
     * batch cannot be read again with the right format ({@link FormatDetector#forLiveSources}).
     * Followed logs use {@link #chooser}: a file can be looked at again as it grows.
     *
     * @throws IllegalArgumentException as {@link #chooser} does
     */
    public static FormatChooser liveChooser(String value, Consumer<String> notices) {
        return chooser(value, notices, true);
    }

    private static FormatChooser chooser(String value, Consumer<String> notices, boolean live) {
        String lower = value.strip().toLowerCase(Locale.ROOT);
        if (lower.startsWith(NGINX.name) || lower.startsWith(APACHE.name)) {
            boolean nginx = lower.startsWith(NGINX.name);
            String format = value.strip().substring((nginx ? NGINX : APACHE).name.length());
            LineParser parser = nginx ? NginxFormat.compile(format) : ApacheFormat.compile(format);
            if (parser instanceof FieldLineParser fields && !fields.hasAgent()) {
                notices.accept(noAgentNotice("this " + (nginx ? "nginx" : "Apache") + " format has no user agent ("
                        + (nginx ? "$http_user_agent" : "%{User-Agent}i") + ")"));
            }
            return FormatChooser.of(parser);
        }
        for (LogFormat format : values()) {
            if (format.name.equals(lower) && format != NGINX && format != APACHE) {
                if (format == AUTO) {
                    return live ? FormatDetector.forLiveSources(notices) : new FormatDetector(notices);
                }
                if (format == COMMON || format == COMMON_VHOST) {
                    notices.accept(noAgentNotice(format.name + " lines carry no user agent"));
                }
                return FormatChooser.of(format.parser());
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a log format; use " + ACCEPTED);
    }

    /** A fresh parser for one of the fixed formats. */
    LineParser parser() {
        return switch (this) {
            case COMBINED -> CombinedLineParser.combined();
            case COMBINED_VHOST -> CombinedLineParser.combinedVhost();
            case COMMON -> CombinedLineParser.common();
            case COMMON_VHOST -> CombinedLineParser.commonVhost();
            case JSON -> new JsonLineParser();
            case W3C -> new W3cLineParser();
            default -> throw new IllegalStateException(name + " is not a fixed format");
        };
    }

    /**
     * Whether a line in this format carries its user agent by itself: combined and JSON lines do,
     * common lines never, and a W3C line only through the {@code #Fields:} directive of its own log.
     */
    boolean carriesAgent() {
        return this == COMBINED || this == COMBINED_VHOST || this == JSON;
    }

    static String noAgentNotice(String why) {
        return "format: " + why + ", so no crawler can be identified in them: lines are read and counted, and none is stored;"
                + " log the user agent (combined format) to get a report";
    }
}
