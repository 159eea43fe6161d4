package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SignatureFields;
import dev.crawlerrors.ingest.SignatureShape;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the fields of one line said, as offsets into the line and parsed numbers: the scratch a
 * {@link FieldLineParser} fills, one per parser (so one per thread), reset for every line. Only
 * {@link #hit} builds strings, after the agent filter has kept the line.
 *
 * <p>Where a format carries the same thing twice (a request line and {@code $request_uri},
 * {@code $request_time} and {@code $upstream_response_time}), the more exact one wins: the URL
 * is built from the request line, else the request URI, else path and query; sizes and durations
 * are set with a rank, and the highest is kept.
 */
final class LineFields {

    static final int NONE = -1;

    int clientFrom;
    int clientTo;
    /** The client field as the format names it, for messages. */
    String clientName;
    int forwardedFrom;
    int forwardedTo;
    int connectingFrom;
    int connectingTo;
    boolean hasTime;
    long epochMillis;
    int offsetMinutes;
    int requestFrom;
    int requestTo;
    int methodFrom;
    int methodTo;
    int uriFrom;
    int uriTo;
    int pathFrom;
    int pathTo;
    int queryFrom;
    int queryTo;
    int status;
    long bytes;
    int bytesRank;
    int refererFrom;
    int refererTo;
    int agentFrom;
    int agentTo;
    double durationMs;
    int durationRank;
    int hostFrom;
    int hostTo;
    int signatureFrom;
    int signatureTo;
    int signatureInputFrom;
    int signatureInputTo;
    int signatureAgentFrom;
    int signatureAgentTo;
    /** Where {@link #signatureFields} unescapes a signed line's fields, grown to the longest met up to {@link #SCRATCH_MAX}. */
    private byte[] signatureScratch = new byte[1024];
    /**
     * The most a line's three signature fields may take to be written straight into their text: some
     * 400 bytes as agents send them; longer ones (a hostile header) are read as text, so no parser keeps
     * a line's worth of scratch.
     */
    static final int SCRATCH_MAX = 64 * 1024;
    /** The Signature-Agent of this parser's last signed line, as read and as text: a signer sends the same one with every request. */
    private byte[] lastAgent = new byte[0];
    private String lastAgentText;
    /** The longest Signature-Agent kept as {@link #lastAgent}: an agent names its directory in a few dozen bytes. */
    static final int AGENT_KEPT_MAX = 256;
    /** Makes a signed line's short text (a signer's lines share one shape). */
    private final SignatureShape.Maker shapes = new SignatureShape.Maker();
    int locationFrom;
    int locationTo;

    LineFields() {
        reset();
    }

    void reset() {
        clientFrom = NONE;
        forwardedFrom = NONE;
        connectingFrom = NONE;
        hasTime = false;
        requestFrom = NONE;
        methodFrom = NONE;
        uriFrom = NONE;
        pathFrom = NONE;
        queryFrom = NONE;
        status = NONE;
        bytes = NONE;
        bytesRank = 0;
        refererFrom = NONE;
        agentFrom = NONE;
        durationMs = Double.NaN;
        durationRank = 0;
        hostFrom = NONE;
        signatureFrom = NONE;
        signatureInputFrom = NONE;
        signatureAgentFrom = NONE;
        locationFrom = NONE;
    }

    /** Whether the line carries a Web Bot Auth signature's fields: it is an agent's whatever its user agent says. */
    boolean signed() {
        return signatureInputFrom != NONE || signatureAgentFrom != NONE;
    }

    void time(long epochMillis, int offsetMinutes) {
        this.hasTime = true;
        this.epochMillis = epochMillis;
        this.offsetMinutes = offsetMinutes;
    }

    void bytes(long value, int rank) {
        if (rank > bytesRank) {
            bytes = value;
            bytesRank = rank;
        }
    }

    void duration(double millis, int rank) {
        if (!Double.isNaN(millis) && rank > durationRank) {
            durationMs = millis;
            durationRank = rank;
        }
    }

    /**
     * The hit these fields describe. The client is the address the server saw, whatever its range:
     * a forwarded header is what the sender claims unless the sender is a proxy the user named
     * ({@code --trusted-proxies}), so the field only goes with the hit for the verifier to judge.
     * Only a format that records no address of its own takes the last X-Forwarded-For entry (or the
     * CF-Connecting-IP / True-Client-IP address) as the client.
     */
    Hit hit(byte[] b) throws BadLineException {
        String ip = null;
        if (clientFrom != NONE) {
            // only addresses: checked here, for the lines the agent filter kept (CombinedLineParser#checkAddress says why)
            if (!AddressText.isAddress(b, clientFrom, clientTo)) {
                throw FieldKind.CLIENT.bad("no client address", b, clientFrom, clientTo, clientName);
            }
            boolean bracketed = b[clientFrom] == '[';
            ip = bracketed ? ascii(b, clientFrom + 1, clientTo - 1) : ascii(b, clientFrom, clientTo);
        }
        String forwardedFor = forwardedFrom != NONE ? LogText.text(b, forwardedFrom, forwardedTo)
                : connectingFrom != NONE ? LogText.text(b, connectingFrom, connectingTo) : null;
        if (forwardedFor != null && ip == null) {
            String forwarded = ClientAddress.lastForwarded(forwardedFor);
            if (forwarded != null) {
                ip = forwarded;
            }
        }
        String method;
        if (methodFrom != NONE) {
            method = LogText.text(b, methodFrom, methodTo);
        } else if (requestFrom != NONE) {
            method = LogText.requestMethod(b, requestFrom, requestTo);
        } else {
            method = "";
        }
        String url;
        if (requestFrom != NONE) {
            url = LogText.requestUrl(b, requestFrom, requestTo);
        } else if (uriFrom != NONE) {
            url = LogText.text(b, uriFrom, uriTo);
        } else {
            String path = pathFrom == NONE ? "" : LogText.text(b, pathFrom, pathTo);
            url = queryFrom == NONE ? path : path + '?' + LogText.text(b, queryFrom, queryTo);
        }
        SignatureFields signed = signatureFrom == NONE && !signed() ? null : signatureFields(b);
        return new Hit(epochMillis, offsetMinutes, ip, method, url, status, bytes,
                agentOrReferer(b, refererFrom, refererTo), agentOrReferer(b, agentFrom, agentTo), durationMs,
                hostFrom == NONE ? null : LogText.dashIsNull(b, hostFrom, hostTo), forwardedFor,
                locationFrom == NONE ? null : LogText.dashIsNull(b, locationFrom, locationTo), signed);
    }

    /**
     * The line's signature fields ({@link SignatureFields#of}'s, null when it records none): their text
     * written straight from the line when every field is ASCII, as they are (the store keeps that text
     * while the signature waits, and an import reads no field of it but the Signature-Agent); else
     * each field as text.
     */
    SignatureFields signatureFields(byte[] b) {
        // unescaping never lengthens a field
        int need = span(signatureFrom, signatureTo) + span(signatureInputFrom, signatureInputTo) + span(signatureAgentFrom, signatureAgentTo);
        int agentEnd = -1;
        int signatureEnd = -1;
        int inputEnd = -1;
        byte[] scratch = signatureScratch;
        if (need <= SCRATCH_MAX) {
            if (scratch.length < need) {
                scratch = new byte[Math.min(SCRATCH_MAX, Math.max(need, scratch.length * 2))];
                signatureScratch = scratch;
            }
            signatureEnd = asciiField(b, signatureFrom, signatureTo, scratch, 0);
            inputEnd = signatureEnd < 0 ? -1 : asciiField(b, signatureInputFrom, signatureInputTo, scratch, signatureEnd);
            agentEnd = inputEnd < 0 ? -1 : asciiField(b, signatureAgentFrom, signatureAgentTo, scratch, inputEnd);
        }
        if (agentEnd < 0) {
            return SignatureFields.of(
                    signatureFrom == NONE ? null : LogText.text(b, signatureFrom, signatureTo),
                    signatureInputFrom == NONE ? null : LogText.text(b, signatureInputFrom, signatureInputTo),
                    signatureAgentFrom == NONE ? null : LogText.text(b, signatureAgentFrom, signatureAgentTo));
        }
        int signatureLength = signatureEnd;
        int inputLength = inputEnd - signatureEnd;
        int agentLength = agentEnd - inputEnd;
        if (signatureLength == 0 && inputLength == 0 && agentLength == 0) {
            return null;
        }
        // ASCII: a field's length in chars is its length in bytes; an empty one is absent
        int sc = signatureLength == 0 ? -1 : signatureLength;
        int ic = inputLength == 0 ? -1 : inputLength;
        int ac = agentLength == 0 ? -1 : agentLength;
        String agent = ac < 0 ? null : agent(scratch, inputEnd, agentEnd);
        if (sc > 0 && ic > 0 && ac > 0) {
            // the short text the store keeps while the signature waits, made here on the parser's thread
            SignatureFields shortFields = shapes.shorten(scratch, 0, signatureEnd, signatureEnd, inputEnd, inputEnd, agentEnd, agent);
            if (shortFields != null) {
                return shortFields;
            }
        }
        byte[] text = new byte[SignatureFields.fieldSize(sc, signatureLength) + SignatureFields.fieldSize(ic, inputLength)
                + SignatureFields.fieldSize(ac, agentLength)];
        int at = SignatureFields.putField(text, 0, sc, scratch, 0, signatureLength);
        at = SignatureFields.putField(text, at, ic, scratch, signatureEnd, inputLength);
        SignatureFields.putField(text, at, ac, scratch, inputEnd, agentLength);
        return SignatureFields.ofAsciiText(text, agent);
    }

    /**
     * The Signature-Agent in {@code scratch[from, to)} as text: the last line's when the same (the one a
     * signer sends with every request), so an import that asks every line's agent makes none.
     */
    private String agent(byte[] scratch, int from, int to) {
        byte[] last = lastAgent;
        if (Arrays.equals(scratch, from, to, last, 0, last.length)) {
            return lastAgentText;
        }
        String agent = new String(scratch, from, to - from, StandardCharsets.ISO_8859_1);
        if (to - from <= AGENT_KEPT_MAX) {
            lastAgent = Arrays.copyOfRange(scratch, from, to);
            lastAgentText = agent;
        }
        return agent;
    }

    private static int span(int from, int to) {
        return from == NONE ? 0 : to - from;
    }

    /** How much scratch this parser keeps for signature fields. */
    int signatureScratchLength() {
        return signatureScratch.length;
    }

    /**
     * Unescapes {@code b[from, to)} as {@link LogText#text} does into {@code out} at {@code at}: the end
     * it wrote to, {@code at} itself when the field is absent, empty or {@code -} (none, as
     * {@link SignatureFields#of} says), or -1 when a byte is not ASCII.
     */
    private static int asciiField(byte[] b, int from, int to, byte[] out, int at) {
        if (from == NONE) {
            return at;
        }
        int n = LogText.unescapeAscii(b, from, to, out, at);
        if (n < 0) {
            return -1;
        }
        return n == at || (n == at + 1 && out[at] == '-') ? at : n;
    }

    private static String agentOrReferer(byte[] b, int from, int to) {
        return from == NONE ? null : LogText.dashIsNull(b, from, to);
    }

    private static String ascii(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.US_ASCII);
    }
}
