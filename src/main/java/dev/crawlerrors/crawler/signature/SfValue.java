package dev.crawlerrors.crawler.signature;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The values of an HTTP structured field (RFC 8941): a dictionary's or list's members are items or
 * inner lists, each with parameters; an item's bare value is a {@code Long} (integer), a
 * {@code BigDecimal} (decimal), a {@code String} (string), a {@link Token}, a {@link Bytes} or a
 * {@code Boolean}. Parameters keep their order ({@code LinkedHashMap}), as serialization needs it.
 */
public final class SfValue {

    private SfValue() {
    }

    /** A dictionary's or list's member: an item or an inner list, with its parameters. */
    public sealed interface Member permits Item, InnerList {
        Map<String, Object> params();
    }

    /** A bare value with its parameters. */
    public record Item(Object value, Map<String, Object> params) implements Member {
    }

    /** An inner list: items in parentheses, with the list's own parameters. */
    public record InnerList(List<Item> items, Map<String, Object> params) implements Member {
    }

    /** A token: a bare word such as {@code directory}. */
    public record Token(String name) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A byte sequence ({@code :base64:}), compared by content. */
    public record Bytes(byte[] bytes) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Bytes b && Arrays.equals(bytes, b.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return ":" + java.util.Base64.getEncoder().encodeToString(bytes) + ":";
        }
    }
}
