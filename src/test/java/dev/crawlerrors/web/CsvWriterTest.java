package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CsvWriterTest {

    @Test
    void quotesCommasSemicolonsTabsAndQuotes() {
        assertThat(CsvWriter.cell("a,b")).isEqualTo("\"a,b\"");
        assertThat(CsvWriter.cell("a;b")).isEqualTo("\"a;b\"");
        assertThat(CsvWriter.cell("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(CsvWriter.cell(null)).isEmpty();
    }

    @Test
    void aCellWhoseSemicolonWouldStartAFormulaInAContinentalSpreadsheetIsQuoted() {
        // Belgium's, Germany's, France's Excel split an unquoted cell at ';': '=1+2' would be a cell of its own
        assertThat(CsvWriter.cell("/a;=1+2")).isEqualTo("\"/a;=1+2\"");
        assertThat(CsvWriter.cell("/a;@SUM(A1)")).isEqualTo("\"/a;@SUM(A1)\"");
    }

    @Test
    void defusesCellsASpreadsheetWouldRunAsFormulas() {
        assertThat(CsvWriter.cell("=1+1")).isEqualTo("'=1+1");
        assertThat(CsvWriter.cell("+1")).isEqualTo("'+1");
        assertThat(CsvWriter.cell("-1")).isEqualTo("'-1");
        assertThat(CsvWriter.cell("@SUM(A1)")).isEqualTo("'@SUM(A1)");
        assertThat(CsvWriter.cell("=1;2")).isEqualTo("\"'=1;2\"");
        assertThat(CsvWriter.cell("/antwerp/meir")).isEqualTo("/antwerp/meir");
    }

    @Test
    void showsControlsAndTextReorderingCharactersEscaped() {
        assertThat(CsvWriter.cell("/\u202Etxt.exe")).isEqualTo("/\\u202Etxt.exe");
        assertThat(CsvWriter.cell("two\nlines")).isEqualTo("two\\x0Alines");
        // a leading tab is a formula trigger no longer: it is shown as the four characters \x09
        assertThat(CsvWriter.cell("\tx")).isEqualTo("\\x09x");
    }
}
