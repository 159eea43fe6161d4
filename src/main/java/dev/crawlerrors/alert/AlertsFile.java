package dev.crawlerrors.alert;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads an alerts file ({@code --alerts FILE}): one rule a line, its kind and then
 * {@code key=value} pairs (a value with spaces in double quotes), {@code #} to the end of a line a
 * comment, and {@code webhook URL [format=slack]} lines beside {@code --alert-webhook}:
 * <pre>
 * new-pattern        min-hits=5 window=10m new-for=1d
 * error-rate-jump    window=30m factor=3 min-rate=5% min-hits=50 min-baseline-hits=200
 * server-error-burst min-hits=10 window=5m family=Google severity=critical
 * robots-txt         ok=200,304
 * webhook https://hooks.example.com/T000/B000/XXXX format=slack
 * </pre>
 * A file without rule lines keeps the default rules. Anything it cannot take is refused with one
 * sentence naming the line, before {@code serve} starts.
 */
public final class AlertsFile {

    private static final long MAX_WINDOW_HOURS = 24;

    /** The file could not be taken; the message names the line and what is wrong. */
    public static final class BadAlertsFileException extends Exception {
        BadAlertsFileException(String message) {
            super(message, null, false, false);
        }
    }

    private AlertsFile() {
    }

    /**
     * The rules and webhooks of the file at {@code path}.
     *
     * @param families the crawler families a rule may name ({@code family=})
     */
    public static AlertRules read(Path path, Set<String> families, AlertFormat format) throws BadAlertsFileException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadAlertsFileException("cannot be read (" + e.getMessage() + ")");
        }
        return parse(text, families, format);
    }

    /** The rules and webhooks of {@code text}, read as a file. */
    static AlertRules parse(String text, Set<String> families, AlertFormat format) throws BadAlertsFileException {
        List<AlertRule> rules = new ArrayList<>();
        List<Receiver> webhooks = new ArrayList<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int number = i + 1;
            try {
                List<String> tokens = tokens(lines[i]);
                if (tokens.isEmpty()) {
                    continue;
                }
                String kind = tokens.get(0);
                if (kind.equals("webhook")) {
                    webhooks.add(webhook(tokens, format));
                    continue;
                }
                AlertRule rule = rule(kind, pairs(tokens.subList(1, tokens.size())), families);
                String identity = rule.kind() + " " + rule.name() + " " + rule.family();
                Integer before = seen.putIfAbsent(identity, number);
                if (before != null) {
                    throw new IllegalArgumentException("it is the same rule as line " + before + " (" + rule.kind() + ", named "
                            + rule.name() + "); give one another name=");
                }
                rules.add(rule);
            } catch (IllegalArgumentException e) {
                throw new BadAlertsFileException("line " + number + ": " + e.getMessage());
            }
        }
        return new AlertRules(rules.isEmpty() ? AlertRules.DEFAULT.rules() : rules, webhooks);
    }

    private static Receiver webhook(List<String> tokens, AlertFormat format) {
        if (tokens.size() < 2) {
            throw new IllegalArgumentException("webhook needs a URL: webhook https://host/path [format=slack]");
        }
        Params params = pairs(tokens.subList(2, tokens.size()));
        AlertFormat chosen = format;
        String written = params.take("format");
        if (written != null) {
            try {
                chosen = AlertFormat.valueOf(written);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("format must be alertmanager or slack; got '" + written + "'");
            }
        }
        params.done("webhook", "format");
        return Receiver.of(tokens.get(1), chosen);
    }

    private static AlertRule rule(String kind, Params p, Set<String> families) {
        String name = p.take("name");
        String family = p.take("family");
        String severity = p.take("severity");
        if (family != null && !families.contains(family)) {
            throw new IllegalArgumentException("family '" + family + "' is no crawler family; the families are "
                    + String.join(", ", new TreeSet<>(families)));
        }
        if (severity != null && !AlertRules.SEVERITIES.contains(severity)) {
            throw new IllegalArgumentException("severity must be warning, critical or info; got '" + severity + "'");
        }
        AlertRule made = switch (kind) {
            case NewPatternRule.KIND -> {
                NewPatternRule d = (NewPatternRule) defaultOf(kind);
                if (family != null) {
                    throw new IllegalArgumentException("new-pattern watches URL shapes whatever the crawler, and takes no family");
                }
                yield new NewPatternRule(or(name, d.name()), or(severity, d.severity()), p.count("min-hits", d.minHits()),
                        p.window("window", d.window()), p.duration("new-for", d.newFor(), 30 * 24));
            }
            case ErrorRateRule.KIND -> {
                ErrorRateRule d = (ErrorRateRule) defaultOf(kind);
                yield new ErrorRateRule(or(name, d.name()), family, or(severity, d.severity()), p.window("window", d.window()),
                        p.factor("factor", d.factor()), p.rate("min-rate", d.minRate()), p.count("min-hits", d.minHits()),
                        p.count("min-baseline-hits", d.minBaselineHits()));
            }
            case ServerErrorBurstRule.KIND -> {
                ServerErrorBurstRule d = (ServerErrorBurstRule) defaultOf(kind);
                yield new ServerErrorBurstRule(or(name, d.name()), family, or(severity, d.severity()), p.count("min-hits", d.minHits()),
                        p.window("window", d.window()));
            }
            case RobotsTxtRule.KIND -> {
                RobotsTxtRule d = (RobotsTxtRule) defaultOf(kind);
                yield new RobotsTxtRule(or(name, d.name()), family, or(severity, d.severity()), p.statuses("ok", d.ok()));
            }
            default -> throw new IllegalArgumentException("'" + kind + "' is no kind of alert; the kinds are "
                    + String.join(", ", AlertRules.KINDS) + ", and webhook URL lines");
        };
        p.done(kind, keys(kind));
        if (!isName(made.name())) {
            throw new IllegalArgumentException("name must be letters, digits and _ (an Alertmanager alertname); got '" + made.name() + "'");
        }
        return made;
    }

    private static String[] keys(String kind) {
        return switch (kind) {
            case NewPatternRule.KIND -> new String[] {"name", "severity", "min-hits", "window", "new-for"};
            case ErrorRateRule.KIND -> new String[] {"name", "family", "severity", "window", "factor", "min-rate", "min-hits",
                    "min-baseline-hits"};
            case ServerErrorBurstRule.KIND -> new String[] {"name", "family", "severity", "min-hits", "window"};
            default -> new String[] {"name", "family", "severity", "ok"};
        };
    }

    private static AlertRule defaultOf(String kind) {
        return AlertRules.DEFAULT.rules().stream().filter(r -> r.kind().equals(kind)).findFirst().orElseThrow();
    }

    private static String or(String value, String otherwise) {
        return value != null ? value : otherwise;
    }

    private static boolean isName(String name) {
        if (name.isEmpty() || name.length() > 100) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '_'))) {
                return false;
            }
        }
        return true;
    }

    /** A line's words: split at blanks, a double-quoted part kept whole (without its quotes), {@code #} ending the line. */
    static List<String> tokens(String line) {
        List<String> tokens = new ArrayList<>();
        StringBuilder token = null;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    quoted = false;
                } else {
                    token.append(c);
                }
            } else if (c == '#') {
                break;
            } else if (Character.isWhitespace(c)) {
                if (token != null) {
                    tokens.add(token.toString());
                    token = null;
                }
            } else {
                if (token == null) {
                    token = new StringBuilder();
                }
                if (c == '"') {
                    quoted = true;
                } else {
                    token.append(c);
                }
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("a double quote is not closed");
        }
        if (token != null) {
            tokens.add(token.toString());
        }
        return tokens;
    }

    private static Params pairs(List<String> tokens) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String token : tokens) {
            int eq = token.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + token + "' is not key=value");
            }
            String key = token.substring(0, eq);
            if (values.put(key, token.substring(eq + 1)) != null) {
                throw new IllegalArgumentException(key + " is given twice");
            }
        }
        return new Params(values);
    }

    /** A line's key=value pairs, taken one by one; what is left at the end is an unknown key. */
    private record Params(Map<String, String> values) {

        String take(String key) {
            return values.remove(key);
        }

        void done(String kind, String... known) {
            if (!values.isEmpty()) {
                String key = values.keySet().iterator().next();
                throw new IllegalArgumentException("unknown key '" + key + "' for " + kind + "; it takes " + String.join(", ", known));
            }
        }

        long count(String key, long otherwise) {
            String value = take(key);
            if (value == null) {
                return otherwise;
            }
            try {
                long n = Long.parseLong(value);
                if (n >= 1 && n <= 1_000_000_000L) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException(key + " must be a whole number of 1 or more; got '" + value + "'");
        }

        Duration window(String key, Duration otherwise) {
            return duration(key, otherwise, MAX_WINDOW_HOURS);
        }

        Duration duration(String key, Duration otherwise, long maxHours) {
            String value = take(key);
            if (value == null) {
                return otherwise;
            }
            Duration d;
            try {
                d = AlertDurations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + " must be a duration " + AlertDurations.EXAMPLES + "; got '" + value + "'");
            }
            if (d.toHours() > maxHours || d.toSeconds() < 10) {
                throw new IllegalArgumentException(key + " must be from 10s to " + AlertDurations.written(Duration.ofHours(maxHours))
                        + "; got '" + value + "'");
            }
            return d;
        }

        double factor(String key, double otherwise) {
            String value = take(key);
            if (value == null) {
                return otherwise;
            }
            try {
                double f = Double.parseDouble(value);
                if (f > 1 && f <= 1000 && value.chars().allMatch(c -> Character.isDigit(c) || c == '.')) {
                    return f;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException(key + " must be a number above 1, such as 3 or 2.5; got '" + value + "'");
        }

        double rate(String key, double otherwise) {
            String value = take(key);
            if (value == null) {
                return otherwise;
            }
            boolean percent = value.endsWith("%");
            String number = percent ? value.substring(0, value.length() - 1) : value;
            try {
                double r = Double.parseDouble(number) / (percent ? 100 : 1);
                if (r >= 0 && r <= 1 && number.chars().allMatch(c -> Character.isDigit(c) || c == '.')) {
                    return r;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException(key + " must be a share such as 5% or 0.05; got '" + value + "'");
        }

        Set<Integer> statuses(String key, Set<Integer> otherwise) {
            String value = take(key);
            if (value == null) {
                return otherwise;
            }
            Set<Integer> statuses = new HashSet<>();
            for (String part : value.split(",", -1)) {
                try {
                    int status = Integer.parseInt(part.trim());
                    if (status >= 100 && status <= 599) {
                        statuses.add(status);
                        continue;
                    }
                } catch (NumberFormatException e) {
                    // said below
                }
                throw new IllegalArgumentException(key + " must be HTTP statuses separated by commas, such as 200,304; got '" + value + "'");
            }
            return statuses;
        }
    }
}
