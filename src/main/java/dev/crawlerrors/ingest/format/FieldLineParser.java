package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Parses lines in a format given as a string (an nginx {@code log_format} or an Apache
 * {@code LogFormat}), compiled once into a list of fields: each a {@link FieldKind} (the small
 * parser for that kind of value), the name the format gave it, how far it extends, and the literal
 * text that must follow it. {@link NginxFormat} and {@link ApacheFormat} build it.
 *
 * <p>Design: a field's extent is decided when the format is compiled, from its neighbours: a field
 * between two quotes runs to the closing quote (skipping backslash escapes); a field of fixed
 * width ({@code $time_local}) is that long; any other runs to the first byte of the literal after
 * it; the last field runs to the next space, or to the end of the line when it is text. The line
 * is then walked once, left to right, each field's parser storing offsets and numbers in a
 * reused {@link LineFields}; the agent filter sees the agent's bytes before any string is built.
 * Fields that may be missing at the end of a line (a request time) are optional there, and text
 * after the last field is ignored when it starts with a space, as {@link CombinedLineParser}
 * does, so lines written before a field was added to the format still parse.
 */
public final class FieldLineParser implements LineParser {

    /** How far a field extends, decided once from the format. */
    enum Extent {
        /** Between quotes: to the closing quote. */
        QUOTED,
        /** Always {@link FieldKind#width()} bytes. */
        FIXED,
        /** To the first byte of the literal after it. */
        UNTIL_STOP,
        /** Like UNTIL_STOP, over the {@code ", "} and {@code " : "} of a list of upstream times. */
        LIST_UNTIL_STOP,
        /** A path right before Apache's {@code %q} (which starts with {@code ?} or is empty): to the {@code ?} or what follows the query. */
        UNTIL_QUERY,
        /** The last field: to the next space. */
        TOKEN,
        /** The last field, text: to the end of the line. */
        REST_OF_LINE
    }

    /**
     * One field of the format and the literal that follows it.
     *
     * @param queryStop  for {@link Extent#UNTIL_QUERY}, the byte that ends the path when there is no query
     * @param afterWord  the literal as a little-endian word, when it is one to eight bytes long
     * @param afterMask  the bytes of that word the literal fills
     */
    record Field(FieldKind kind, String name, Extent extent, byte[] after, byte queryStop, long afterWord, long afterMask) {

        Field(FieldKind kind, String name, Extent extent, byte[] after, byte queryStop) {
            this(kind, name, extent, after, queryStop, word(after), after.length == 0 || after.length > Long.BYTES ? 0
                    : after.length == Long.BYTES ? -1L : (1L << (8 * after.length)) - 1);
        }

        private static long word(byte[] literal) {
            long word = 0;
            for (int i = Math.min(literal.length, Long.BYTES) - 1; i >= 0; i--) {
                word = (word << 8) | (literal[i] & 0xFF);
            }
            return word;
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final String description;
    private final byte[] lead;
    private final Field[] fields;
    /** Fields from this index on may be missing at the end of a line. */
    private final int optionalFrom;
    private final boolean hasAgent;
    private final LineFields scratch = new LineFields();

    private FieldLineParser(String description, byte[] lead, Field[] fields, int optionalFrom, boolean hasAgent) {
        this.description = description;
        this.lead = lead;
        this.fields = fields;
        this.optionalFrom = optionalFrom;
        this.hasAgent = hasAgent;
    }

    @Override
    public LineParser copy() {
        return new FieldLineParser(description, lead, fields, optionalFrom, hasAgent);
    }

    /** The format as the user gave it, e.g. {@code nginx format '$remote_addr - ...'}. */
    @Override
    public String describe() {
        return description;
    }

    /** Whether the format has a user-agent field; without one no line can be told to be a crawler. */
    public boolean hasAgent() {
        return hasAgent;
    }

    @Override
    public Hit parse(byte[] b, int from, int to, AgentFilter filter) throws BadLineException {
        LineFields f = scratch;
        f.reset();
        int p = from;
        for (int k = 0; k < lead.length; k++, p++) {
            if (p >= to || b[p] != lead[k]) {
                throw new BadLineException("does not match the format", "expected the line to start with '" + text(lead)
                        + "'; got '" + LogText.excerpt(b, from, to) + "'");
            }
        }
        fields:
        for (int i = 0; i < fields.length; i++) {
            if (p >= to && i >= optionalFrom) {
                break;
            }
            Field field = fields[i];
            int end = end(field, b, p, to);
            field.kind.read(b, p, end, f, field.name);
            p = end;
            byte[] after = field.after;
            // the literals are one to three bytes: one masked word compare, not a loop with a branch a byte
            if (field.afterMask != 0 && p + Long.BYTES <= to && (((long) LONGS.get(b, p)) & field.afterMask) == field.afterWord) {
                p += after.length;
                continue;
            }
            for (int k = 0; k < after.length; k++, p++) {
                if (p >= to) {
                    if (i + 1 >= optionalFrom) {
                        break fields;
                    }
                    throw new BadLineException("truncated", "the line ends after " + field.name + "; expected '" + text(after)
                            + "' and " + fields[i + 1].name);
                }
                if (b[p] != after[k]) {
                    throw new BadLineException("does not match the format", "expected '" + text(after) + "' after " + field.name
                            + "; got '" + LogText.excerpt(b, p - k, to) + "'");
                }
            }
        }
        if (p < to && b[p] != ' ') {
            throw new BadLineException("does not match the format", "unexpected text after " + fields[fields.length - 1].name
                    + ": '" + LogText.excerpt(b, p, to) + "'");
        }
        // an agent the format does not carry is empty: the filter decides, and a crawler filter drops it;
        // a signed line is an agent's whatever its user agent says (ChatGPT agent sends Chrome's)
        boolean keep = f.agentFrom != LineFields.NONE ? filter.mayBeCrawler(b, f.agentFrom, f.agentTo) : filter.mayBeCrawler(b, p, p);
        keep |= f.signed();
        return keep ? f.hit(b) : null;
    }

    /** Where the field starting at {@code p} ends. */
    private static int end(Field field, byte[] b, int p, int to) throws BadLineException {
        switch (field.extent) {
            case QUOTED -> {
                int end = LogText.closingQuote(b, p, to);
                if (end < 0) {
                    throw new BadLineException("truncated", field.name + " has no closing quote; the line looks truncated");
                }
                return end;
            }
            case FIXED -> {
                int end = p + field.kind.width();
                if (end <= to && (end == to || field.after.length == 0 || b[end] == field.after[0])) {
                    return end;
                }
                // the wrong length: give the field parser the value as it stands, so it names it
                int stop = field.after.length == 0 ? -1 : ByteSearch.indexOf(b, p, to, field.after[0]);
                return stop < 0 ? Math.min(to, end) : stop;
            }
            case UNTIL_STOP -> {
                int stop = ByteSearch.indexOf(b, p, to, field.after[0]);
                return stop < 0 ? to : stop;
            }
            case LIST_UNTIL_STOP -> {
                byte c = field.after[0];
                int stop = ByteSearch.indexOf(b, p, to, c);
                while (stop > 0 && c == ' ' && inList(b, stop, to)) {
                    stop = ByteSearch.indexOf(b, stop + 1, to, c);
                }
                return stop < 0 ? to : stop;
            }
            case UNTIL_QUERY -> {
                int stop = ByteSearch.indexOfEither(b, p, to, (byte) '?', field.queryStop);
                return stop < 0 ? to : stop;
            }
            case TOKEN -> {
                int stop = ByteSearch.indexOf(b, p, to, (byte) ' ');
                return stop < 0 ? to : stop;
            }
            default -> {
                return to;
            }
        }
    }

    /** Whether the space at {@code i} separates the items of a list: {@code ", "} or {@code " : "}. */
    private static boolean inList(byte[] b, int i, int to) {
        return b[i - 1] == ',' || (i + 2 < to && b[i + 1] == ':' && b[i + 2] == ' ') || (i >= 2 && b[i - 1] == ':' && b[i - 2] == ' ');
    }

    private static String text(byte[] literal) {
        return new String(literal, StandardCharsets.UTF_8);
    }

    /**
     * Collects a format's literals and fields in order, then checks and compiles them. Format
     * compilers call {@link #literal} and {@link #field} as they read the format string.
     */
    static final class Builder {

        private final ByteArrayOutputStream literal = new ByteArrayOutputStream();
        private final List<byte[]> before = new ArrayList<>();
        private final List<FieldKind> kinds = new ArrayList<>();
        private final List<String> names = new ArrayList<>();

        Builder literal(String text) {
            literal.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        Builder field(FieldKind kind, String name) {
            before.add(literal.toByteArray());
            literal.reset();
            kinds.add(kind);
            names.add(name);
            return this;
        }

        boolean has(Predicate<FieldKind> kind) {
            return kinds.stream().anyMatch(kind);
        }

        /**
         * The compiled parser.
         *
         * @throws IllegalArgumentException when two fields have nothing between them (they cannot
         *         be told apart) or the format has no fields
         */
        FieldLineParser build(String description) {
            int n = kinds.size();
            if (n == 0) {
                throw new IllegalArgumentException(description + " has no fields");
            }
            byte[] trailing = literal.toByteArray();
            Field[] fields = new Field[n];
            for (int i = 0; i < n; i++) {
                byte[] ahead = before.get(i);
                byte[] after = i + 1 < n ? before.get(i + 1) : trailing;
                FieldKind kind = kinds.get(i);
                boolean beforeQuery = after.length == 0 && i + 1 < n && kinds.get(i + 1) == FieldKind.QUERY_STRING;
                if (after.length == 0 && i + 1 < n && kind.width() == 0 && !beforeQuery) {
                    throw new IllegalArgumentException(description + ": " + names.get(i) + " and " + names.get(i + 1)
                            + " have nothing between them, so they cannot be told apart; the server writes a separator there, copy the format exactly");
                }
                Extent extent;
                byte queryStop = ' ';
                if (beforeQuery) {
                    extent = Extent.UNTIL_QUERY;
                    byte[] afterQuery = i + 2 < n ? before.get(i + 2) : trailing;
                    queryStop = afterQuery.length > 0 ? afterQuery[0] : (byte) ' ';
                } else if (ahead.length > 0 && ahead[ahead.length - 1] == '"' && after.length > 0 && after[0] == '"') {
                    extent = Extent.QUOTED;
                } else if (kind.width() > 0) {
                    extent = Extent.FIXED;
                } else if (after.length > 0) {
                    extent = kind.list() ? Extent.LIST_UNTIL_STOP : Extent.UNTIL_STOP;
                } else {
                    extent = kind.text() ? Extent.REST_OF_LINE : Extent.TOKEN;
                }
                fields[i] = new Field(kind, names.get(i), extent, after, queryStop);
            }
            int optionalFrom = n;
            while (optionalFrom > 0 && kinds.get(optionalFrom - 1).optionalAtEnd()) {
                optionalFrom--;
            }
            return new FieldLineParser(description, before.get(0), fields, optionalFrom, kinds.contains(FieldKind.USER_AGENT));
        }
    }
}
