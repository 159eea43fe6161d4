package dev.crawlerrors.web;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes RFC 4180 CSV. A cell that a spreadsheet would run as a formula (starting with =, +, -,
 * @, tab or carriage return) is prefixed with an apostrophe, so a URL or agent a crawler sent
 * cannot execute in the reader's spreadsheet (OWASP "CSV injection").
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
        String v = value;
        char first = v.charAt(0);
        if (first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r') {
            v = "'" + v;
        }
        boolean quote = v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0;
        return quote ? '"' + v.replace("\"", "\"\"") + '"' : v;
    }
}
