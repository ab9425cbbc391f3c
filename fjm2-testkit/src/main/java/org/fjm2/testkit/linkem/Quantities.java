package org.fjm2.testkit.linkem;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints the quantities users type for impairments, with tc-like units: rates in bits per second
 * ({@code 100mbit}, {@code 512kbit}, {@code 1gbit}), sizes in bytes ({@code 128k} = 128 KiB), durations
 * ({@code 50ms}, {@code 1.5s}, {@code 200us}) and probabilities ({@code 1%} or a fraction {@code 0.01}).
 * Every parse error is an {@link IllegalArgumentException} whose message names the value and the expected form.
 */
public final class Quantities {

    private static final Pattern NUMBER_AND_UNIT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Z/%]*)");

    private Quantities() {
    }

    /** Parses a rate in bits per second: {@code 100mbit}, {@code 100m}, {@code 2.5gbit}, {@code 64kbit}, {@code 9600bit}; bytes-per-second
     * spellings such as {@code mbps} are refused as ambiguous. */
    public static long parseRate(String text) {
        Matcher m = match(text, "rate", "100mbit, 512kbit or 1gbit");
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        if (unit.endsWith("/s")) {
            unit = unit.substring(0, unit.length() - 2);
        }
        double multiplier = switch (unit) {
            case "", "bit" -> 1;
            case "k", "kbit" -> 1e3;
            case "m", "mbit" -> 1e6;
            case "g", "gbit" -> 1e9;
            default -> throw new IllegalArgumentException("rate '" + text + "': unknown or ambiguous unit '" + m.group(2)
                    + "' (write bits per second as bit, kbit, mbit or gbit)");
        };
        return Math.round(Double.parseDouble(m.group(1)) * multiplier);
    }

    /** Parses a size in bytes: {@code 1400}, {@code 64k} (KiB), {@code 4m} (MiB), {@code 128KiB}. */
    public static long parseBytes(String text) {
        Matcher m = match(text, "size", "1400, 64k or 4m");
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        long multiplier = switch (unit) {
            case "", "b" -> 1;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> throw new IllegalArgumentException("size '" + text + "': unknown unit '" + m.group(2) + "' (use k, m or g)");
        };
        return Math.round(Double.parseDouble(m.group(1)) * multiplier);
    }

    /** Parses a duration with a unit: {@code 50ms}, {@code 1.5s}, {@code 200us}, {@code 2min}; a bare {@code 0} is zero. */
    public static Duration parseDuration(String text) {
        Matcher m = match(text, "duration", "50ms, 2s or 200us");
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        double value = Double.parseDouble(m.group(1));
        if (unit.isEmpty() && value != 0) {
            throw new IllegalArgumentException("duration '" + text + "' needs a unit: ns, us, ms, s or min");
        }
        double nanosPerUnit = switch (unit) {
            case "", "ns" -> 1;
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "min", "m" -> 60e9;
            default -> throw new IllegalArgumentException("duration '" + text + "': unknown unit '" + m.group(2)
                    + "' (use ns, us, ms, s or min)");
        };
        return Duration.ofNanos(Math.round(value * nanosPerUnit));
    }

    /** Parses a probability: {@code 1%}, {@code 0.5%} or a fraction {@code 0.01}; must lie in [0, 1]. */
    public static double parseProbability(String text) {
        Matcher m = match(text, "probability", "1% or 0.01");
        double value = Double.parseDouble(m.group(1));
        if (m.group(2).equals("%")) {
            value /= 100;
        } else if (!m.group(2).isEmpty()) {
            throw new IllegalArgumentException("probability '" + text + "': write a percentage (1%) or a fraction (0.01)");
        }
        Probability.check("probability '" + text + "'", value);
        return value;
    }

    /** Prints a duration the short way users type it: {@code 50ms}, {@code 1.5s}, {@code 200us}. */
    public static String formatDuration(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0";
        }
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos >= 1_000_000_000L) {
            return trim(nanos / 1e9) + "s";
        }
        if (nanos >= 1_000_000L) {
            return trim(nanos / 1e6) + "ms";
        }
        if (nanos >= 1_000L) {
            return trim(nanos / 1e3) + "us";
        }
        return nanos + "ns";
    }

    /** Prints a rate in bits per second with a tc-like unit: {@code 100mbit}, {@code 1.5gbit}. */
    public static String formatRate(long bitsPerSecond) {
        if (bitsPerSecond >= 1_000_000_000L) {
            return trim(bitsPerSecond / 1e9) + "gbit";
        }
        if (bitsPerSecond >= 1_000_000L) {
            return trim(bitsPerSecond / 1e6) + "mbit";
        }
        if (bitsPerSecond >= 1_000L) {
            return trim(bitsPerSecond / 1e3) + "kbit";
        }
        return bitsPerSecond + "bit";
    }

    /** Prints a byte count with a binary unit: {@code 128k}, {@code 4m}. */
    public static String formatBytes(long bytes) {
        if (bytes >= 1L << 20) {
            return trim(bytes / (double) (1L << 20)) + "m";
        }
        if (bytes >= 1L << 10) {
            return trim(bytes / (double) (1L << 10)) + "k";
        }
        return Long.toString(bytes);
    }

    private static String trim(double value) {
        return String.format(Locale.ROOT, "%.3f", value).replaceAll("\\.?0+$", "");
    }

    private static Matcher match(String text, String what, String examples) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(what + " is empty: write e.g. " + examples);
        }
        Matcher m = NUMBER_AND_UNIT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(what + " '" + text + "' is not a number with a unit: write e.g. " + examples);
        }
        return m;
    }
}
