package org.fjm2.jms.message;

import jakarta.jms.MessageFormatException;

/**
 * The conversion tables of the Jakarta Messaging specification: section 3.5.4 for message properties, and
 * the tables of {@code StreamMessage} and {@code MapMessage} (which add {@code char} and {@code byte[]}).
 * A value that cannot be read as the asked type throws {@link MessageFormatException}; a {@code String} that
 * does not parse throws {@link NumberFormatException}; {@code null} behaves like the type's
 * {@code valueOf((String) null)}, as the specification says.
 */
public final class TypeConversion {

    private TypeConversion() {
    }

    public static boolean toBoolean(Object value) throws MessageFormatException {
        if (value instanceof Boolean b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Boolean.parseBoolean((String) value);
        }
        throw cannot(value, "boolean");
    }

    public static byte toByte(Object value) throws MessageFormatException {
        if (value instanceof Byte b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Byte.parseByte((String) value);
        }
        throw cannot(value, "byte");
    }

    public static short toShort(Object value) throws MessageFormatException {
        if (value instanceof Short s) {
            return s;
        }
        if (value instanceof Byte b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Short.parseShort((String) value);
        }
        throw cannot(value, "short");
    }

    public static int toInt(Object value) throws MessageFormatException {
        if (value instanceof Integer i) {
            return i;
        }
        if (value instanceof Short || value instanceof Byte) {
            return ((Number) value).intValue();
        }
        if (value == null || value instanceof String) {
            return Integer.parseInt((String) value);
        }
        throw cannot(value, "int");
    }

    public static long toLong(Object value) throws MessageFormatException {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value == null || value instanceof String) {
            return Long.parseLong((String) value);
        }
        throw cannot(value, "long");
    }

    public static float toFloat(Object value) throws MessageFormatException {
        if (value instanceof Float f) {
            return f;
        }
        if (value == null || value instanceof String) {
            return Float.parseFloat((String) value); // null: NullPointerException, as Float.valueOf(null)
        }
        throw cannot(value, "float");
    }

    public static double toDouble(Object value) throws MessageFormatException {
        if (value instanceof Double || value instanceof Float) {
            return ((Number) value).doubleValue();
        }
        if (value == null || value instanceof String) {
            return Double.parseDouble((String) value);
        }
        throw cannot(value, "double");
    }

    /** Any property, map or stream value reads as a String except {@code byte[]}. */
    public static String toString(Object value) throws MessageFormatException {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[]) {
            throw cannot(value, "String");
        }
        return value.toString();
    }

    /** Map and stream bodies only. */
    public static char toChar(Object value) throws MessageFormatException {
        if (value instanceof Character c) {
            return c;
        }
        if (value == null) {
            throw new NullPointerException("null cannot be read as char");
        }
        throw cannot(value, "char");
    }

    /** Map and stream bodies only: the array itself (not a copy), or null. */
    public static byte[] toBytes(Object value) throws MessageFormatException {
        if (value == null || value instanceof byte[]) {
            return (byte[]) value;
        }
        throw cannot(value, "byte[]");
    }

    /** True for the value types a property may hold: boxed primitives (not Character) and String. */
    public static boolean isPropertyValue(Object value) {
        return value instanceof Boolean || value instanceof Byte || value instanceof Short
                || value instanceof Integer || value instanceof Long || value instanceof Float
                || value instanceof Double || value instanceof String;
    }

    /** True for the value types a map or stream body may hold: property values, Character and byte[]. */
    public static boolean isBodyValue(Object value) {
        return isPropertyValue(value) || value instanceof Character || value instanceof byte[];
    }

    private static MessageFormatException cannot(Object value, String type) {
        return new MessageFormatException("a " + value.getClass().getSimpleName() + " value cannot be read as "
                + type + " (Jakarta Messaging conversion table)");
    }
}
