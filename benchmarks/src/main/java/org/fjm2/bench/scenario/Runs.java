package org.fjm2.bench.scenario;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** Several runs of one cell of a table: the one shown, and every run's figure beside it. */
final class Runs {

    private Runs() {
    }

    /** The run with the median {@code figure} (the lower middle one for an even count). */
    static <T> T median(List<T> runs, ToDoubleFunction<T> figure) {
        List<T> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(figure));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** Every run's figure, rounded, in run order, e.g. "2780/6888/12490". */
    static <T> String text(List<T> runs, ToDoubleFunction<T> figure) {
        StringBuilder text = new StringBuilder();
        for (T run : runs) {
            text.append(text.isEmpty() ? "" : "/").append(Math.round(figure.applyAsDouble(run)));
        }
        return text.toString();
    }
}
