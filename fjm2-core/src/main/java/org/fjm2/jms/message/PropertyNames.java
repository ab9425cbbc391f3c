package org.fjm2.jms.message;

import java.util.Set;

/** The rules for message property names: a Java identifier, not a selector keyword, not a reserved JMS name. */
public final class PropertyNames {

    /** The delivery count, kept in the message header and shown as a property. */
    public static final String JMSX_DELIVERY_COUNT = "JMSXDeliveryCount";
    public static final String JMSX_GROUP_ID = "JMSXGroupID";
    public static final String JMSX_GROUP_SEQ = "JMSXGroupSeq";

    private static final Set<String> RESERVED_WORDS = Set.of(
            "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

    /** Longest selector keyword: longer names skip the comparison (called for every property set). */
    private static final int LONGEST_RESERVED_WORD = 7;

    private PropertyNames() {
    }

    private static boolean isReservedWord(String name) {
        if (name.length() > LONGEST_RESERVED_WORD) {
            return false;
        }
        for (String word : RESERVED_WORDS) {
            if (word.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** Throws IllegalArgumentException with the reason when an application may not set this property. */
    public static void checkSettable(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("property name must not be null or empty");
        }
        if (!Character.isJavaIdentifierStart(name.charAt(0))) {
            throw new IllegalArgumentException("property name '" + name + "' is not a Java identifier");
        }
        for (int i = 1; i < name.length(); i++) {
            if (!Character.isJavaIdentifierPart(name.charAt(i))) {
                throw new IllegalArgumentException("property name '" + name + "' is not a Java identifier");
            }
        }
        if (isReservedWord(name)) {
            throw new IllegalArgumentException("property name '" + name + "' is a message selector keyword");
        }
        if (name.startsWith("JMS") && !name.startsWith("JMSX") && !name.startsWith("JMS_")) {
            throw new IllegalArgumentException("property name '" + name + "' is reserved for JMS header fields");
        }
        if (name.equals(JMSX_DELIVERY_COUNT)) {
            throw new IllegalArgumentException(JMSX_DELIVERY_COUNT + " is set by the provider");
        }
    }
}
