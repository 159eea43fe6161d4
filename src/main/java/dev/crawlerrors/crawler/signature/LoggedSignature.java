package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.ingest.SignatureFields;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A signed request as its log line holds it, unparsed: its three signature fields and the parts a
 * signature base is rebuilt from. An import keeps this much of a signed line and no more; parsing
 * the fields, rebuilding the base and every check are left to whoever settles it ({@link
 * SignedHits#settle}), off the reader's path, so a line signed costs the reader about what one
 * unsigned does.
 *
 * @param id a name for this request alone: a SHA-256 of the address and every part (its claim's
 *           group, and its store row's key); a weaker digest would let a forged line share a genuine one's claim
 */
public record LoggedSignature(SignatureFields fields, String method, String host, String target, long requestMillis,
        double durationMs, String id) {

    public LoggedSignature(String ip, SignatureFields fields, String method, String host, String target, long requestMillis,
            double durationMs) {
        this(fields, method, host, target, requestMillis, durationMs, idOf(ip, fields, method, host, target, requestMillis));
    }

    /** The request's parts in one text, for the store: each part its length, a colon, then itself ({@code -1:} for none). */
    public String encoded() {
        StringBuilder text = new StringBuilder(512);
        for (String part : parts()) {
            if (part == null) {
                text.append("-1:");
            } else {
                text.append(part.length()).append(':').append(part);
            }
        }
        return text.toString();
    }

    /**
     * The request {@link #encoded} wrote, made at {@code requestMillis}, named {@code id}.
     *
     * @throws IllegalArgumentException when {@code text} is not what {@link #encoded} writes
     */
    public static LoggedSignature decoded(String text, long requestMillis, String id) {
        List<String> parts = new ArrayList<>(7);
        int at = 0;
        while (at < text.length()) {
            int colon = text.indexOf(':', at);
            if (colon < 0) {
                throw new IllegalArgumentException("a kept signed request is cut short");
            }
            int length = Integer.parseInt(text, at, colon, 10);
            if (length < 0) {
                parts.add(null);
                at = colon + 1;
            } else {
                parts.add(text.substring(colon + 1, colon + 1 + length));
                at = colon + 1 + length;
            }
        }
        if (parts.size() != 7) {
            throw new IllegalArgumentException("a kept signed request has " + parts.size() + " parts, not 7");
        }
        SignatureFields fields = new SignatureFields(parts.get(0), parts.get(1), parts.get(2));
        double duration = parts.get(6) == null ? Double.NaN : Double.parseDouble(parts.get(6));
        return new LoggedSignature(fields, parts.get(3), parts.get(4), parts.get(5), requestMillis, duration, id);
    }

    /**
     * The request as a store row keeps it ({@link #kept}): what varies from request to request in
     * {@code text}, and what a signer sends alike on every request in {@code form} (kept once, by
     * its {@code formId}); {@code form} null when the request has no Signature-Input, {@code text}
     * then what {@link #encoded} writes.
     */
    public record Kept(String text, String formId, String form) {
    }

    /**
     * The request in two parts ({@link Kept}): its Signature-Agent and its Signature-Input without the
     * values of {@code created}, {@code expires} and {@code nonce} are the form, the same for every
     * request a signer sends with one key; the signature, those values, the method, host, target and
     * duration are the row's text. A signed line's row holds less than half of what {@link
     * #encoded} does (some 220 bytes against 470 for ChatGPT agent's). Each part is cut where its
     * parameter's value is, whatever it holds, so any Signature-Input reads back as logged ({@link #decoded(String, String, long, String)}).
     */
    public Kept kept() {
        String input = fields.signatureInput();
        if (input == null) {
            return new Kept(encoded(), null, null);
        }
        int params = input.indexOf(')');
        int[] starts = new int[VARYING.length];
        int[] ends = new int[VARYING.length];
        int cuts = 0;
        if (params >= 0) {
            for (String name : VARYING) {
                int at = input.indexOf(name, params);
                if (at < 0) {
                    continue;
                }
                int start = at + name.length();
                int end = input.indexOf(';', start);
                starts[cuts] = start;
                ends[cuts] = end < 0 ? input.length() : end;
                cuts++;
            }
        }
        // in order of place (the parameters may come in any): the cuts never overlap, each ends at the next ';'
        for (int i = 1; i < cuts; i++) {
            for (int j = i; j > 0 && starts[j - 1] > starts[j]; j--) {
                int s = starts[j];
                starts[j] = starts[j - 1];
                starts[j - 1] = s;
                int e = ends[j];
                ends[j] = ends[j - 1];
                ends[j - 1] = e;
            }
        }
        StringBuilder text = new StringBuilder(256);
        appendPart(text, fields.signature());
        for (int i = 0; i < cuts; i++) {
            appendPart(text, input.substring(starts[i], ends[i]));
        }
        appendPart(text, method);
        appendPart(text, host);
        appendPart(text, target);
        appendPart(text, Double.isNaN(durationMs) ? null : Double.toString(durationMs));
        Form known = LAST_FORM.get();
        if (known == null || !known.fits(fields.signatureAgent(), input, starts, ends, cuts)) {
            StringBuilder cut = new StringBuilder(input.length());
            StringBuilder places = new StringBuilder(16);
            int from = 0;
            for (int i = 0; i < cuts; i++) {
                cut.append(input, from, starts[i]);
                if (i > 0) {
                    places.append(',');
                }
                places.append(cut.length());
                from = ends[i];
            }
            cut.append(input, from, input.length());
            known = Form.of(fields.signatureAgent(), cut.toString(), places.toString());
            LAST_FORM.set(known);
        }
        return new Kept(text.toString(), known.id(), known.text());
    }

    /**
     * The form each thread that keeps requests met last: a signer's lines share one, so a line's form
     * is told by comparing it with this one's parts, not by writing it out and looking it up.
     */
    private static final ThreadLocal<Form> LAST_FORM = new ThreadLocal<>();

    /** The parameters of a Signature-Input whose values differ from request to request. */
    private static final String[] VARYING = {";created=", ";expires=", ";nonce="};

    /**
     * A form ({@link Kept#form}) and its name: a SHA-256 of it, so no other form can take its name;
     * with its parts: the Signature-Agent, the Signature-Input without the values cut ({@code cut}),
     * and where in it each value goes.
     */
    private record Form(String id, String text, String agent, String cut, int[] places) {

        /** Whether {@code input}, with the values between {@code starts} and {@code ends} cut, and {@code agent} are this form. */
        boolean fits(String agent, String input, int[] starts, int[] ends, int cuts) {
            if (cuts != places.length || !java.util.Objects.equals(agent, this.agent)
                    || input.length() - cutLength(starts, ends, cuts) != cut.length()) {
                return false;
            }
            int from = 0;
            int at = 0;
            for (int i = 0; i < cuts; i++) {
                int length = starts[i] - from;
                if (places[i] != at + length || !input.regionMatches(from, cut, at, length)) {
                    return false;
                }
                at += length;
                from = ends[i];
            }
            return input.regionMatches(from, cut, at, input.length() - from);
        }

        private static int cutLength(int[] starts, int[] ends, int cuts) {
            int length = 0;
            for (int i = 0; i < cuts; i++) {
                length += ends[i] - starts[i];
            }
            return length;
        }

        static Form of(String agent, String cut, String places) {
            StringBuilder form = new StringBuilder(cut.length() + 64);
            appendPart(form, agent);
            appendPart(form, cut);
            appendPart(form, places);
            Form known = of(form.toString());
            int[] at = places.isEmpty() ? new int[0] : java.util.Arrays.stream(places.split(",")).mapToInt(Integer::parseInt).toArray();
            return new Form(known.id(), known.text(), agent, cut, at);
        }

        /** The forms met, each named once: a signer sends one form for every request it signs with a key. */
        private static final java.util.Map<String, Form> KNOWN = new java.util.concurrent.ConcurrentHashMap<>();
        /** Forms remembered, at most: anyone may send any. */
        private static final int MAX_KNOWN = 1_000;

        static Form of(String text) {
            Form known = KNOWN.get(text);
            if (known == null) {
                if (KNOWN.size() >= MAX_KNOWN) {
                    KNOWN.clear();
                }
                MessageDigest sha = SHA_256.get();
                sha.reset();
                byte[] digest = sha.digest(text.getBytes(StandardCharsets.UTF_8));
                known = new Form("f" + Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 16)), text,
                        null, null, null);
                KNOWN.put(text, known);
            }
            return known;
        }
    }

    private static void appendPart(StringBuilder text, String part) {
        if (part == null) {
            text.append("-1:");
        } else {
            text.append(part.length()).append(':').append(part);
        }
    }

    /**
     * The request {@link #kept} wrote as {@code text} and {@code form} (null: what {@link #encoded}
     * wrote, as a store of an older version kept every request), made at {@code requestMillis}, named {@code id}.
     *
     * @throws IllegalArgumentException when they are not what {@link #kept} writes
     */
    public static LoggedSignature decoded(String text, String form, long requestMillis, String id) {
        if (form == null) {
            return decoded(text, requestMillis, id);
        }
        List<String> shape = parts(form);
        if (shape.size() != 3 || shape.get(1) == null || shape.get(2) == null) {
            throw new IllegalArgumentException("a kept signature's form has " + shape.size() + " parts, not 3");
        }
        String cut = shape.get(1);
        String[] places = shape.get(2).isEmpty() ? new String[0] : shape.get(2).split(",", -1);
        List<String> parts = parts(text);
        if (parts.size() != places.length + 5) {
            throw new IllegalArgumentException("a kept signed request has " + parts.size() + " parts, not " + (places.length + 5));
        }
        StringBuilder input = new StringBuilder(cut.length() + 96);
        int from = 0;
        for (int i = 0; i < places.length; i++) {
            int place = Integer.parseInt(places[i]);
            if (place < from || place > cut.length() || parts.get(1 + i) == null) {
                throw new IllegalArgumentException("a kept signature's form does not fit its request");
            }
            input.append(cut, from, place).append(parts.get(1 + i));
            from = place;
        }
        input.append(cut, from, cut.length());
        int rest = 1 + places.length;
        SignatureFields fields = new SignatureFields(parts.get(0), input.toString(), shape.get(0));
        String duration = parts.get(rest + 3);
        return new LoggedSignature(fields, parts.get(rest), parts.get(rest + 1), parts.get(rest + 2), requestMillis,
                duration == null ? Double.NaN : Double.parseDouble(duration), id);
    }

    /** The parts of a text {@link #appendPart} wrote. */
    private static List<String> parts(String text) {
        List<String> parts = new ArrayList<>(8);
        int at = 0;
        while (at < text.length()) {
            int colon = text.indexOf(':', at);
            if (colon < 0) {
                throw new IllegalArgumentException("a kept signed request is cut short");
            }
            int length = Integer.parseInt(text, at, colon, 10);
            if (length < 0) {
                parts.add(null);
                at = colon + 1;
            } else {
                if (colon + 1 + length > text.length()) {
                    throw new IllegalArgumentException("a kept signed request is cut short");
                }
                parts.add(text.substring(colon + 1, colon + 1 + length));
                at = colon + 1 + length;
            }
        }
        return parts;
    }

    /** The request as a signature base is rebuilt from. */
    public SignedRequest request() {
        return SignedRequest.of(method, host, target, fields.signatureAgent());
    }

    private List<String> parts() {
        List<String> parts = new ArrayList<>(7);
        parts.add(fields.signature());
        parts.add(fields.signatureInput());
        parts.add(fields.signatureAgent());
        parts.add(method);
        parts.add(host);
        parts.add(target);
        parts.add(Double.isNaN(durationMs) ? null : Double.toString(durationMs));
        return parts;
    }

    /**
     * A SHA-256 digest for each thread that names requests, used again for each: looking one up by
     * name for every line made the JIT compile the JDK's provider lookup (about a second of the C2
     * compiler's time in a 50,000-line signed import) and cost the lookup itself on every line.
     */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private static String idOf(String ip, SignatureFields fields, String method, String host, String target, long requestMillis) {
        MessageDigest sha = SHA_256.get();
        sha.reset();
        for (String part : new String[] {ip, fields.signature(), fields.signatureInput(), fields.signatureAgent(), method, host, target}) {
            if (part != null) {
                sha.update(part.getBytes(StandardCharsets.UTF_8));
            }
            sha.update((byte) 0);
        }
        sha.update(Long.toString(requestMillis).getBytes(StandardCharsets.US_ASCII));
        return "r" + Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(sha.digest(), 16));
    }
}
