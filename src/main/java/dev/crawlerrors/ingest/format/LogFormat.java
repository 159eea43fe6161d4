package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The log formats users name with {@code --format}, one row each: the name users type, the parser
 * that reads it, and how its lines record the user agent (which crawlers are told apart by).
 * Everything else is derived from the rows: the accepted names ({@link #ACCEPTED}), the formats
 * auto-detection tries ({@link #DETECTED}), the notice for a format without an agent, and the
 * check that a log is in the format detected for the one before it ({@link #isDetectedIn}).
 *
 * <p>A row may extend another: a {@code combined-vhost} line is a {@code combined} line after a
 * virtual host, and where both read a log's lines alike (a virtual host that is an address),
 * detection chooses the extension. A new format is a parser class and a row here.
 */
public enum LogFormat {

    /** Detected from each log's first lines, among {@link #DETECTED}. */
    AUTO("auto"),
    /** nginx's and Apache's {@code combined}, with an optional trailing request time. */
    COMBINED("combined", CombinedLineParser::combined, Agent.ALWAYS, null),
    /** {@code combined} without the referer and the agent. */
    COMMON("common", CombinedLineParser::common, Agent.NEVER, null),
    /** Apache's {@code vhost_combined}: {@code %v:%p} or {@code $host}, then a combined line. */
    COMBINED_VHOST("combined-vhost", CombinedLineParser::combinedVhost, Agent.ALWAYS, COMBINED),
    COMMON_VHOST("common-vhost", CombinedLineParser::commonVhost, Agent.NEVER, COMMON),
    /** nginx {@code escape=json}, Caddy, Traefik. */
    JSON("json", JsonLineParser::new, Agent.ALWAYS, null),
    /** IIS and CloudFront: the fields are named by the log's own {@code #Fields:} directive. */
    W3C("w3c", W3cLineParser::new, Agent.IF_LOGGED, null),
    /** The user's nginx {@code log_format}, after the colon. */
    NGINX("nginx:", "<log_format>", NginxFormat::compile),
    /** The user's Apache {@code LogFormat}, after the colon. */
    APACHE("apache:", "<LogFormat>", ApacheFormat::compile);

    /** How a format's lines record the user agent. */
    enum Agent {
        /** Every line has the field (it may be {@code -}). */
        ALWAYS,
        /** No line can have it: no crawler can be identified. */
        NEVER,
        /** Where the log's fields or the user's format string name it. */
        IF_LOGGED
    }

    /**
     * The fixed formats auto-detection tries, in the order it prefers them where two read as many
     * lines: the rows' order, each row that extends another just before it.
     */
    static final List<LogFormat> DETECTED = detected();

    /** The formats detection tries, for messages. */
    static final String TRIED = DETECTED.stream().map(LogFormat::label).collect(Collectors.joining(", "));

    /** The accepted forms, for messages and help. */
    public static final String ACCEPTED = accepted();

    private final String label;
    private final Supplier<LineParser> parser;
    private final Agent agent;
    /** What follows the label of a format-string row, for help ({@code <log_format>}); null for other rows. */
    private final String argument;
    private final Function<String, LineParser> compiler;
    /** The row whose lines this row's lines extend (with a prefix), which detection prefers this one to; null for none. */
    private final LogFormat extending;

    LogFormat(String label) {
        this(label, null, Agent.IF_LOGGED, null, null, null);
    }

    LogFormat(String label, Supplier<LineParser> parser, Agent agent, LogFormat extending) {
        this(label, parser, agent, extending, null, null);
    }

    LogFormat(String label, String argument, Function<String, LineParser> compiler) {
        this(label, null, Agent.IF_LOGGED, null, argument, compiler);
    }

    LogFormat(String label, Supplier<LineParser> parser, Agent agent, LogFormat extending, String argument,
            Function<String, LineParser> compiler) {
        this.label = label;
        this.parser = parser;
        this.agent = agent;
        this.extending = extending;
        this.argument = argument;
        this.compiler = compiler;
    }

    /** The name as users type it ({@code nginx:} and {@code apache:} take the format string after the colon). */
    public String label() {
        return label;
    }

    /** How help writes this row: its label, and for a format-string row what follows it ({@code nginx:'<log_format>'}). */
    public String usage() {
        return argument == null ? label : label + "'" + argument + "'";
    }

    /** The row a {@code --format} value names, in any case; a format-string row when the value starts with its label. */
    static Optional<LogFormat> named(String value) {
        String lower = value.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(f -> f.compiler != null ? lower.startsWith(f.label) : lower.equals(f.label))
                .findFirst();
    }

    /** Whether this row reads a format string the user gives after its label. */
    boolean takesFormatString() {
        return compiler != null;
    }

    /** Whether this row is a fixed format, with a parser of its own. */
    boolean fixed() {
        return parser != null;
    }

    /** A fresh parser for one of the fixed formats. */
    LineParser parser() {
        if (parser == null) {
            throw new IllegalStateException(label + " is not a fixed format");
        }
        return parser.get();
    }

    /**
     * The parser for the format string in {@code value} (this row's label, then the string).
     *
     * @throws IllegalArgumentException when the format string cannot be used; the message says why
     */
    LineParser compile(String value) {
        return compiler.apply(value.strip().substring(label.length()));
    }

    /**
     * Whether every line of this format carries the user agent by itself: combined and JSON lines
     * do, common lines never, and a W3C line only through the {@code #Fields:} directive of its own log.
     */
    boolean carriesAgent() {
        return agent == Agent.ALWAYS;
    }

    /**
     * What the user should be told once about reading logs with {@code parser} of this row, when its
     * lines cannot say which crawler made them: a common format, or a format string without the agent.
     */
    Optional<String> noAgentNotice(LineParser parser) {
        if (agent == Agent.NEVER) {
            return Optional.of(noAgentNotice(label + " lines carry no user agent"));
        }
        if (compiler != null && parser instanceof FieldLineParser fields && !fields.hasAgent()) {
            boolean nginx = this == NGINX;
            return Optional.of(noAgentNotice("this " + (nginx ? "nginx" : "Apache") + " format has no user agent ("
                    + (nginx ? "$http_user_agent" : "%{User-Agent}i") + ")"));
        }
        return Optional.empty();
    }

    static String noAgentNotice(String why) {
        return "format: " + why + ", so no crawler can be identified in them: lines are read and counted, and none is stored;"
                + " log the user agent (combined format) to get a report";
    }

    /**
     * Whether detection would choose this format for a log whose first lines are {@code lines} (start
     * and end offsets into {@code b}): this format reads every one of them, a request among them,
     * and no format detection prefers to it reads them all. A log whose first lines this check passes is
     * read in this format without being detected afresh; any other log is detected afresh, so a
     * {@code vhost_combined} log after a {@code combined} one is read as what it is.
     */
    boolean isDetectedIn(byte[] b, int[] lines) {
        if (!fixed() || !readsAll(parser(), b, lines, true)) {
            return false;
        }
        for (LogFormat earlier : DETECTED) {
            if (earlier == this) {
                return true;
            }
            if (readsAll(earlier.parser(), b, lines, false)) {
                return false;
            }
        }
        return false;
    }

    /** Whether {@code parser} reads every line, and (when {@code aRequest}) a request among them rather than directives alone. */
    private static boolean readsAll(LineParser parser, byte[] b, int[] lines, boolean aRequest) {
        boolean request = !aRequest;
        for (int i = 0; i < lines.length; i += 2) {
            try {
                // every line kept, as detection keeps them: some fields (the client's address) are checked only in a kept line
                Hit hit = parser.parse(b, lines[i], lines[i + 1], AgentFilter.ALL);
                request |= hit != null || b[lines[i]] != '#';
            } catch (BadLineException | RuntimeException e) {
                return false;
            }
        }
        return request && lines.length > 0;
    }

    private static List<LogFormat> detected() {
        List<LogFormat> order = new ArrayList<>();
        for (LogFormat format : values()) {
            if (format.fixed() && format.extending == null) {
                Arrays.stream(values()).filter(f -> f.extending == format).forEach(order::add);
                order.add(format);
            }
        }
        return List.copyOf(order);
    }

    private static String accepted() {
        List<String> forms = Arrays.stream(values()).map(LogFormat::usage).toList();
        return String.join(", ", forms.subList(0, forms.size() - 1)) + " or " + forms.get(forms.size() - 1);
    }
}
