package dev.crawlerrors.crawler.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One entry of an open bot catalog: a regular expression over the user agent, matched as
 * device-detector matches it (ASCII case-insensitively, where the agent begins or after a
 * character that is not a letter, digit, {@code -} or {@code _}), and the bot it names. A name
 * may hold {@code $1} (up to {@code $9}), which the text of that group of the match replaces.
 *
 * @param regex    the expression, as the catalog spells it
 * @param name     the bot's name, or a template with {@code $1}
 * @param category the catalog's category for it (device-detector's: "Search bot", "Site Monitor", ...); empty if none
 * @param producer who runs it; empty if the catalog does not say
 * @param url      where it is described; empty if the catalog does not say
 */
public record BotPattern(String regex, String name, String category, String producer, String url) {

    /**
     * device-detector's rule for where a match may start: at the start of the agent or after a
     * character that cannot be part of a product token (Parser/AbstractParser::matchUserAgent).
     */
    private static final String START = "(?:^|[^A-Z0-9_-]|[^A-Z0-9-]_|sprd-|MZ-)";

    /**
     * Characters of an agent a pattern reads: a crawler's agent is far shorter, and a pattern such
     * as device-detector's generic one backtracks over a long run of letters at each position.
     */
    public static final int MAX_AGENT = 1024;

    public BotPattern {
        name = name == null ? "" : name;
        category = category == null ? "" : category;
        producer = producer == null ? "" : producer;
        url = url == null ? "" : url;
    }

    /**
     * The expression as it runs: the catalog's, its first group moved to second place by the group
     * around it that marks where the product token starts.
     *
     * @throws PatternSyntaxException when the catalog's expression is not a Java regular expression
     */
    Pattern compile() {
        return compile(regex);
    }

    /** {@code expression} (this entry's, or one of its {@link #alternatives}) as it runs. */
    static Pattern compile(String expression) {
        return Pattern.compile(START + "(" + expression + ")", Pattern.CASE_INSENSITIVE);
    }

    /**
     * The expression's top-level alternatives ({@code a|b(c|d)|e} is a, b(c|d) and e), each of
     * which can be prefiltered and run alone: the entry matches where one of them does. An entry
     * whose name takes a group ({@code $1}) is one piece, its groups numbered as written.
     */
    List<String> alternatives() {
        if (name.indexOf('$') >= 0) {
            return List.of(regex);
        }
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean inClass = false;
        int start = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                i++;
            } else if (inClass) {
                inClass = c != ']' || regex.charAt(i - 1) == '[' || (regex.charAt(i - 1) == '^' && regex.charAt(i - 2) == '[');
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                parts.add(regex.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(regex.substring(start));
        return depth == 0 && !inClass ? parts : List.of(regex);
    }

    /**
     * The name this entry gives {@code agent}, or null when it does not match it. A match at a name
     * the agent only compares itself with ({@link AgentText#isComparison}) does not count; a later
     * one may. With {@code leading}, only a match where the agent begins counts.
     */
    String nameIn(Pattern compiled, String agent, boolean leading) {
        String text = agent.length() > MAX_AGENT ? agent.substring(0, MAX_AGENT) : agent;
        Matcher m = compiled.matcher(text);
        if (leading) {
            return m.find(0) && m.start(1) == 0 ? resolvedName(m) : null;
        }
        if (anchoredAtStart(compiled)) {
            // (?:^|...)(^...) can only match where the agent begins: no need to try every position
            return m.lookingAt() ? resolvedName(m) : null;
        }
        int from = 0;
        while (from <= text.length() && m.find(from)) {
            if (!AgentText.isComparison(text, m.start(1))) {
                return resolvedName(m);
            }
            from = m.start(1) + 1;
        }
        return null;
    }

    /**
     * The agent's own name for what this entry matched in it, for an entry whose name says too
     * much (device-detector's "Googlebot" entry also matches Google Web Preview, Google-Lens and a
     * dozen other Google fetchers): the words its first matching alternative matched, as the
     * catalog spells them where it lists them ({@code Google Web Preview}), to the end of the
     * product token they end in and before a {@code /}, {@code ;} or parenthesis
     * ({@code Google-AdWords-Express}); for an alternative that begins with a wildcard ({@code .+diffbot}),
     * the agent's product token that the match ends in ({@code Doximity-Diffbot}); for one with a
     * wildcard further on, the literal words before it. Empty when the entry does not match.
     */
    public Optional<String> matchedName(String agent) {
        String text = agent.length() > MAX_AGENT ? agent.substring(0, MAX_AGENT) : agent;
        for (String piece : alternatives()) {
            Matcher m;
            try {
                m = compile(piece).matcher(text);
            } catch (PatternSyntaxException e) {
                continue;
            }
            for (int from = 0; from <= text.length() && m.find(from); from = m.start(1) + 1) {
                if (!AgentText.isComparison(text, m.start(1))) {
                    return Optional.of(spelledAs(piece, nameOf(piece, text, m.start(1), m.end(1))));
                }
            }
        }
        return Optional.empty();
    }

    /** The words of {@code text[start, end)} that name what {@code piece} matched (see {@link #matchedName}). */
    private static String nameOf(String piece, String text, int start, int end) {
        int wildcard = Math.max(piece.indexOf(".*"), piece.indexOf(".+"));
        if (wildcard == 0) {
            int from = end;
            while (from > 0 && " ;(),".indexOf(text.charAt(from - 1)) < 0) {
                from--;
            }
            start = from;
        } else if (wildcard > 0) {
            int literal = 0;
            while (literal < piece.length() && ".^$?*+()[]{}|\\".indexOf(piece.charAt(literal)) < 0) {
                literal++;
            }
            end = Math.min(end, start + literal);
        }
        if (wildcard != 0) {
            // the rest of the product token the match ends in: Google-AdWords-Express, not Google-AdWords
            while (end < text.length() && isNameChar(text.charAt(end))) {
                end++;
            }
        }
        int cut = start;
        while (cut < end && "/;()".indexOf(text.charAt(cut)) < 0) {
            cut++;
        }
        String name = text.substring(start, cut).strip();
        while (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return name;
    }

    private static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    }

    /**
     * Every name {@link #matchedName} can give that is known in advance: those of alternatives that
     * match a known set of strings, and the literal words before a wildcard further on (an
     * alternative that begins with one names what each agent says).
     */
    public List<String> matchedNames() {
        List<String> names = new ArrayList<>();
        for (String piece : alternatives()) {
            Set<String> strings = RegexLiterals.groupStrings("(" + piece + ")", 1);
            if (strings != null) {
                strings.forEach(s -> names.add(nameOf(piece, s, 0, s.length())));
            } else if (Math.max(piece.indexOf(".*"), piece.indexOf(".+")) > 0) {
                names.add(nameOf(piece, piece, 0, piece.length()));
            }
        }
        return names.stream().filter(n -> !n.isEmpty()).distinct().toList();
    }

    /** {@code name} as {@code piece} spells it, when the piece matches a known set of strings and one is it. */
    private static String spelledAs(String piece, String name) {
        Set<String> strings = RegexLiterals.groupStrings("(" + piece + ")", 1);
        if (strings != null) {
            for (String s : strings) {
                if (s.equalsIgnoreCase(name)) {
                    return s;
                }
            }
        }
        return name;
    }

    /** Whether the expression {@code compiled} runs begins with {@code ^}, outside any group. */
    private static boolean anchoredAtStart(Pattern compiled) {
        return compiled.pattern().startsWith(START + "(^");
    }

    private String resolvedName(Matcher m) {
        if (name.indexOf('$') < 0) {
            return name;
        }
        StringBuilder resolved = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '$' && i + 1 < name.length() && name.charAt(i + 1) >= '1' && name.charAt(i + 1) <= '9') {
                int group = name.charAt(++i) - '0';
                String text = group + 1 <= m.groupCount() ? m.group(group + 1) : null;
                resolved.append(text == null ? "" : spelled(group, text));
            } else {
                resolved.append(c);
            }
        }
        return resolved.toString().trim();
    }

    /**
     * The strings each templated entry's groups match, by group and expression: worked out once,
     * the first time an agent matches such an entry. Only a catalog's entries are keys, so the
     * map holds at most a few dozen.
     */
    private static final Map<String, Optional<Set<String>>> GROUP_STRINGS = new ConcurrentHashMap<>();

    /** A group's text as the catalog spells it, when the catalog lists it (an agent may say yandexbot). */
    private String spelled(int group, String text) {
        Set<String> strings = GROUP_STRINGS.computeIfAbsent(group + " " + regex,
                key -> Optional.ofNullable(RegexLiterals.groupStrings(regex, group))).orElse(null);
        if (strings != null) {
            for (String s : strings) {
                if (s.equalsIgnoreCase(text)) {
                    return s;
                }
            }
        }
        return text;
    }

    /**
     * Every name this entry can give: its name, or for a template the name with each string its
     * groups can match (for {@code (360Spider(?:-Image|-Video)?)}: 360Spider, 360Spider-Image,
     * 360Spider-Video); the template itself when a group can match more than a list of strings.
     */
    public List<String> names() {
        if (name.indexOf('$') < 0) {
            return List.of(name);
        }
        List<String> names = new ArrayList<>(List.of(""));
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '$' && i + 1 < name.length() && name.charAt(i + 1) >= '1' && name.charAt(i + 1) <= '9') {
                Set<String> strings = RegexLiterals.groupStrings(regex, name.charAt(++i) - '0');
                if (strings == null || strings.size() * names.size() > RegexLiterals.MAX_EXACT) {
                    return List.of(name);
                }
                List<String> longer = new ArrayList<>();
                for (String prefix : names) {
                    for (String s : strings) {
                        longer.add(prefix + s);
                    }
                }
                names = longer;
            } else {
                for (int n = 0; n < names.size(); n++) {
                    names.set(n, names.get(n) + c);
                }
            }
        }
        return names.stream().map(String::trim).distinct().toList();
    }
}
