package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;

/**
 * The kinds of field a format string can name, each with its own small parser: the table that
 * {@link NginxFormat} and {@link ApacheFormat} map their variables and directives onto. A parser
 * reads the bytes of one field into {@link LineFields} (offsets for text, numbers for numbers) and
 * throws a {@link BadLineException} that names the field as the format wrote it and what was
 * expected ({@code '13/Aug/2025' is not a $time_local; expected dd/MMM/yyyy:HH:mm:ss Z}).
 *
 * <p>Flags per kind: {@code text} fields may hold spaces (so as the last field of a format they
 * run to the end of the line), {@code width} is the fixed length of a field that always has one,
 * and {@code optionalAtEnd} fields may be missing from the end of a line (a request time added
 * to the format later; fields nobody reads).
 */
enum FieldKind {

    CLIENT("an IPv4 or IPv6 address", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            // a screen; that it is an address, not a host name, is checked where a hit is made (LineFields#hit)
            if (!ClientAddress.looksLikeAddress(b, from, to) && !AddressText.isBracketed(b, from, to)) {
                throw bad("no client address", b, from, to, name);
            }
            out.clientFrom = from;
            out.clientTo = to;
            out.clientName = name;
        }
    },
    FORWARDED_FOR("a list of addresses", true, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (!LogText.isDash(b, from, to) && to > from) {
                out.forwardedFrom = from;
                out.forwardedTo = to;
            }
        }
    },
    /** nginx {@code $http_cf_connecting_ip}, {@code $http_true_client_ip}: the client's address as a CDN saw it. */
    CONNECTING_IP("an address", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (!LogText.isDash(b, from, to) && to > from) {
                out.connectingFrom = from;
                out.connectingTo = to;
            }
        }
    },
    /** nginx {@code $time_local}: {@code 14/May/2025:09:31:02 +0200}. */
    TIME_LOCAL(LogTime.CLF_PATTERN, false, LogTime.CLF_LENGTH, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            long millis = to - from == LogTime.CLF_LENGTH ? LogTime.clf(b, from, to) : LogTime.INVALID;
            if (millis == LogTime.INVALID) {
                throw bad("bad time", b, from, to, name);
            }
            out.time(millis, LogTime.clfOffsetMinutes(b, from));
        }
    },
    /** Apache {@code %t}: the same time in brackets. */
    TIME_BRACKETED("[" + LogTime.CLF_PATTERN + "]", false, LogTime.CLF_LENGTH + 2, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            long millis = to - from == LogTime.CLF_LENGTH + 2 && b[from] == '[' && b[to - 1] == ']'
                    ? LogTime.clf(b, from + 1, to - 1) : LogTime.INVALID;
            if (millis == LogTime.INVALID) {
                throw bad("bad time", b, from, to, name);
            }
            out.time(millis, LogTime.clfOffsetMinutes(b, from + 1));
        }
    },
    TIME_ISO8601(LogTime.ISO_PATTERN, false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            long millis = LogTime.iso8601(b, from, to);
            if (millis == LogTime.INVALID) {
                throw bad("bad time", b, from, to, name);
            }
            out.time(millis, LogTime.iso8601OffsetMinutes(b, from, to));
        }
    },
    /** nginx {@code $msec}, Apache {@code %{sec}t}: seconds since 1970, with or without a fraction. */
    EPOCH_SECONDS("seconds since 1970 such as 1747207862.123", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            epoch(b, from, to, out, name, 1000.0);
        }
    },
    EPOCH_MILLIS("milliseconds since 1970", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            epoch(b, from, to, out, name, 1.0);
        }
    },
    EPOCH_MICROS("microseconds since 1970", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            epoch(b, from, to, out, name, 0.001);
        }
    },
    /** The request line, {@code GET /path?query HTTP/1.1}. */
    REQUEST("a request line", true, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            out.requestFrom = from;
            out.requestTo = to;
        }
    },
    METHOD("a method", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            out.methodFrom = from;
            out.methodTo = to;
        }
    },
    /** The request target with its query: nginx {@code $request_uri}. */
    REQUEST_URI("a request target", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            out.uriFrom = from;
            out.uriTo = to;
        }
    },
    /** The path alone: nginx {@code $uri}, Apache {@code %U}. */
    PATH("a path", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            out.pathFrom = from;
            out.pathTo = to;
        }
    },
    /** nginx {@code $args}: the query without {@code ?}; empty or {@code -} when there is none. */
    ARGS("a query string", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (to > from && !LogText.isDash(b, from, to)) {
                out.queryFrom = from;
                out.queryTo = to;
            }
        }
    },
    /** Apache {@code %q}: {@code ?query}, or nothing. */
    QUERY_STRING("a query string", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (to > from && b[from] == '?') {
                out.queryFrom = from + 1;
                out.queryTo = to;
            }
        }
    },
    STATUS("a three-digit status", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            if (to - from != 3 || !digit(b[from]) || !digit(b[from + 1]) || !digit(b[from + 2])) {
                throw bad("bad status", b, from, to, name);
            }
            out.status = (b[from] - '0') * 100 + (b[from + 1] - '0') * 10 + (b[from + 2] - '0');
        }
    },
    /** The response body size: nginx {@code $body_bytes_sent}, Apache {@code %b} ({@code -} for none) and {@code %B}. */
    BODY_BYTES("a size in bytes or '-'", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            out.bytes(size(b, from, to, name), 2);
        }
    },
    /** The whole response size, headers included: nginx {@code $bytes_sent}, Apache {@code %O}; used when the body size is not logged. */
    BYTES_SENT("a size in bytes or '-'", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            out.bytes(size(b, from, to, name), 1);
        }
    },
    REFERER("a referer", true, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            out.refererFrom = from;
            out.refererTo = to;
        }
    },
    USER_AGENT("a user agent", true, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            out.agentFrom = from;
            out.agentTo = to;
        }
    },
    /** The virtual host: nginx {@code $host}, {@code $server_name}, {@code $http_host}; Apache {@code %v}, {@code %V}; a port is dropped. */
    HOST("a host name", false, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            int end = to;
            int colon = LogText.lastIndexOf(b, from, to, (byte) ':');
            boolean bracketed = colon > from && b[from] == '[' && b[colon - 1] == ']'; // [2001:db8::1]:8080 keeps [2001:db8::1]
            if (colon > from && colon + 1 < to && (bracketed || ByteSearch.indexOf(b, from, colon, (byte) ':') < 0)
                    && allDigits(b, colon + 1, to)) {
                end = colon;
            }
            out.hostFrom = from;
            out.hostTo = end;
        }
    },
    /**
     * The Web Bot Auth headers: nginx {@code $http_signature}, {@code $http_signature_input},
     * {@code $http_signature_agent}; Apache {@code %{Signature}i} and the others. They hold spaces
     * and quotes (as the log escapes them); a line that has them is kept whatever its user agent.
     */
    SIGNATURE("a Signature header", true, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (to > from && !LogText.isDash(b, from, to)) {
                out.signatureFrom = from;
                out.signatureTo = to;
            }
        }
    },
    SIGNATURE_INPUT("a Signature-Input header", true, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (to > from && !LogText.isDash(b, from, to)) {
                out.signatureInputFrom = from;
                out.signatureInputTo = to;
            }
        }
    },
    SIGNATURE_AGENT("a Signature-Agent header", true, 0, false) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (to > from && !LogText.isDash(b, from, to)) {
                out.signatureAgentFrom = from;
                out.signatureAgentTo = to;
            }
        }
    },
    /** A redirect's target, the response's Location header: nginx {@code $sent_http_location}, Apache {@code %{Location}o}; {@code -} for none. */
    LOCATION("a URL or '-'", false, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            if (to > from && !LogText.isDash(b, from, to)) {
                out.locationFrom = from;
                out.locationTo = to;
            }
        }
    },
    /** nginx {@code $request_time}: seconds with milliseconds. */
    SECONDS("seconds such as 0.012", false, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            out.duration(duration(b, from, to, name, 1000.0), 3);
        }
    },
    /** Apache {@code %T}: whole seconds. */
    WHOLE_SECONDS("whole seconds", false, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            out.duration(duration(b, from, to, name, 1000.0), 2);
        }
    },
    /** Apache {@code %{ms}T}. */
    MILLISECONDS("milliseconds", false, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            out.duration(duration(b, from, to, name, 1.0), 3);
        }
    },
    /** Apache {@code %D} and {@code %{us}T}. */
    MICROSECONDS("microseconds", false, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            out.duration(duration(b, from, to, name, 0.001), 3);
        }
    },
    /**
     * nginx {@code $upstream_response_time}: seconds per upstream tried, {@code 0.012, 0.003} (and
     * {@code :} between internal redirects); their sum is the duration when the line has no
     * {@code $request_time}. Its extent runs over those separators.
     */
    UPSTREAM_SECONDS("seconds such as 0.012, or a list of them", true, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException {
            double total = 0;
            boolean any = false;
            int p = from;
            while (p < to) {
                int end = p;
                while (end < to && b[end] != ',' && b[end] != ' ' && b[end] != ':') {
                    end++;
                }
                if (end > p && !LogText.isDash(b, p, end)) {
                    double seconds = LogTime.decimal(b, p, end, 1000.0);
                    if (Double.isNaN(seconds)) {
                        throw bad("bad duration", b, from, to, name);
                    }
                    total += seconds;
                    any = true;
                }
                p = end + 1;
            }
            if (any) {
                out.duration(total, 1);
            }
        }
    },
    /** A list nothing here needs, whose items are separated by {@code ", "} or {@code " : "}: nginx {@code $upstream_addr}, {@code $upstream_status}. */
    SKIP_LIST("anything", true, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            // nothing to keep
        }
    },
    /** A field nothing here needs ({@code $remote_user}, {@code %l}, unknown variables): read past, never checked. */
    SKIP("anything", true, 0, true) {
        @Override
        void read(byte[] b, int from, int to, LineFields out, String name) {
            // nothing to keep
        }
    };

    private final String expected;
    private final boolean text;
    private final int width;
    private final boolean optionalAtEnd;

    FieldKind(String expected, boolean text, int width, boolean optionalAtEnd) {
        this.expected = expected;
        this.text = text;
        this.width = width;
        this.optionalAtEnd = optionalAtEnd;
    }

    /**
     * Reads the field in {@code b[from, to)} into {@code out}.
     *
     * @param name the field as the format wrote it, for messages
     */
    abstract void read(byte[] b, int from, int to, LineFields out, String name) throws BadLineException;

    /** What a value of this kind looks like, for messages. */
    String expected() {
        return expected;
    }

    boolean text() {
        return text;
    }

    /** The fixed length of every value, or 0 when it varies. */
    int width() {
        return width;
    }

    boolean optionalAtEnd() {
        return optionalAtEnd;
    }

    /** Whether values are lists whose separators ({@code ", "}, {@code " : "}) hold spaces. */
    boolean list() {
        return this == UPSTREAM_SECONDS || this == SKIP_LIST;
    }

    boolean isTime() {
        return this == TIME_LOCAL || this == TIME_BRACKETED || this == TIME_ISO8601 || this == EPOCH_SECONDS
                || this == EPOCH_MILLIS || this == EPOCH_MICROS;
    }

    BadLineException bad(String reason, byte[] b, int from, int to, String name) {
        return new BadLineException(reason, "'" + LogText.excerpt(b, from, to) + "' is not a " + name + "; expected " + expected);
    }

    final void epoch(byte[] b, int from, int to, LineFields out, String name, double unitMillis) throws BadLineException {
        long millis = LogTime.epoch(b, from, to, unitMillis);
        if (millis == LogTime.INVALID) {
            throw bad("bad time", b, from, to, name);
        }
        out.time(millis, 0);
    }

    final long size(byte[] b, int from, int to, String name) throws BadLineException {
        if (LogText.isDash(b, from, to)) {
            return -1;
        }
        if (to == from || to - from > 18 || !allDigits(b, from, to)) {
            throw bad("bad size", b, from, to, name);
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            value = value * 10 + (b[i] - '0');
        }
        return value;
    }

    /** Milliseconds of a duration in units of {@code unitMillis}; NaN for {@code -}. */
    final double duration(byte[] b, int from, int to, String name, double unitMillis) throws BadLineException {
        if (LogText.isDash(b, from, to)) {
            return Double.NaN;
        }
        // a unit below a millisecond divides, so that 153 microseconds are exactly 153 / 1000.0
        double millis = unitMillis >= 1 ? LogTime.decimal(b, from, to, unitMillis)
                : LogTime.decimal(b, from, to) / Math.round(1 / unitMillis);
        if (Double.isNaN(millis)) {
            throw bad("bad duration", b, from, to, name);
        }
        return millis;
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean allDigits(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!digit(b[i])) {
                return false;
            }
        }
        return true;
    }
}
