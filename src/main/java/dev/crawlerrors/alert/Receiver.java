package dev.crawlerrors.alert;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Where alerts are sent ({@code --alert-webhook URL}) and in which format. A URL whose path ends in
 * {@code /api/v2/alerts} is an Alertmanager itself: it is posted the alerts as its API takes them,
 * as Prometheus posts them, whatever the format.
 *
 * @param url    an http or https URL
 * @param format what is sent to it
 */
public record Receiver(URI url, AlertFormat format) {

    private static final String ALERTMANAGER_API = "/api/v2/alerts";

    /**
     * The receiver at {@code text}.
     *
     * @throws IllegalArgumentException saying why {@code text} is no webhook's URL
     */
    public static Receiver of(String text, AlertFormat format) {
        URI url;
        try {
            url = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + text + "' is not an http:// or https:// URL (" + e.getReason() + ")");
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null || url.getRawUserInfo() != null) {
            String shown = url.getRawUserInfo() == null ? text : text.replace(url.getRawUserInfo() + "@", "***@");
            throw new IllegalArgumentException("'" + shown + "' is not an http:// or https:// URL with a host"
                    + (url.getRawUserInfo() != null ? " (a user and password in it would be written in the log)" : ""));
        }
        return new Receiver(url, format);
    }

    /** Whether it is an Alertmanager's own API. */
    public boolean alertmanagerApi() {
        return url.getPath() != null && (url.getPath().endsWith(ALERTMANAGER_API) || url.getPath().endsWith(ALERTMANAGER_API + "/"));
    }

    /** How the log and /metrics name it: its scheme, host and port, never its path (a Slack webhook's path is its secret). */
    public String shown() {
        int port = url.getPort() >= 0 ? url.getPort() : url.getScheme().equalsIgnoreCase("https") ? 443 : 80;
        return url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost() + ":" + port;
    }

    /** What the store knows it by: a digest of its URL, which is not kept (it may hold a secret). */
    public String id() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(url.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
