package dev.crawlerrors.sitemap;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The two line-based files a sitemap may be given as: a plain-text sitemap (one URL a line) and a
 * robots.txt (its {@code Sitemap:} lines). Lines are read as UTF-8 bytes without building a string
 * for more than {@link SitemapLimits#MAX_URL_CHARS} of one line: a file of one endless line costs
 * no more memory than a short one.
 */
final class SitemapText {

    private SitemapText() {
    }

    /** Gives each non-blank line, trimmed, to {@code lines}; a line too long for a URL goes to {@code tooLong}. */
    static void lines(InputStream in, Consumer<String> lines, Runnable tooLong) throws IOException {
        byte[] line = new byte[SitemapLimits.MAX_URL_CHARS * 4];
        int length = 0;
        boolean overlong = false;
        byte[] buffer = new byte[1 << 16];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            for (int i = 0; i < n; i++) {
                byte b = buffer[i];
                if (b == '\n') {
                    emit(line, length, overlong, lines, tooLong);
                    length = 0;
                    overlong = false;
                } else if (length < line.length) {
                    line[length++] = b;
                } else {
                    overlong = true;
                }
            }
        }
        emit(line, length, overlong, lines, tooLong);
    }

    private static void emit(byte[] line, int length, boolean overlong, Consumer<String> lines, Runnable tooLong) {
        if (overlong) {
            tooLong.run();
            return;
        }
        String text = new String(line, 0, length, java.nio.charset.StandardCharsets.UTF_8).strip();
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1).strip();
        }
        if (!text.isEmpty()) {
            lines.accept(text);
        }
    }

    /** The URL of a robots.txt line {@code Sitemap: URL} (the field's name in any case), or null for any other line. */
    static String robotsSitemap(String line) {
        int colon = line.indexOf(':');
        if (colon < 0 || !line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("sitemap")) {
            return null;
        }
        String value = line.substring(colon + 1);
        int comment = value.indexOf(" #");
        if (comment >= 0) {
            value = value.substring(0, comment);
        }
        value = value.strip();
        return value.isEmpty() ? null : value;
    }
}
