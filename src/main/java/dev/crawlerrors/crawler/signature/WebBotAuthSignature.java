package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.ingest.SignatureFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One Web Bot Auth signature of a request, read from its three fields: the {@code Signature-Input}
 * member tagged {@code web-bot-auth} (its covered components and parameters), the
 * {@code Signature} member of the same label, and the {@code Signature-Agent} member it covers,
 * which names the signer's directory. The draft lets a request carry several; each is checked on
 * its own.
 *
 * @param label     the signature's label ({@code sig1})
 * @param params    the covered components and the parameters, as parsed
 * @param signature the signature's bytes; null when the Signature field has none for this label
 * @param agent     the signer's origin; null when it cannot be told ({@link #agentProblem} says why)
 * @param agentProblem why no signer can be told from Signature-Agent, in words; null when {@link #agent} is known
 */
public record WebBotAuthSignature(String label, SfValue.InnerList params, byte[] signature, SignerOrigin agent, String agentProblem) {

    public static final String TAG = "web-bot-auth";

    /** The signature's {@code keyid}, or null. */
    public String keyid() {
        return params.params().get("keyid") instanceof String keyid ? keyid : null;
    }

    /** The signature's {@code alg}, or null. */
    public String alg() {
        return params.params().get("alg") instanceof String alg ? alg : null;
    }

    /** A time parameter ({@code created}, {@code expires}) in seconds since the epoch, or null. */
    public Long time(String name) {
        return params.params().get(name) instanceof Long seconds ? seconds : null;
    }

    /**
     * The request's Web Bot Auth signatures, in the order of its Signature-Input; empty when none
     * is tagged {@code web-bot-auth}.
     *
     * @throws MalformedFieldException when a field is not the structured field it must be
     */
    public static List<WebBotAuthSignature> read(SignatureFields fields) throws MalformedFieldException {
        if (fields.signatureInput() == null) {
            return List.of();
        }
        Map<String, SfValue.Member> inputs = StructuredFieldParser.dictionary("Signature-Input", fields.signatureInput());
        List<WebBotAuthSignature> signatures = new ArrayList<>();
        Map<String, SfValue.Member> values = null;
        for (Map.Entry<String, SfValue.Member> input : inputs.entrySet()) {
            if (!(input.getValue() instanceof SfValue.InnerList params) || !TAG.equals(params.params().get("tag"))) {
                continue;
            }
            if (values == null) {
                values = fields.signature() == null ? Map.of() : StructuredFieldParser.dictionary("Signature", fields.signature());
            }
            byte[] bytes = values.get(input.getKey()) instanceof SfValue.Item item && item.value() instanceof SfValue.Bytes b ? b.bytes() : null;
            Agent agent = agent(fields.signatureAgent(), params);
            signatures.add(new WebBotAuthSignature(input.getKey(), params, bytes, agent.origin, agent.problem));
        }
        return signatures;
    }

    private record Agent(SignerOrigin origin, String problem) {
    }

    /**
     * The origin of the Signature-Agent member this signature covers: {@code "signature-agent";key="x"}
     * names member x of the dictionary; a bare {@code "signature-agent"} covers the legacy form, a
     * lone string. The draft forbids attributing a signature to a member it does not cover.
     */
    private static Agent agent(String field, SfValue.InnerList params) {
        SfValue.Item covered = null;
        for (SfValue.Item component : params.items()) {
            if ("signature-agent".equals(component.value())) {
                covered = component;
                break;
            }
        }
        if (covered == null) {
            return new Agent(null, "the signature does not cover Signature-Agent, so no signer's directory can be attributed to it");
        }
        if (field == null) {
            return new Agent(null, "the log holds no Signature-Agent, which the signature covers");
        }
        SfValue.Member member;
        try {
            if (covered.params().get("key") instanceof String key) {
                member = StructuredFieldParser.dictionary("Signature-Agent", field).get(key);
                if (member == null) {
                    return new Agent(null, "Signature-Agent has no member " + key + ", which the signature covers");
                }
            } else {
                member = StructuredFieldParser.item("Signature-Agent", field);
            }
        } catch (MalformedFieldException e) {
            return new Agent(null, e.getMessage());
        }
        if (!(member instanceof SfValue.Item item) || !(item.value() instanceof String uri)) {
            return new Agent(null, "the Signature-Agent member the signature covers is not a quoted URI");
        }
        Object type = item.params().get("type");
        if (type != null && !(type instanceof SfValue.Token token && token.name().equals("directory"))) {
            return new Agent(null, "Signature-Agent names its keys by type " + type + "; only the directory type is read");
        }
        try {
            return new Agent(SignerOrigin.parse(uri), null);
        } catch (SignerOrigin.InvalidException e) {
            return new Agent(null, e.getMessage());
        }
    }
}
