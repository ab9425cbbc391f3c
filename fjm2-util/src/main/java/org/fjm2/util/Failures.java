package org.fjm2.util;

/**
 * One line that says what went wrong, for error messages users read. Some exceptions carry no message, and Netty's
 * socket exceptions carry {@code "null: /10.1.1.1:6003"} (the JDK's missing message, annotated with the address):
 * printed as they are, both say "null". Those are named by their kind instead: {@code no route to host:
 * /10.1.1.1:6003}.
 */
public final class Failures {

    /** What Netty puts before the address when the JDK's exception had no message. */
    private static final String MISSING_MESSAGE_PREFIX = "null: ";

    private Failures() {
    }

    /** The exception's message, or its kind in words where the message is missing. */
    public static String describe(Throwable failure) {
        String message = failure.getMessage();
        String kind = kind(failure);
        if (message == null || message.isBlank() || message.equals("null")) {
            return kind;
        }
        if (message.startsWith(MISSING_MESSAGE_PREFIX)) {
            return kind + ": " + message.substring(MISSING_MESSAGE_PREFIX.length());
        }
        return message;
    }

    /**
     * The kind of failure in words, from the nearest JDK type (a library's subclass, such as Netty's
     * AnnotatedNoRouteToHostException, says no more): {@code NoRouteToHostException} -> {@code no route to host}.
     */
    static String kind(Throwable failure) {
        Class<?> type = failure.getClass();
        while (!type.getName().startsWith("java.") && type.getSuperclass() != null
                && Throwable.class.isAssignableFrom(type.getSuperclass())) {
            type = type.getSuperclass();
        }
        String name = type.getSimpleName().replaceFirst("(Exception|Error)$", "");
        if (name.isEmpty()) {
            return type.getSimpleName();
        }
        if (name.equals(name.toUpperCase(java.util.Locale.ROOT))) {
            return name + " error";
        }
        // Split before each capital that starts a word; acronyms (IO, UTF) stay as they are.
        StringBuilder words = new StringBuilder();
        for (String word : name.split("(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")) {
            boolean acronym = word.length() > 1 && word.equals(word.toUpperCase(java.util.Locale.ROOT));
            words.append(words.length() == 0 ? "" : " ")
                    .append(acronym ? word : word.toLowerCase(java.util.Locale.ROOT));
        }
        return words.toString();
    }
}
