package org.fjm2.util;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar of quantities FJM2 reads, on command lines, in URLs and in config files. Unit names are not case
 * sensitive, except that a capital {@code B} with {@code ps} or {@code /s} (bytes per second) is refused as a rate:
 * <ul>
 *   <li><b>rates</b> in bits per second: {@code 250000}, {@code 64k}, {@code 100m}, {@code 100mbit},
 *       {@code 100Mbps}, {@code 1.5g}, {@code 1gbit/s} (k, m, g are powers of 1000);</li>
 *   <li><b>sizes</b> in bytes: {@code 1400}, {@code 64k}, {@code 64KiB}, {@code 8m}, {@code 8MiB}, {@code 1g}
 *       (k, m, g are powers of 1024);</li>
 *   <li><b>durations</b>: {@code 200us}, {@code 500ms}, {@code 10s}, {@code 2min}, {@code 1h}; a bare number is
 *       seconds ({@code 0.002}, {@code 30});</li>
 *   <li><b>loss</b> (a probability): {@code 5%} or the fraction {@code 0.05}, in [0, 1].</li>
 * </ul>
 * Every parse error is an {@link IllegalArgumentException} whose message names the setting, the value and the
 * expected form: {@code <name> '<value>': <what is wrong>}.
 */
public final class Quantities {

    private static final Pattern NUMBER_AND_UNIT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?|\\.[0-9]+)\\s*([a-zA-Z/%]*)");

    private Quantities() {
    }

    /** A rate in bits per second (see the class comment). */
    public static long rate(String name, String text) {
        Matcher m = match(name, text, "a rate in bit/s such as 64k, 100m, 100mbit or 1g");
        String raw = m.group(2);
        if (raw.contains("B")) {
            throw new IllegalArgumentException(name + " '" + text + "' is in bytes per second; write bits per second "
                    + "(100m, 100mbit or 100Mbps)");
        }
        String unit = raw.toLowerCase(Locale.ROOT);
        if (unit.endsWith("/s")) {
            unit = unit.substring(0, unit.length() - 2);
        } else if (unit.endsWith("ps")) {
            unit = unit.substring(0, unit.length() - 2) + "bit";
            unit = unit.replace("bbit", "bit");
        }
        double multiplier = switch (unit) {
            case "", "bit", "b" -> 1;
            case "k", "kbit", "kb" -> 1e3;
            case "m", "mbit", "mb" -> 1e6;
            case "g", "gbit", "gb" -> 1e9;
            default -> throw new IllegalArgumentException(name + " '" + text + "': unknown unit '" + raw
                    + "' (write 64k, 100m, 100mbit or 1g)");
        };
        return Math.round(number(m) * multiplier);
    }

    /** A size in bytes (see the class comment). */
    public static long bytes(String name, String text) {
        Matcher m = match(name, text, "a size in bytes such as 1400, 64k or 8MiB");
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        long multiplier = switch (unit) {
            case "", "b" -> 1;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> throw new IllegalArgumentException(name + " '" + text + "': unknown unit '" + m.group(2)
                    + "' (write 1400, 64k, 8MiB or 1g)");
        };
        return Math.round(number(m) * multiplier);
    }

    /** A duration (see the class comment). */
    public static Duration duration(String name, String text) {
        Matcher m = match(name, text, "a duration such as 500ms, 10s, 2min or 0.5 (seconds)");
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        double nanosPerUnit = switch (unit) {
            case "ns" -> 1;
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "", "s", "sec" -> 1e9;
            case "min", "m" -> 60e9;
            case "h" -> 3600e9;
            default -> throw new IllegalArgumentException(name + " '" + text + "': unknown unit '" + m.group(2)
                    + "' (use ns, us, ms, s, min or h; a bare number is seconds)");
        };
        return Duration.ofNanos(Math.round(number(m) * nanosPerUnit));
    }

    /** A probability: {@code 5%} or a fraction {@code 0.05}, in [0, 1]. */
    public static double loss(String name, String text) {
        Matcher m = match(name, text, "a loss such as 5% or 0.05");
        double value = number(m);
        if (m.group(2).equals("%")) {
            value /= 100;
        } else if (!m.group(2).isEmpty()) {
            throw new IllegalArgumentException(name + " '" + text + "': write a percentage (5%) or a fraction (0.05)");
        }
        if (value > 1) {
            throw new IllegalArgumentException(name + " '" + text + "' is more than 100%");
        }
        return value;
    }

    /** A rate the way users type it: {@code 100mbit}, {@code 1.5gbit}. */
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

    /** A byte count with a binary unit: {@code 128k}, {@code 4m}. */
    public static String formatBytes(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + "g";
        }
        if (bytes >= 1L << 20) {
            return trim(bytes / (double) (1L << 20)) + "m";
        }
        if (bytes >= 1L << 10) {
            return trim(bytes / (double) (1L << 10)) + "k";
        }
        return Long.toString(bytes);
    }

    /** A duration the short way users type it: {@code 50ms}, {@code 1.5s}, {@code 200us}. */
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

    private static double number(Matcher m) {
        return Double.parseDouble(m.group(1));
    }

    private static String trim(double value) {
        return String.format(Locale.ROOT, "%.3f", value).replaceAll("\\.?0+$", "");
    }

    private static Matcher match(String name, String text, String expected) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(name + " is empty: expected " + expected);
        }
        Matcher m = NUMBER_AND_UNIT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(name + " '" + text + "' is not " + expected);
        }
        return m;
    }
}
