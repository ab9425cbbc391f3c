package org.fjm2.jms.message;

import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * Which classes an {@code ObjectMessage} may deserialise, because deserialising network input runs code of
 * any class on the class path (the well-known gadget-chain attack). Patterns, separated by commas:
 * {@code com.acme.Order} (one class), {@code com.acme.*} (one package), {@code com.acme.**} (a package and its
 * sub-packages), {@code *} (everything: only for trusted networks). Arrays are judged by their element type;
 * primitives and arrays of them always pass. Graph depth and references are capped as well.
 */
public final class ObjectMessageAllowList implements ObjectInputFilter {

    /** The URL parameter that sets the list. */
    public static final String PARAMETER = "objectMessageAllowList";
    /** java.lang and java.util basics, plus numbers and dates. */
    public static final String DEFAULT_PATTERNS = "java.lang.*,java.util.*,java.math.*,java.time.*";
    /** Deepest object graph accepted. */
    public static final int MAX_DEPTH = 64;
    /** Most object references in one graph. */
    public static final int MAX_REFERENCES = 1_000_000;

    public static final ObjectMessageAllowList DEFAULT = parse(DEFAULT_PATTERNS);

    private final String patterns;
    private final List<String> exactClasses = new ArrayList<>();
    private final List<String> packages = new ArrayList<>();
    private final List<String> packageTrees = new ArrayList<>();
    private boolean everything;

    private ObjectMessageAllowList(String patterns) {
        this.patterns = patterns;
    }

    /** Parses a comma-separated pattern list; IllegalArgumentException naming the bad pattern. */
    public static ObjectMessageAllowList parse(String patterns) {
        ObjectMessageAllowList list = new ObjectMessageAllowList(patterns);
        for (String raw : patterns.split(",")) {
            String p = raw.trim();
            if (p.isEmpty()) {
                continue;
            }
            if (p.equals("*")) {
                list.everything = true;
            } else if (p.endsWith(".**")) {
                list.packageTrees.add(p.substring(0, p.length() - 2));
            } else if (p.endsWith(".*")) {
                list.packages.add(p.substring(0, p.length() - 1));
            } else if (p.contains("*")) {
                throw new IllegalArgumentException(PARAMETER + ": '*' may only end a pattern (pkg.* or pkg.**): " + p);
            } else {
                list.exactClasses.add(p);
            }
        }
        return list;
    }

    /** The patterns as configured. */
    public String patterns() {
        return patterns;
    }

    /** True when instances of the named class (not an array) may be deserialised. */
    public boolean allows(String className) {
        if (everything || exactClasses.contains(className)) {
            return true;
        }
        int lastDot = className.lastIndexOf('.');
        String pkg = lastDot < 0 ? "" : className.substring(0, lastDot + 1);
        if (packages.contains(pkg)) {
            return true;
        }
        for (String tree : packageTrees) {
            if (className.startsWith(tree)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Status checkInput(FilterInfo info) {
        if (info.depth() > MAX_DEPTH || info.references() > MAX_REFERENCES) {
            return Status.REJECTED;
        }
        Class<?> type = info.serialClass();
        if (type == null) {
            return Status.UNDECIDED;
        }
        while (type.isArray()) {
            type = type.getComponentType();
        }
        if (type.isPrimitive()) {
            return Status.ALLOWED;
        }
        return allows(type.getName()) ? Status.ALLOWED : Status.REJECTED;
    }

    @Override
    public String toString() {
        return patterns;
    }
}
