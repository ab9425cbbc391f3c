package org.fjm2.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** PNG plots of benchmark results (XChart, headless). */
public final class Plot {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Plot() {
    }

    /**
     * A grouped bar chart: one bar group per category, one series per name. Labels of many categories are slanted so
     * that they do not overlap, and the legend stands outside the plot so that it hides no bar.
     */
    public static void bars(Path file, String title, String xTitle, String yTitle, List<String> categories,
                            List<String> seriesNames, List<double[]> series) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(600).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setToolTipsEnabled(false);
        if (categories.size() > MAX_UPRIGHT_LABELS) {
            chart.getStyler().setXAxisLabelRotation(45);
        }
        for (int i = 0; i < seriesNames.size(); i++) {
            chart.addSeries(seriesNames.get(i), categories, toList(series.get(i)));
        }
        save(chart, file);
    }

    /** Categories whose labels fit side by side; more are slanted. */
    static final int MAX_UPRIGHT_LABELS = 6;

    /** Lines over a shared numeric x axis, optionally log scale. */
    public static void lines(Path file, String title, String xTitle, String yTitle, double[] x, List<String> names,
                             List<double[]> ys, boolean logX, boolean logY) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(540).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        for (int i = 0; i < names.size(); i++) {
            chart.addSeries(names.get(i), x, ys.get(i));
        }
        save(chart, file);
    }

    private static List<Double> toList(double[] values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        ResultFiles.written(file);
    }
}
