package org.fjm2.tunnel.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret the FJM2D peers share, read from a file that only its owner may read (never from the command line,
 * where {@code ps} shows it). Two independent keys are derived from it with HMAC-SHA256 and fixed labels: one
 * authenticates every tunnel datagram, the other seals payloads with AES-256-GCM when sealing is on, so the same
 * secret is never used for two purposes.
 */
public final class TunnelKey {

    /** Shortest secret accepted, in bytes (after trimming surrounding white space). */
    public static final int MIN_SECRET_BYTES = 16;
    /** Longest key file read. */
    public static final int MAX_FILE_BYTES = 4096;

    static final String MAC_LABEL = "fjm2d tunnel mac v1";
    static final String SEAL_LABEL = "fjm2d tunnel seal v1";

    private final byte[] macKey;
    private final byte[] sealKey;

    private TunnelKey(byte[] secret) {
        this.macKey = derive(secret, MAC_LABEL);
        this.sealKey = derive(secret, SEAL_LABEL);
    }

    /** A key from secret bytes (tests and tools); at least {@link #MIN_SECRET_BYTES}. */
    public static TunnelKey of(byte[] secret) {
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("key: the secret must be at least " + MIN_SECRET_BYTES + " bytes, got "
                    + secret.length);
        }
        return new TunnelKey(secret);
    }

    /**
     * Reads the secret from {@code file} as bytes, never through a text decoding: a file of printable ASCII (a hex or
     * base64 secret, e.g. from {@code openssl rand -hex 32}) is used as those characters without surrounding white
     * space (a trailing newline does not count); any other file (e.g. {@code openssl rand 32}) is used exactly as it
     * is, byte for byte. Refuses a file that its group or others may read or write (POSIX file systems), so that a
     * secret left open is noticed, not used.
     *
     * @throws IllegalArgumentException with a one-line reason a user can act on
     */
    public static TunnelKey load(Path file) {
        try {
            PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("key file " + file + " does not exist or is not a regular file");
            }
            if (posix != null) {
                Set<PosixFilePermission> perms = posix.readAttributes().permissions();
                for (PosixFilePermission p : perms) {
                    if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
                        throw new IllegalArgumentException("key file " + file + " is accessible to group or others ("
                                + java.nio.file.attribute.PosixFilePermissions.toString(perms)
                                + "): run chmod 600 " + file);
                    }
                }
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException("key file " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            byte[] raw = Files.readAllBytes(file);
            byte[] secret = isText(raw) ? stripWhiteSpace(raw) : raw;
            if (secret.length < MIN_SECRET_BYTES) {
                throw new IllegalArgumentException("key file " + file + " holds " + secret.length
                        + " bytes; at least " + MIN_SECRET_BYTES + " are needed (e.g. openssl rand -hex 32 > " + file
                        + ")");
            }
            TunnelKey key = new TunnelKey(secret);
            Arrays.fill(raw, (byte) 0);         // the derived keys are made: the secret itself is no longer needed
            Arrays.fill(secret, (byte) 0);
            return key;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read key file " + file + ": " + e.getMessage());
        }
    }

    /** Whether every byte is printable ASCII or ASCII white space. */
    static boolean isText(byte[] bytes) {
        for (byte b : bytes) {
            if (!(b >= 0x20 && b < 0x7F) && !isWhiteSpace(b)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isWhiteSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private static byte[] stripWhiteSpace(byte[] text) {
        int from = 0;
        int to = text.length;
        while (from < to && isWhiteSpace(text[from])) {
            from++;
        }
        while (to > from && isWhiteSpace(text[to - 1])) {
            to--;
        }
        return Arrays.copyOfRange(text, from, to);
    }

    /** A fresh HMAC-SHA256 instance keyed for datagram authentication (one per thread). */
    public Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    /** The AES-256 key for sealing payloads. */
    SecretKeySpec sealKey() {
        return new SecretKeySpec(sealKey, "AES");
    }

    private static byte[] derive(byte[] secret, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }
}
