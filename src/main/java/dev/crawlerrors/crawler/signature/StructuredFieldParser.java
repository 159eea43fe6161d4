package dev.crawlerrors.crawler.signature;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses HTTP structured fields as RFC 8941 section 4.2 says, step by step: dictionaries, lists and
 * items. The fields come from anyone (a log records what the client sent), so the parser is
 * bounded: a field longer than {@link #MAX_LENGTH} characters, with more than {@link #MAX_MEMBERS}
 * members, inner-list items or parameters, is refused before it costs anything, and every failure
 * is a {@link MalformedFieldException} that says where, never another exception.
 */
public final class StructuredFieldParser {

    /** The longest field parsed: a Web Bot Auth field is some hundreds of characters; an RSA-4096 signature 700. */
    public static final int MAX_LENGTH = 8192;
    /** Members of a dictionary or list, items of an inner list, parameters of one member, at most. */
    static final int MAX_MEMBERS = 64;

    private final String field;
    private final String text;
    private int at;

    private StructuredFieldParser(String field, String text) {
        this.field = field;
        this.text = text;
    }

    /** {@code text}, the value of the header {@code field} (named in messages), as a dictionary in its order. */
    public static Map<String, SfValue.Member> dictionary(String field, String text) throws MalformedFieldException {
        StructuredFieldParser parser = start(field, text);
        Map<String, SfValue.Member> members = new LinkedHashMap<>();
        while (!parser.atEnd()) {
            String key = parser.key();
            SfValue.Member member;
            if (parser.peek() == '=') {
                parser.at++;
                member = parser.itemOrInnerList();
            } else {
                member = new SfValue.Item(Boolean.TRUE, parser.params());
            }
            members.put(key, member);
            parser.limit(members.size(), "members");
            if (!parser.nextMember()) {
                break;
            }
        }
        return members;
    }

    /** {@code text} as a list of members. */
    public static List<SfValue.Member> list(String field, String text) throws MalformedFieldException {
        StructuredFieldParser parser = start(field, text);
        List<SfValue.Member> members = new ArrayList<>();
        while (!parser.atEnd()) {
            members.add(parser.itemOrInnerList());
            parser.limit(members.size(), "members");
            if (!parser.nextMember()) {
                break;
            }
        }
        return members;
    }

    /** {@code text} as one item. */
    public static SfValue.Item item(String field, String text) throws MalformedFieldException {
        StructuredFieldParser parser = start(field, text);
        SfValue.Item item = parser.item();
        parser.skipSpaces();
        if (!parser.atEnd()) {
            throw parser.fail("unexpected '" + parser.peek() + "' after the item");
        }
        return item;
    }

    private static StructuredFieldParser start(String field, String text) throws MalformedFieldException {
        if (text == null) {
            throw new MalformedFieldException(field + " is missing");
        }
        if (text.length() > MAX_LENGTH) {
            throw new MalformedFieldException(field + " is " + text.length() + " characters long, more than the " + MAX_LENGTH
                    + " a structured field may have here");
        }
        int start = 0;
        int end = text.length();
        while (start < end && text.charAt(start) == ' ') {
            start++;
        }
        while (end > start && text.charAt(end - 1) == ' ') {
            end--;
        }
        return new StructuredFieldParser(field, text.substring(start, end));
    }

    /** After a member: true when a comma and another member follow, false at the end. */
    private boolean nextMember() throws MalformedFieldException {
        skipWhitespace();
        if (atEnd()) {
            return false;
        }
        if (peek() != ',') {
            throw fail("expected ',' between members, found '" + peek() + "'");
        }
        at++;
        skipWhitespace();
        if (atEnd()) {
            throw fail("a ',' ends the field");
        }
        return true;
    }

    private SfValue.Member itemOrInnerList() throws MalformedFieldException {
        return peek() == '(' ? innerList() : item();
    }

    private SfValue.InnerList innerList() throws MalformedFieldException {
        at++; // (
        List<SfValue.Item> items = new ArrayList<>();
        while (true) {
            skipSpaces();
            if (atEnd()) {
                throw fail("an inner list is not closed with ')'");
            }
            if (peek() == ')') {
                at++;
                return new SfValue.InnerList(List.copyOf(items), params());
            }
            items.add(item());
            limit(items.size(), "items in an inner list");
            if (!atEnd() && peek() != ' ' && peek() != ')') {
                throw fail("expected a space or ')' after an inner list's item, found '" + peek() + "'");
            }
        }
    }

    private SfValue.Item item() throws MalformedFieldException {
        Object value = bareItem();
        return new SfValue.Item(value, params());
    }

    private Map<String, Object> params() throws MalformedFieldException {
        Map<String, Object> params = new LinkedHashMap<>();
        while (!atEnd() && peek() == ';') {
            at++;
            skipSpaces();
            String key = key();
            Object value = Boolean.TRUE;
            if (!atEnd() && peek() == '=') {
                at++;
                value = bareItem();
            }
            params.put(key, value);
            limit(params.size(), "parameters");
        }
        return params;
    }

    private String key() throws MalformedFieldException {
        if (atEnd() || !(isLowerAlpha(peek()) || peek() == '*')) {
            throw fail(atEnd() ? "a key is missing" : "a key cannot start with '" + peek() + "'");
        }
        int start = at;
        while (!atEnd()) {
            char c = peek();
            if (!(isLowerAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*')) {
                break;
            }
            at++;
        }
        return text.substring(start, at);
    }

    private Object bareItem() throws MalformedFieldException {
        if (atEnd()) {
            throw fail("a value is missing");
        }
        char c = peek();
        if (c == '-' || isDigit(c)) {
            return number();
        }
        if (c == '"') {
            return string();
        }
        if (c == ':') {
            return bytes();
        }
        if (c == '?') {
            return bool();
        }
        if (isAlpha(c) || c == '*') {
            return token();
        }
        throw fail("a value cannot start with '" + c + "'");
    }

    private Object number() throws MalformedFieldException {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        if (atEnd() || !isDigit(peek())) {
            throw fail("a number has no digits");
        }
        int digitsStart = at;
        int dot = -1;
        while (!atEnd()) {
            char c = peek();
            if (isDigit(c)) {
                at++;
            } else if (c == '.' && dot < 0) {
                if (at - digitsStart > 12) {
                    throw fail("a decimal has more than 12 integer digits");
                }
                dot = at++;
            } else {
                break;
            }
            if (dot < 0 ? at - digitsStart > 15 : at - digitsStart > 16) {
                throw fail("a number has too many digits");
            }
        }
        String number = text.substring(start, at);
        if (dot < 0) {
            return Long.parseLong(number);
        }
        int fraction = at - dot - 1;
        if (fraction == 0 || fraction > 3) {
            throw fail("a decimal needs 1 to 3 digits after its point");
        }
        return new BigDecimal(number);
    }

    private String string() throws MalformedFieldException {
        at++; // "
        StringBuilder value = new StringBuilder();
        while (!atEnd()) {
            char c = text.charAt(at++);
            if (c == '\\') {
                if (atEnd() || (peek() != '"' && peek() != '\\')) {
                    throw fail("a string escapes something other than '\"' or '\\'");
                }
                value.append(text.charAt(at++));
            } else if (c == '"') {
                return value.toString();
            } else if (c < 0x20 || c > 0x7e) {
                throw fail("a string holds a character outside printable ASCII");
            } else {
                value.append(c);
            }
        }
        throw fail("a string is not closed with '\"'");
    }

    private SfValue.Token token() {
        int start = at;
        while (!atEnd() && (isTokenChar(peek()) || peek() == ':' || peek() == '/')) {
            at++;
        }
        return new SfValue.Token(text.substring(start, at));
    }

    private SfValue.Bytes bytes() throws MalformedFieldException {
        int start = ++at;
        while (!atEnd() && peek() != ':') {
            char c = peek();
            if (!(isAlpha(c) || isDigit(c) || c == '+' || c == '/' || c == '=')) {
                throw fail("a byte sequence holds '" + c + "', which is not base64");
            }
            at++;
        }
        if (atEnd()) {
            throw fail("a byte sequence is not closed with ':'");
        }
        String base64 = text.substring(start, at++);
        try {
            return new SfValue.Bytes(Base64.getDecoder().decode(padded(base64)));
        } catch (IllegalArgumentException e) {
            throw fail("a byte sequence is not base64");
        }
    }

    /** RFC 8941 asks parsers not to fail on missing '=' padding. */
    private static String padded(String base64) {
        return switch (base64.length() % 4) {
            case 2 -> base64 + "==";
            case 3 -> base64 + "=";
            default -> base64;
        };
    }

    private Boolean bool() throws MalformedFieldException {
        at++;
        if (!atEnd() && (peek() == '0' || peek() == '1')) {
            return text.charAt(at++) == '1';
        }
        throw fail("a boolean is not ?0 or ?1");
    }

    private void limit(int count, String what) throws MalformedFieldException {
        if (count > MAX_MEMBERS) {
            throw fail("more than " + MAX_MEMBERS + " " + what);
        }
    }

    private void skipSpaces() {
        while (!atEnd() && peek() == ' ') {
            at++;
        }
    }

    private void skipWhitespace() {
        while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
            at++;
        }
    }

    private boolean atEnd() {
        return at >= text.length();
    }

    /** The character at the current position; {@code '\0'}, which no rule takes, at the end. */
    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private MalformedFieldException fail(String why) {
        return new MalformedFieldException(field + " is not a valid structured field: " + why + " (at character " + (at + 1) + ")");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLowerAlpha(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isAlpha(char c) {
        return isLowerAlpha(c) || (c >= 'A' && c <= 'Z');
    }

    /** RFC 9110's tchar. */
    private static boolean isTokenChar(char c) {
        return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
