package org.fjm2.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The result of a benchmark scenario: named columns, rows of values. Prints itself as an aligned table (the same
 * text goes into benchmarks/RESULTS.md) and writes CSV.
 */
public final class ResultTable {

    private final String title;
    private final List<String> columns;
    private final List<List<Object>> rows = new ArrayList<>();

    public ResultTable(String title, String... columns) {
        this.title = title;
        this.columns = List.of(columns);
    }

    public ResultTable row(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("expected " + columns.size() + " values, got " + values.length);
        }
        rows.add(Arrays.asList(values));
        return this;
    }

    public String title() {
        return title;
    }

    public List<String> columns() {
        return columns;
    }

    public List<List<Object>> rows() {
        return rows;
    }

    /** Values of one column, as doubles (for plots). */
    public double[] column(String name) {
        int c = columns.indexOf(name);
        return rows.stream().mapToDouble(r -> ((Number) r.get(c)).doubleValue()).toArray();
    }

    public static String format(Object v) {
        if (v instanceof Double d) {
            double a = Math.abs(d);
            if (a != 0 && a < 0.01) {
                return String.format(Locale.ROOT, "%.4f", d);
            }
            return a >= 1000 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.2f", d);
        }
        if (v instanceof Long || v instanceof Integer) {
            return String.format(Locale.ROOT, "%,d", ((Number) v).longValue());
        }
        return String.valueOf(v);
    }

    /** A Markdown table (readable as plain text too). */
    public String toMarkdown() {
        int[] widths = new int[columns.size()];
        for (int c = 0; c < columns.size(); c++) {
            widths[c] = columns.get(c).length();
            for (List<Object> r : rows) {
                widths[c] = Math.max(widths[c], format(r.get(c)).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, widths, columns.stream().map(Object.class::cast).toList(), false);
        StringBuilder sep = new StringBuilder("|");
        for (int w : widths) {
            sep.append("-".repeat(w + 2)).append('|');
        }
        sb.append(sep).append('\n');
        for (List<Object> r : rows) {
            line(sb, widths, r, true);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, int[] widths, List<Object> values, boolean format) {
        sb.append('|');
        for (int c = 0; c < widths.length; c++) {
            String s = format ? format(values.get(c)) : String.valueOf(values.get(c));
            sb.append(' ').append(String.format("%" + widths[c] + "s", s)).append(" |");
        }
        sb.append('\n');
    }

    public void print(PrintStream out) {
        out.println();
        out.println(title);
        out.println();
        out.print(toMarkdown());
    }

    public void writeCsv(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
        for (List<Object> r : rows) {
            for (int c = 0; c < r.size(); c++) {
                Object v = r.get(c);
                String s = v instanceof Number ? String.valueOf(v) : '"' + String.valueOf(v).replace("\"", "\"\"") + '"';
                sb.append(c == 0 ? "" : ",").append(s);
            }
            sb.append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        ResultFiles.written(file);
    }
}
