package dev.crawlerrors.crawler.signature;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The signature base of RFC 9421 section 2.5, rebuilt from a logged request: one line per covered
 * component ({@code "@authority": example.com}), then {@code "@signature-params"} with the
 * signature's parameters, serialized. What the log does not hold (a header it did not record, the
 * scheme of an {@code @scheme}) makes the base {@linkplain Problem.Kind#NOT_LOGGED unknown}; what
 * cannot be the request's ({@code "signature-agent";key="x"} when its Signature-Agent has no member
 * x, a component named twice) makes it {@linkplain Problem.Kind#CANNOT_MATCH impossible}.
 */
public final class SignatureBase {

    /** Why a base could not be built. */
    public static final class Problem extends Exception {

        /** Whether the log lacks what the base needs, or the request cannot be what was signed. */
        public enum Kind { NOT_LOGGED, CANNOT_MATCH }

        private final Kind kind;

        Problem(Kind kind, String message) {
            super(message);
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }
    }

    private SignatureBase() {
    }

    /** The base of the signature whose covered components and parameters are {@code params}, over {@code request}. */
    public static byte[] of(SignedRequest request, SfValue.InnerList params) throws Problem {
        StringBuilder base = new StringBuilder(256);
        Set<String> seen = new HashSet<>();
        for (SfValue.Item component : params.items()) {
            if (!(component.value() instanceof String name)) {
                throw new Problem(Problem.Kind.CANNOT_MATCH, "a covered component is " + component.value() + ", not a quoted name");
            }
            String identifier = StructuredFieldWriter.member(component);
            if (!seen.add(identifier)) {
                throw new Problem(Problem.Kind.CANNOT_MATCH, "the signature covers " + identifier + " twice");
            }
            if (name.equals("@signature-params")) {
                throw new Problem(Problem.Kind.CANNOT_MATCH, "the signature covers @signature-params, which only ends a base");
            }
            base.append(identifier).append(": ").append(value(request, name, component.params(), identifier)).append('\n');
        }
        base.append("\"@signature-params\": ").append(StructuredFieldWriter.member(params));
        return base.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String value(SignedRequest request, String name, Map<String, Object> params, String identifier) throws Problem {
        if (params.containsKey("req") || params.containsKey("tr")) {
            throw new Problem(Problem.Kind.NOT_LOGGED, identifier + " names a related request or a trailer, which a log does not hold");
        }
        if (name.startsWith("@")) {
            return derived(request, name, params, identifier);
        }
        if (!name.equals(name.toLowerCase(java.util.Locale.ROOT))) {
            throw new Problem(Problem.Kind.CANNOT_MATCH, identifier + " is not a lower-case field name");
        }
        String value = request.fields().get(name);
        if (value == null) {
            throw new Problem(Problem.Kind.NOT_LOGGED, "the log does not hold the " + name + " header, which the signature covers");
        }
        value = value.strip();
        Object key = params.get("key");
        if (key != null) {
            return member(name, value, key, identifier);
        }
        if (params.containsKey("sf")) {
            try {
                return StructuredFieldWriter.member(StructuredFieldParser.item(name, value));
            } catch (MalformedFieldException e) {
                throw new Problem(Problem.Kind.CANNOT_MATCH, e.getMessage());
            }
        }
        if (params.containsKey("bs")) {
            return new SfValue.Bytes(value.getBytes(StandardCharsets.ISO_8859_1)).toString();
        }
        return value;
    }

    /** The serialized member {@code key} of the dictionary field {@code name} (RFC 9421 section 2.1.2). */
    private static String member(String name, String value, Object key, String identifier) throws Problem {
        if (!(key instanceof String memberKey)) {
            throw new Problem(Problem.Kind.CANNOT_MATCH, identifier + " has a key that is not a string");
        }
        Map<String, SfValue.Member> dictionary;
        try {
            dictionary = StructuredFieldParser.dictionary(name, value);
        } catch (MalformedFieldException e) {
            throw new Problem(Problem.Kind.CANNOT_MATCH, e.getMessage());
        }
        SfValue.Member member = dictionary.get(memberKey);
        if (member == null) {
            throw new Problem(Problem.Kind.CANNOT_MATCH, "the logged " + name + " has no member " + memberKey + ", which the signature covers");
        }
        return StructuredFieldWriter.member(member);
    }

    private static String derived(SignedRequest request, String name, Map<String, Object> params, String identifier) throws Problem {
        String value = switch (name) {
            case "@method" -> request.method() == null || request.method().isEmpty() ? null : request.method();
            case "@authority" -> request.authority();
            case "@scheme" -> SignedRequest.SCHEME;
            case "@target-uri" -> request.targetUri();
            case "@request-target" -> request.target();
            case "@path" -> request.path();
            case "@query" -> request.query();
            case "@query-param" -> QueryParameter.value(request.query(), params, identifier);
            case "@status" -> throw new Problem(Problem.Kind.CANNOT_MATCH, "a request's signature cannot cover @status");
            default -> throw new Problem(Problem.Kind.NOT_LOGGED, identifier + " is not a component this tool can rebuild from a log");
        };
        if (value == null) {
            throw new Problem(Problem.Kind.NOT_LOGGED, "the log does not hold the " + (name.equals("@method") ? "method" : "host or target")
                    + " that " + identifier + " needs");
        }
        return value;
    }
}
