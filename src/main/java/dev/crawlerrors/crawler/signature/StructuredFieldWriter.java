package dev.crawlerrors.crawler.signature;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Base64;
import java.util.Map;

/**
 * Writes structured-field values back as RFC 8941 section 4.1 serializes them: what a signature
 * base holds for {@code @signature-params} and for a component named with parameters
 * ({@code "signature-agent";key="agent1"}) is the serialization of the parsed value, not the text
 * the client sent, so a verifier and a signer agree whatever spaces the field had.
 */
public final class StructuredFieldWriter {

    private StructuredFieldWriter() {
    }

    /** A member as it serializes on its own: an item, or an inner list, with its parameters. */
    public static String member(SfValue.Member member) {
        StringBuilder out = new StringBuilder();
        member(out, member);
        return out.toString();
    }

    static void member(StringBuilder out, SfValue.Member member) {
        if (member instanceof SfValue.InnerList list) {
            out.append('(');
            for (int i = 0; i < list.items().size(); i++) {
                if (i > 0) {
                    out.append(' ');
                }
                item(out, list.items().get(i));
            }
            out.append(')');
            params(out, list.params());
        } else {
            item(out, (SfValue.Item) member);
        }
    }

    static void item(StringBuilder out, SfValue.Item item) {
        bare(out, item.value());
        params(out, item.params());
    }

    /** Parameters: {@code ;key} for a true boolean, {@code ;key=value} otherwise, in their order. */
    public static void params(StringBuilder out, Map<String, Object> params) {
        for (Map.Entry<String, Object> param : params.entrySet()) {
            out.append(';').append(param.getKey());
            if (!Boolean.TRUE.equals(param.getValue())) {
                out.append('=');
                bare(out, param.getValue());
            }
        }
    }

    /** A bare value: an integer, a decimal (three fraction digits at most), a quoted string, a token, bytes or a boolean. */
    public static void bare(StringBuilder out, Object value) {
        switch (value) {
            case Long n -> out.append(n);
            case Integer n -> out.append(n);
            case BigDecimal d -> {
                BigDecimal rounded = d.setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
                String text = rounded.toPlainString();
                out.append(text.contains(".") ? text : text + ".0");
            }
            case String s -> {
                out.append('"');
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    if (c == '"' || c == '\\') {
                        out.append('\\');
                    }
                    out.append(c);
                }
                out.append('"');
            }
            case SfValue.Token t -> out.append(t.name());
            case SfValue.Bytes b -> out.append(':').append(Base64.getEncoder().encodeToString(b.bytes())).append(':');
            case Boolean b -> out.append(b ? "?1" : "?0");
            default -> throw new IllegalArgumentException("not a structured-field value: " + value);
        }
    }
}
