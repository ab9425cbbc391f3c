package org.fjm2.testkit.linkem;

import java.util.Locale;

/** Checks and prints probabilities, so that every impairment reports bad values the same way. */
final class Probability {

    private Probability() {
    }

    static void check(String what, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(what + " must be a probability between 0 and 1 (0% and 100%), got " + value);
        }
    }

    static String percent(double value) {
        return String.format(Locale.ROOT, "%.4g%%", value * 100).replaceAll("\\.?0+%$", "%");
    }
}
