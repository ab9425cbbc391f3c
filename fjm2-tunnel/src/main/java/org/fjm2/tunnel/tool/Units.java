package org.fjm2.tunnel.tool;

import java.time.Duration;
import java.util.Locale;

/** Parses the quantities of the command line and the config file; errors name the setting and show examples. */
final class Units {

    private Units() {
    }

    /** A rate in bits per second: {@code 50m}, {@code 50mbit}, {@code 1.5g}, {@code 64k}, {@code 250000}, 0. */
    static long rate(String name, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("bit")) {
            t = t.substring(0, t.length() - 3);
        }
        return (long) scaled(name, t, 1000, "a rate in bit/s (examples: 50m, 1g, 64k)");
    }

    /** A size in bytes: {@code 512k}, {@code 32m}, {@code 1g} (binary multiples), {@code 4096}. */
    static long bytes(String name, String text) {
        return (long) scaled(name, text.trim().toLowerCase(Locale.ROOT), 1024, "a size in bytes (examples: 512k, 32m)");
    }

    /** A duration: {@code 15ms}, {@code 10s}, {@code 2min}, or plain seconds ({@code 2.5}). */
    static Duration duration(String name, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        double factor = 1e9;
        if (t.endsWith("ms")) {
            factor = 1e6;
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("min")) {
            factor = 60e9;
            t = t.substring(0, t.length() - 3);
        } else if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            double v = Double.parseDouble(t);
            if (v < 0 || Double.isNaN(v)) {
                throw new NumberFormatException();
            }
            return Duration.ofNanos((long) (v * factor));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not a duration: '" + text + "' (examples: 15ms, 10s, 2min)");
        }
    }

    static boolean bool(String name, String text) {
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true": case "yes": case "on": return true;
            case "false": case "no": case "off": return false;
            default: throw new IllegalArgumentException(name + ": expected true or false, got '" + text + "'");
        }
    }

    static int integer(String name, String text, int min, int max) {
        try {
            int v = Integer.parseInt(text.trim());
            if (v < min || v > max) {
                throw new IllegalArgumentException(name + ": must be " + min + ".." + max + ", got " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not a number: '" + text + "'");
        }
    }

    private static double scaled(String name, String t, double base, String what) {
        double factor = 1;
        char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
        if (last == 'k') {
            factor = base;
        } else if (last == 'm') {
            factor = base * base;
        } else if (last == 'g') {
            factor = base * base * base;
        }
        if (factor != 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            double v = Double.parseDouble(t) * factor;
            if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not " + what + ": '" + t + "'");
        }
    }
}
