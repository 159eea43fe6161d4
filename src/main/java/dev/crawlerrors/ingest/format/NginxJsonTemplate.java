package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.format.JsonLineParser.Key;
import dev.crawlerrors.ingest.format.JsonLineParser.Target;
import dev.crawlerrors.ingest.format.JsonLineParser.Unit;
import java.util.HashMap;
import java.util.Map;

/**
 * Compiles an nginx {@code log_format ... escape=json} template into the keys a {@link
 * JsonLineParser} reads: each key named in the template means the nginx variable written into it,
 * whatever the key is called, so a template of one's own is read as exactly as the usual key names.
 */
final class NginxJsonTemplate {

    private NginxJsonTemplate() {
    }

    /**
     * The keys of the JSON an nginx {@code escape=json} template writes, each read as the variable
     * the template puts in it ({@code "ua":"$http_user_agent"}).
     *
     * @throws IllegalArgumentException when the template lacks a time, status, request or client
     */
    static Map<String, Key> keys(String template) {
        Map<String, Key> keys = new HashMap<>();
        int i = 0;
        while (true) {
            int keyStart = template.indexOf('"', i);
            if (keyStart < 0) {
                break;
            }
            int keyEnd = template.indexOf('"', keyStart + 1);
            if (keyEnd < 0) {
                break;
            }
            int p = skipSpaces(template, keyEnd + 1);
            if (p >= template.length() || template.charAt(p) != ':') {
                i = keyEnd + 1;
                continue;
            }
            p = skipSpaces(template, p + 1);
            boolean quoted = p < template.length() && template.charAt(p) == '"';
            int var = quoted ? p + 1 : p;
            if (var < template.length() && template.charAt(var) == '$') {
                int end = var + 1;
                while (end < template.length() && (Character.isLetterOrDigit(template.charAt(end)) || template.charAt(end) == '_')) {
                    end++;
                }
                Key key = fromVariable(NginxFormat.variable(template.substring(var + 1, end)));
                if (key != null) {
                    keys.put(template.substring(keyStart + 1, keyEnd), key);
                }
                i = end;
            } else {
                i = var;
            }
            if (quoted) {
                // past the value's closing quote, so the next quote found opens a key
                int close = template.indexOf('"', i);
                i = close < 0 ? template.length() : close + 1;
            }
        }
        requireTarget(keys, "a time: $time_iso8601, $time_local or $msec", Target.TIME);
        requireTarget(keys, "$status", Target.STATUS);
        requireTarget(keys, "the request: $request, $request_uri or $uri", Target.REQUEST, Target.URI, Target.PATH);
        requireTarget(keys, "the client address: $remote_addr", Target.CLIENT, Target.FORWARDED);
        return Map.copyOf(keys);
    }

    private static void requireTarget(Map<String, Key> keys, String what, Target... targets) {
        for (Key key : keys.values()) {
            for (Target target : targets) {
                if (key.target() == target) {
                    return;
                }
            }
        }
        throw new IllegalArgumentException("the nginx JSON format has no key for " + what + "; the report needs it");
    }

    private static Key fromVariable(FieldKind kind) {
        return switch (kind) {
            case CLIENT -> new Key(Target.CLIENT, 2, Unit.NONE);
            case FORWARDED_FOR -> new Key(Target.FORWARDED, 2, Unit.NONE);
            case CONNECTING_IP -> new Key(Target.FORWARDED, 1, Unit.NONE);
            case TIME_LOCAL, TIME_ISO8601, EPOCH_SECONDS -> new Key(Target.TIME, 2, Unit.NONE);
            case REQUEST -> new Key(Target.REQUEST, 2, Unit.NONE);
            case METHOD -> new Key(Target.METHOD, 2, Unit.NONE);
            case REQUEST_URI -> new Key(Target.URI, 2, Unit.NONE);
            case PATH -> new Key(Target.PATH, 2, Unit.NONE);
            case ARGS -> new Key(Target.QUERY, 2, Unit.NONE);
            case STATUS -> new Key(Target.STATUS, 2, Unit.NONE);
            case BODY_BYTES -> new Key(Target.BYTES, 3, Unit.NONE);
            case BYTES_SENT -> new Key(Target.BYTES, 2, Unit.NONE);
            case REFERER -> new Key(Target.REFERER, 2, Unit.NONE);
            case USER_AGENT -> new Key(Target.AGENT, 2, Unit.NONE);
            case HOST -> new Key(Target.HOST, 2, Unit.WITH_PORT);
            case SECONDS -> new Key(Target.DURATION, 3, Unit.SECONDS);
            case UPSTREAM_SECONDS -> new Key(Target.DURATION, 1, Unit.SECONDS);
            case LOCATION -> new Key(Target.LOCATION, 2, Unit.NONE);
            case SIGNATURE -> new Key(Target.SIGNATURE, 2, Unit.NONE);
            case SIGNATURE_INPUT -> new Key(Target.SIGNATURE_INPUT, 2, Unit.NONE);
            case SIGNATURE_AGENT -> new Key(Target.SIGNATURE_AGENT, 2, Unit.NONE);
            default -> null;
        };
    }

    private static int skipSpaces(String s, int p) {
        while (p < s.length() && Character.isWhitespace(s.charAt(p))) {
            p++;
        }
        return p;
    }
}
