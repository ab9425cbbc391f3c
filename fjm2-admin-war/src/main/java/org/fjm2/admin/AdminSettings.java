package org.fjm2.admin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Every setting of FJM2-Admin, with its name and default. A setting is read from the servlet context's init
 * parameter of that name first, then from the JVM system property of the same name, then the default applies.
 * Tokens are the exception: they come from {@link #TOKEN_FILE} or the {@link #TOKENS} context parameter only,
 * never from a system property (those show up in process listings).
 *
 * @param tokenFile file holding the bearer tokens, one a line; {@code null} when the tokens come from a parameter
 * @param inlineTokens tokens from the {@link #TOKENS} context parameter; {@code null} when unset
 * @param dataDir directory of the embedded H2 database, used when the container provides no DataSource
 * @param dataSourceName JNDI name of a container-provided DataSource, preferred over the embedded database
 * @param expiry how long a node stays registered without refreshing
 * @param advertiseInterval period of the UDP advertisement to every node
 * @param advertiseChangeDelay how long a change waits for more changes before it is advertised (coalescing)
 * @param maxBodyBytes largest request body accepted; larger ones get 413
 * @param maxNodes most nodes the registry holds; registrations beyond get 503
 * @param statusPage who may see the HTML status page at {@code /}
 * @param allowLoopback whether nodes may register loopback addresses (one-machine labs and tests only)
 */
public record AdminSettings(
        Path tokenFile,
        String inlineTokens,
        Path dataDir,
        String dataSourceName,
        Duration expiry,
        Duration advertiseInterval,
        Duration advertiseChangeDelay,
        int maxBodyBytes,
        int maxNodes,
        StatusPageAccess statusPage,
        boolean allowLoopback) {

    /** Who may see the status page, which lists every node's address. */
    public enum StatusPageAccess {
        /** Anyone who reaches the server. */
        PUBLIC,
        /** Requests that carry a configured token (bearer header, or HTTP Basic with the token as password). */
        TOKEN,
        /** Nobody: {@code /} answers 404. */
        OFF
    }

    /** Path of the token file (one token a line, {@code #} comments); must not be readable by others. */
    public static final String TOKEN_FILE = "fjm2.admin.tokenFile";
    /** Context parameter only: tokens separated by white space or commas. */
    public static final String TOKENS = "fjm2.admin.tokens";
    /** Directory of the embedded H2 database. Default: {@code ~/.fjm2/admin}. */
    public static final String DATA_DIR = "fjm2.admin.dataDir";
    /**
     * JNDI name of a container DataSource, or {@code none} for the embedded database without a lookup (containers
     * without JNDI naming, such as {@code fjm2 admin}'s). Default: {@value #DEFAULT_DATA_SOURCE}.
     */
    public static final String DATA_SOURCE = "fjm2.admin.dataSource";
    /** Expiry of a node that stopped refreshing, e.g. {@code 90s}, {@code 2m}, {@code 500ms}. Default 90 s. */
    public static final String EXPIRY = "fjm2.admin.expiry";
    /** Period of the UDP advertisement. Default 5 s. */
    public static final String ADVERTISE_INTERVAL = "fjm2.admin.advertiseInterval";
    /** Coalescing delay between a change and its advertisement. Default 50 ms. */
    public static final String ADVERTISE_CHANGE_DELAY = "fjm2.admin.advertiseChangeDelay";
    /** Largest request body in bytes. Default 4096. */
    public static final String MAX_BODY_BYTES = "fjm2.admin.maxBodyBytes";
    /** Most registered nodes. Default 10000. */
    public static final String MAX_NODES = "fjm2.admin.maxNodes";
    /**
     * Who sees the status page at {@code /}: {@code token} (default: a configured token is required),
     * {@code public} or {@code off} (404).
     */
    public static final String STATUS_PAGE = "fjm2.admin.statusPage";
    /**
     * {@code true} lets nodes register loopback addresses ({@code 127.0.0.0/8}, {@code ::1}, {@code localhost}):
     * only for daemons and admin on one machine (labs, tests). Default {@code false}: a loopback entry would make
     * every daemon send the group's traffic to a port of its own host.
     */
    public static final String ALLOW_LOOPBACK = "fjm2.admin.allowLoopback";

    public static final String DEFAULT_DATA_SOURCE = "java:comp/env/jdbc/fjm2admin";
    public static final Duration DEFAULT_EXPIRY = Duration.ofSeconds(90);
    public static final Duration DEFAULT_ADVERTISE_INTERVAL = Duration.ofSeconds(5);
    public static final Duration DEFAULT_ADVERTISE_CHANGE_DELAY = Duration.ofMillis(50);
    public static final int DEFAULT_MAX_BODY_BYTES = 4096;
    public static final int DEFAULT_MAX_NODES = 10_000;
    public static final StatusPageAccess DEFAULT_STATUS_PAGE = StatusPageAccess.TOKEN;

    /** Like the record's own, but with the inline tokens left out: settings may be logged, tokens never. */
    @Override
    public String toString() {
        return "AdminSettings[tokenFile=" + tokenFile + ", inlineTokens=" + (inlineTokens == null ? "none" : "(hidden)")
                + ", dataDir=" + dataDir + ", dataSourceName=" + dataSourceName + ", expiry=" + expiry
                + ", advertiseInterval=" + advertiseInterval + ", advertiseChangeDelay=" + advertiseChangeDelay
                + ", maxBodyBytes=" + maxBodyBytes + ", maxNodes=" + maxNodes + ", statusPage=" + statusPage
                + ", allowLoopback=" + allowLoopback + "]";
    }

    /** Default data directory: {@code ~/.fjm2/admin}. */
    public static Path defaultDataDir() {
        return Path.of(System.getProperty("user.home"), ".fjm2", "admin");
    }

    /**
     * Reads every setting through {@code contextParameter} (returns {@code null} when unset), falling back to
     * system properties and then to the defaults.
     *
     * @throws IllegalArgumentException naming the setting whose value is malformed
     */
    public static AdminSettings read(UnaryOperator<String> contextParameter) {
        UnaryOperator<String> lookup = name -> {
            String value = trimToNull(contextParameter.apply(name));
            return value != null ? value : trimToNull(System.getProperty(name));
        };
        String tokenFile = lookup.apply(TOKEN_FILE);
        String dataDir = lookup.apply(DATA_DIR);
        String dataSource = lookup.apply(DATA_SOURCE);
        AdminSettings settings = new AdminSettings(
                tokenFile == null ? null : Path.of(tokenFile),
                trimToNull(contextParameter.apply(TOKENS)),
                dataDir == null ? defaultDataDir() : Path.of(dataDir),
                dataSource == null ? DEFAULT_DATA_SOURCE : dataSource,
                duration(lookup, EXPIRY, DEFAULT_EXPIRY),
                duration(lookup, ADVERTISE_INTERVAL, DEFAULT_ADVERTISE_INTERVAL),
                duration(lookup, ADVERTISE_CHANGE_DELAY, DEFAULT_ADVERTISE_CHANGE_DELAY),
                positiveInt(lookup, MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES),
                positiveInt(lookup, MAX_NODES, DEFAULT_MAX_NODES),
                statusPageAccess(lookup.apply(STATUS_PAGE)),
                bool(lookup, ALLOW_LOOPBACK, false));
        if (settings.tokenFile == null && settings.inlineTokens == null) {
            throw new IllegalArgumentException("no token configured: set the context parameter or system property "
                    + TOKEN_FILE + " (or the context parameter " + TOKENS + ")");
        }
        if (settings.expiry.isZero() || settings.advertiseInterval.isZero()) {
            throw new IllegalArgumentException(EXPIRY + " and " + ADVERTISE_INTERVAL + " must be positive");
        }
        return settings;
    }

    /**
     * Parses {@code 90s}, {@code 2m}, {@code 1h}, {@code 500ms}, a bare number of seconds, or ISO-8601
     * ({@code PT90S}).
     */
    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return nonNegative(Duration.parse(t.toUpperCase(Locale.ROOT)), text);
            }
            if (t.endsWith("ms")) {
                return nonNegative(Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2))), text);
            }
            long unit = switch (t.charAt(t.length() - 1)) {
                case 's' -> 1;
                case 'm' -> 60;
                case 'h' -> 3600;
                default -> 0;
            };
            if (unit == 0) {
                return nonNegative(Duration.ofSeconds(Long.parseLong(t)), text);
            }
            return nonNegative(Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)) * unit), text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (examples: 90s, 2m, 500ms)");
        }
    }

    private static Duration nonNegative(Duration d, String text) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("negative duration: " + text);
        }
        return d;
    }

    private static Duration duration(UnaryOperator<String> lookup, String name, Duration fallback) {
        String value = lookup.apply(name);
        if (value == null) {
            return fallback;
        }
        try {
            return parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }

    private static int positiveInt(UnaryOperator<String> lookup, String name, int fallback) {
        String value = lookup.apply(name);
        if (value == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(name + ": not a positive integer: '" + value + "'");
    }

    private static StatusPageAccess statusPageAccess(String value) {
        if (value == null) {
            return DEFAULT_STATUS_PAGE;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "public" -> StatusPageAccess.PUBLIC;
            case "token" -> StatusPageAccess.TOKEN;
            case "off" -> StatusPageAccess.OFF;
            default -> throw new IllegalArgumentException(STATUS_PAGE + ": not public, token or off: '" + value + "'");
        };
    }

    private static boolean bool(UnaryOperator<String> lookup, String name, boolean fallback) {
        String value = lookup.apply(name);
        if (value == null) {
            return fallback;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException(name + ": not true/false: '" + value + "'");
        };
    }

    private static String trimToNull(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.isEmpty() ? null : t;
    }
}
