package org.fjm2.jms.transport;

import java.util.Locale;
import java.util.Map;

import org.fjm2.util.Quantities;

/**
 * Reads typed URL parameter values with range checks, for transports and the JMS layer alike. Every failure is
 * an IllegalArgumentException whose message starts with the parameter's name.
 */
public final class ParameterValues {

    private ParameterValues() {
    }

    public static long longValue(Map<String, String> parameters, String name, long dflt, long min, long max) {
        String text = parameters.get(name);
        if (text == null) {
            return dflt;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, got '" + text + "'");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + ", got " + value);
        }
        return value;
    }

    public static int intValue(Map<String, String> parameters, String name, int dflt, int min, int max) {
        return (int) longValue(parameters, name, dflt, min, max);
    }

    /** A size in bytes in the common grammar of quantities: {@code 65536}, {@code 64k}, {@code 8MiB}, {@code 1g}. */
    public static long bytesValue(Map<String, String> parameters, String name, long dflt, long min, long max) {
        String text = parameters.get(name);
        if (text == null) {
            return dflt;
        }
        long value = Quantities.bytes(name, text.trim());
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + " bytes, got '" + text + "'");
        }
        return value;
    }

    public static double doubleValue(Map<String, String> parameters, String name, double dflt, double min,
                                     double max) {
        String text = parameters.get(name);
        if (text == null) {
            return dflt;
        }
        double value;
        try {
            value = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + text + "'");
        }
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + ", got " + text);
        }
        return value;
    }

    /** One of an enum's constants, named in lower case (e.g. {@code fixed} for {@code FIXED}). */
    public static <E extends Enum<E>> E enumValue(Map<String, String> parameters, String name, Class<E> type,
                                                  E dflt) {
        String text = parameters.get(name);
        if (text == null) {
            return dflt;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(text.trim())) {
                return constant;
            }
        }
        StringBuilder names = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            names.append(names.length() == 0 ? "" : ", ").append(constant.name().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException(name + " must be one of " + names + ", got '" + text + "'");
    }

    public static boolean booleanValue(Map<String, String> parameters, String name, boolean dflt) {
        String text = parameters.get(name);
        if (text == null) {
            return dflt;
        }
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException(name + " must be true or false, got '" + text + "'");
    }
}
