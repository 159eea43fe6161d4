package dev.crawlerrors.crawler.catalog;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The literal text a regular expression cannot match without, so that a pattern runs only on
 * agents that hold some of it: {@link #required} is a set of strings one of which is in every
 * match. Also the strings a capturing group can match, when they are few, which is how a catalog
 * entry named {@code $1} lists the names it gives.
 *
 * <p>Design: the prefilter of RE2 and Hyperscan, reduced to what bot patterns use. Each part of
 * the pattern is described either by the exact strings it matches (a literal; a small class such
 * as {@code [BPW]}; an alternation or an optional part of such) or by strings one of which its
 * matches contain. A sequence multiplies its exact strings while they stay few, an alternation
 * unites them, and where that stops the longest requirement found is kept. Anything the analysis
 * does not follow ({@code .}, {@code \w}, a negated or wide class, a back-reference) matches
 * anything; look-arounds and anchors match the empty string. Wrong answers can only be too
 * weak, never too strong: a requirement is only ever dropped or widened.
 */
final class RegexLiterals {

    /** Exact strings a part may have before it is described by a requirement instead. */
    static final int MAX_EXACT = 128;
    /** Distinct characters a class may have and still be a set of exact strings. */
    private static final int MAX_CLASS = 10;

    /** What a part of a pattern matches: exactly one of {@code exact}, or (when that is null) something containing one of {@code contains}, or (both null) anything. */
    private record Info(Set<String> exact, Set<String> contains) {
        static final Info ANY = new Info(null, null);
        static final Info EMPTY = new Info(Set.of(""), null);

        static Info exactly(Set<String> strings) {
            return new Info(strings, null);
        }

        static Info containing(Set<String> strings) {
            return strings == null ? ANY : new Info(null, strings);
        }
    }

    private final String regex;
    private final int minLength;
    private int at;
    private final List<Set<String>> groups = new ArrayList<>();

    private RegexLiterals(String regex, int minLength) {
        this.regex = regex;
        this.minLength = minLength;
    }

    /**
     * Strings (ASCII lower case) one of which is in every match of {@code regex} matched ASCII
     * case-insensitively, each at least {@code minLength} long; null when the analysis finds none.
     */
    static Set<String> required(String regex, int minLength) {
        Set<String> literals = literalAlternatives(regex, minLength);
        if (literals != null) {
            return literals;
        }
        try {
            RegexLiterals parser = new RegexLiterals(regex, minLength);
            Info info = parser.whole();
            return parser.asRequirement(info);
        } catch (RuntimeException e) {
            return null; // a pattern the analysis cannot read runs on every agent
        }
    }

    /**
     * Most catalog entries are plain words or a few of them ({@code Qwantify|Qwantbot}): read
     * without the parser, which a cold JVM runs slowly. Null when {@code regex} is more than that
     * or one of its words is shorter than {@code minLength}.
     */
    static Set<String> literalAlternatives(String regex, int minLength) {
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= regex.length(); i++) {
            char c = i < regex.length() ? regex.charAt(i) : '|';
            if (c == '|') {
                if (word.length() < minLength) {
                    return null;
                }
                words.add(AgentText.lowerAscii(word.toString()));
                word.setLength(0);
            } else if (c == '\\') {
                char next = i + 1 < regex.length() ? regex.charAt(i + 1) : 'x';
                if (Character.isLetterOrDigit(next)) {
                    return null;
                }
                word.append(next);
                i++;
            } else if (".^$?*+()[]{}".indexOf(c) >= 0) {
                return null;
            } else {
                word.append(c);
            }
        }
        return words;
    }

    /**
     * The strings, as the pattern spells them, that capturing group {@code group} (from 1) can
     * match; null when they are not a known set of at most {@value #MAX_EXACT}.
     */
    static Set<String> groupStrings(String regex, int group) {
        try {
            RegexLiterals parser = new RegexLiterals(regex, 1);
            parser.whole();
            return group >= 1 && group <= parser.groups.size() ? parser.groups.get(group - 1) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private Info whole() {
        Info info = alternation();
        if (at < regex.length()) {
            throw new IllegalArgumentException("unbalanced ) at " + at);
        }
        return info;
    }

    private Info alternation() {
        Info result = sequence();
        while (at < regex.length() && regex.charAt(at) == '|') {
            at++;
            result = either(result, sequence());
        }
        return result;
    }

    /** A run of parts: exact strings multiplied while they stay few, else the best requirement seen. */
    private Info sequence() {
        Set<String> run = Set.of("");
        boolean allExact = true;
        Set<String> best = null;
        while (at < regex.length() && regex.charAt(at) != '|' && regex.charAt(at) != ')') {
            Info part = quantified(atom());
            if (part.exact() != null && run != null && (long) run.size() * part.exact().size() <= MAX_EXACT) {
                run = product(run, part.exact());
                continue;
            }
            allExact = false;
            best = better(best, asRequirement(Info.exactly(run)));
            if (part.exact() != null) {
                run = part.exact();
            } else {
                best = better(best, part.contains());
                run = Set.of("");
            }
        }
        if (allExact) {
            return Info.exactly(run);
        }
        return Info.containing(better(best, asRequirement(Info.exactly(run))));
    }

    private Info either(Info a, Info b) {
        if (a.exact() != null && b.exact() != null && a.exact().size() + b.exact().size() <= MAX_EXACT) {
            Set<String> union = new LinkedHashSet<>(a.exact());
            union.addAll(b.exact());
            return Info.exactly(union);
        }
        Set<String> ra = asRequirement(a);
        Set<String> rb = asRequirement(b);
        if (ra == null || rb == null) {
            return Info.ANY;
        }
        Set<String> union = new LinkedHashSet<>(ra);
        union.addAll(rb);
        return Info.containing(union);
    }

    private Info quantified(Info part) {
        if (at >= regex.length()) {
            return part;
        }
        char c = regex.charAt(at);
        Info result;
        if (c == '?') {
            at++;
            result = optional(part);
        } else if (c == '*') {
            at++;
            result = Info.ANY;
        } else if (c == '+') {
            at++;
            result = Info.containing(asRequirement(part));
        } else if (c == '{' && counted()) {
            int min = countMin;
            result = min == 0 ? (countMax == 1 ? optional(part) : Info.ANY) : Info.containing(asRequirement(part));
        } else {
            return part;
        }
        if (at < regex.length() && (regex.charAt(at) == '?' || regex.charAt(at) == '+')) {
            at++; // lazy or possessive: the same strings
        }
        return result;
    }

    private int countMin;
    private int countMax;

    /** Reads {@code {n}}, {@code {n,}} or {@code {n,m}} at {@link #at}; false (and nothing read) when it is not one. */
    private boolean counted() {
        int end = regex.indexOf('}', at);
        if (end < 0) {
            return false;
        }
        String inside = regex.substring(at + 1, end);
        int comma = inside.indexOf(',');
        if (inside.isEmpty() || comma == 0 || comma != inside.lastIndexOf(',') || inside.length() > 13
                || !inside.chars().allMatch(ch -> ch == ',' || (ch >= '0' && ch <= '9'))) {
            return false;
        }
        countMin = Integer.parseInt(comma < 0 ? inside : inside.substring(0, comma));
        countMax = comma < 0 ? countMin : (comma == inside.length() - 1 ? Integer.MAX_VALUE : Integer.parseInt(inside.substring(comma + 1)));
        at = end + 1;
        return true;
    }

    private static Info optional(Info part) {
        if (part.exact() != null && part.exact().size() < MAX_EXACT) {
            Set<String> strings = new LinkedHashSet<>(part.exact());
            strings.add("");
            return Info.exactly(strings);
        }
        return Info.ANY;
    }

    private Info atom() {
        char c = regex.charAt(at++);
        return switch (c) {
            case '(' -> group();
            case '[' -> characterClass();
            case '\\' -> escape();
            case '.' -> Info.ANY;
            case '^', '$' -> Info.EMPTY;
            default -> Info.exactly(Set.of(String.valueOf(c)));
        };
    }

    private Info group() {
        Set<String>[] captured = null;
        int index = -1;
        Info inner;
        if (regex.startsWith("?", at)) {
            if (regex.startsWith("?:", at) || regex.startsWith("?>", at)) {
                at += 2;
                inner = closed(alternation());
            } else if (regex.startsWith("?=", at) || regex.startsWith("?!", at)) {
                at += 2;
                closed(alternation());
                inner = Info.EMPTY;
            } else if (regex.startsWith("?<=", at) || regex.startsWith("?<!", at)) {
                at += 3;
                closed(alternation());
                inner = Info.EMPTY;
            } else if (regex.startsWith("?<", at) || regex.startsWith("?P<", at)) {
                at = regex.indexOf('>', at) + 1;
                index = groups.size();
                groups.add(null);
                inner = closed(alternation());
            } else {
                return flags();
            }
        } else {
            index = groups.size();
            groups.add(null);
            inner = closed(alternation());
        }
        if (index >= 0) {
            groups.set(index, inner.exact());
        }
        return inner;
    }

    /** Inline flags, {@code (?i)} or {@code (?i:...)}; extended mode (comments) is not followed. */
    private Info flags() {
        int end = at + 1;
        while (end < regex.length() && (Character.isLetter(regex.charAt(end)) || regex.charAt(end) == '-')) {
            end++;
        }
        String flags = regex.substring(at + 1, end);
        if (flags.contains("x")) {
            throw new IllegalArgumentException("extended mode");
        }
        at = end + 1;
        return regex.charAt(end) == ':' ? closed(alternation()) : Info.EMPTY;
    }

    private Info closed(Info inner) {
        if (at >= regex.length() || regex.charAt(at) != ')') {
            throw new IllegalArgumentException("unclosed group");
        }
        at++;
        return inner;
    }

    private Info characterClass() {
        boolean negated = at < regex.length() && regex.charAt(at) == '^';
        if (negated) {
            at++;
        }
        Set<String> chars = new LinkedHashSet<>();
        boolean wide = false;
        boolean first = true;
        while (true) {
            char c = regex.charAt(at++);
            if (c == ']' && !first) {
                break;
            }
            first = false;
            if (c == '[') {
                throw new IllegalArgumentException("nested class");
            }
            int low;
            if (c == '\\') {
                char e = regex.charAt(at++);
                if ("dDwWsShHvVpP".indexOf(e) >= 0) {
                    wide = true;
                    if ((e == 'p' || e == 'P') && regex.startsWith("{", at)) {
                        at = regex.indexOf('}', at) + 1;
                    }
                    continue;
                }
                low = escapedChar(e);
            } else {
                low = c;
            }
            if (at + 1 < regex.length() && regex.charAt(at) == '-' && regex.charAt(at + 1) != ']') {
                at++;
                char h = regex.charAt(at++);
                int high = h == '\\' ? escapedChar(regex.charAt(at++)) : h;
                if (high - low >= MAX_CLASS) {
                    wide = true;
                    continue;
                }
                for (int x = low; x <= high; x++) {
                    chars.add(String.valueOf((char) x));
                }
            } else {
                chars.add(String.valueOf((char) low));
            }
        }
        if (negated || wide || chars.isEmpty() || chars.size() > MAX_CLASS) {
            return Info.ANY;
        }
        return Info.exactly(chars);
    }

    /** The character an escape inside a class stands for (a letter escape such as {@code \t}, or the character itself). */
    private int escapedChar(char e) {
        return switch (e) {
            case 't' -> '\t';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 'f' -> '\f';
            case 'e' -> 0x1b;
            case 'a' -> 0x07;
            case 'x' -> hex();
            case 'u' -> {
                int value = Integer.parseInt(regex.substring(at, at + 4), 16);
                at += 4;
                yield value;
            }
            default -> {
                if (Character.isLetterOrDigit(e)) {
                    throw new IllegalArgumentException("escape \\" + e);
                }
                yield e;
            }
        };
    }

    private int hex() {
        if (regex.startsWith("{", at)) {
            int end = regex.indexOf('}', at);
            int value = Integer.parseInt(regex.substring(at + 1, end), 16);
            at = end + 1;
            return value;
        }
        int value = Integer.parseInt(regex.substring(at, at + 2), 16);
        at += 2;
        return value;
    }

    private Info escape() {
        char e = regex.charAt(at++);
        switch (e) {
            case 'b', 'B', 'A', 'z', 'Z', 'G':
                return Info.EMPTY;
            case 'd', 'D', 'w', 'W', 's', 'S', 'h', 'H', 'v', 'V', 'R', 'X', 'N':
                return Info.ANY;
            case 'p', 'P':
                if (regex.startsWith("{", at)) {
                    at = regex.indexOf('}', at) + 1;
                } else {
                    at++;
                }
                return Info.ANY;
            case 'k':
                at = regex.indexOf('>', at) + 1;
                return Info.ANY;
            case 'Q': {
                int end = regex.indexOf("\\E", at);
                String quoted = end < 0 ? regex.substring(at) : regex.substring(at, end);
                at = end < 0 ? regex.length() : end + 2;
                return Info.exactly(Set.of(quoted));
            }
            case 'c':
                at++;
                return Info.ANY;
            default:
                if (e >= '0' && e <= '9') {
                    return Info.ANY; // a back-reference (or an octal escape): whatever it is, anything
                }
                return Info.exactly(Set.of(String.valueOf((char) escapedChar(e))));
        }
    }

    /** Exact strings as a requirement: lower case, each at least {@link #minLength} long, none holding another; null if one is shorter. */
    private Set<String> asRequirement(Info info) {
        Set<String> strings = info.exact() != null ? info.exact() : info.contains();
        if (strings == null) {
            return null;
        }
        Set<String> lower = new LinkedHashSet<>();
        for (String s : strings) {
            if (s.length() < minLength) {
                return null;
            }
            lower.add(AgentText.lowerAscii(s));
        }
        Set<String> kept = new LinkedHashSet<>();
        for (String s : lower) {
            boolean holdsAnother = false;
            for (String other : lower) {
                if (other.length() < s.length() && s.contains(other)) {
                    holdsAnother = true;
                    break;
                }
            }
            if (!holdsAnother) {
                kept.add(s);
            }
        }
        return kept;
    }

    /** The stronger of two requirements: any over none, then the one whose shortest string is longer, then the smaller. */
    private static Set<String> better(Set<String> a, Set<String> b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        int shortestA = a.stream().mapToInt(String::length).min().orElse(0);
        int shortestB = b.stream().mapToInt(String::length).min().orElse(0);
        if (shortestA != shortestB) {
            return shortestA > shortestB ? a : b;
        }
        return a.size() <= b.size() ? a : b;
    }

    private static Set<String> product(Set<String> a, Set<String> b) {
        Set<String> result = new LinkedHashSet<>();
        for (String x : a) {
            for (String y : b) {
                result.add(x + y);
            }
        }
        return result;
    }
}
