package dev.crawlerrors.web;

import dev.crawlerrors.text.ShownText;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes RFC 4180 CSV that is safe to open in a spreadsheet, whatever a crawler sent.
 *
 * <ul>
 *   <li>A cell that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
 *       return) is prefixed with an apostrophe, so a URL or agent cannot execute in the reader's
 *       spreadsheet (OWASP "CSV injection").</li>
 *   <li>A cell holding a comma, a semicolon, a tab, a quote or a line break is quoted. The
 *       semicolon is the list separator of continental Europe's locales, where a spreadsheet splits
 *       an unquoted {@code /a;=1+2} into {@code /a} and a formula {@code =1+2} that the first guard
 *       never saw; the tab is the separator of a paste or a TSV import.</li>
 *   <li>Controls and the Unicode characters that reorder or hide text are shown escaped
 *       ({@link ShownText}): <code>/&#92;u202Etxt.exe</code> would otherwise read {@code /exe.txt}.</li>
 * </ul>
 */
final class CsvWriter {

    private final Writer out;

    CsvWriter(Writer out) {
        this.out = out;
    }

    void row(List<String> cells) throws IOException {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(cell(cells.get(i)));
        }
        out.write("\r\n");
    }

    static String cell(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        String v = ShownText.of(value);
        char first = v.charAt(0);
        if (first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r') {
            v = "'" + v;
        }
        return needsQuotes(v) ? '"' + v.replace("\"", "\"\"") + '"' : v;
    }

    private static boolean needsQuotes(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == ',' || c == ';' || c == '"' || c == '\n' || c == '\r' || c == '\t') {
                return true;
            }
        }
        return false;
    }
}
