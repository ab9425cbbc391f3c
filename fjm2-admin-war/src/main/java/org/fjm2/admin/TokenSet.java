package org.fjm2.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The bearer tokens that FJM2-Admin accepts. Matching costs the same whatever the presented token is: every
 * configured token is compared, and they are compared as SHA-256 digests so that not even the length leaks.
 * Tokens are never logged; {@link #toString()} says only how many there are.
 */
public final class TokenSet {

    /** Shortest token accepted: a guessable token would let anyone add a rogue peer. */
    public static final int MIN_TOKEN_LENGTH = 16;
    /** Longest token accepted. */
    public static final int MAX_TOKEN_LENGTH = 1024;

    private static final String BEARER = "Bearer ";
    private static final String BASIC = "Basic ";
    /** Domain separation: an owner fingerprint is no digest of the token that anything else computes. */
    private static final String OWNER_CONTEXT = "fjm2-admin node owner\n";
    /** Hex characters of an owner fingerprint (128 bits). */
    static final int OWNER_LENGTH = 32;

    private final List<String> tokens;
    private final byte[][] digests;
    private final List<String> owners;

    private TokenSet(List<String> tokens) {
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("no token given");
        }
        this.tokens = List.copyOf(tokens);
        this.digests = new byte[tokens.size()][];
        List<String> ownerList = new ArrayList<>(tokens.size());
        for (int i = 0; i < tokens.size(); i++) {
            digests[i] = sha256(tokens.get(i));
            ownerList.add(HexFormat.of().formatHex(sha256(OWNER_CONTEXT + tokens.get(i)), 0, OWNER_LENGTH / 2));
        }
        this.owners = List.copyOf(ownerList);
    }

    /** Tokens separated by white space, commas or new lines; {@code #} starts a comment up to the line's end. */
    public static TokenSet parse(String text, String source) {
        List<String> found = new ArrayList<>();
        for (String line : text.split("\\R")) {
            int hash = line.indexOf('#');
            String content = hash >= 0 ? line.substring(0, hash) : line;
            for (String token : content.split("[\\s,]+")) {
                if (!token.isEmpty()) {
                    found.add(checked(token, source));
                }
            }
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException(source + " holds no token");
        }
        return new TokenSet(found);
    }

    /**
     * Reads a token file, refusing one that other users may read or write.
     *
     * @throws IllegalArgumentException with a one-line reason when the file is missing, unsafe or empty
     */
    public static TokenSet readFile(Path file) {
        checkFilePermissions(file);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read token file " + file + ": " + e.getMessage());
        }
        return parse(printableText(bytes, "token file " + file), "token file " + file);
    }

    /**
     * The file's bytes as text, when they are printable ASCII and line breaks. Read as bytes, not through a
     * charset, so that a binary file (a tunnel key given by mistake, a token with a byte order mark) is refused
     * with the offset of the first bad byte instead of decoding into replacement characters or an exception
     * that names no place.
     */
    static String printableText(byte[] bytes, String source) {
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            if ((b < 0x20 || b > 0x7e) && b != '\n' && b != '\r' && b != '\t') {
                throw new IllegalArgumentException(source + ": byte " + i + " (0x" + Integer.toHexString(b)
                        + ") is not printable ASCII; tokens are text, e.g. 'head -c 32 /dev/urandom | base64'");
            }
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * Refuses a token file that does not exist or that users other than its owner and group may read or write.
     * On a file system without POSIX permissions the check is skipped.
     */
    public static void checkFilePermissions(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("token file " + file + " does not exist or is not a file");
        }
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read permissions of token file " + file + ": " + e.getMessage());
        }
        if (perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IllegalArgumentException("token file " + file + " is readable or writable by other users: "
                    + "run 'chmod 600 " + file + "'");
        }
    }

    /**
     * Index of the token presented in an {@code Authorization: Bearer TOKEN} header, or -1 when the header is
     * missing, malformed or names no configured token.
     */
    public int match(String authorizationHeader) {
        if (authorizationHeader == null || authorizationHeader.length() <= BEARER.length()
                || !authorizationHeader.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || authorizationHeader.length() > BEARER.length() + MAX_TOKEN_LENGTH) {
            return -1;
        }
        byte[] presented = sha256(authorizationHeader.substring(BEARER.length()).trim());
        int found = -1;
        for (int i = 0; i < digests.length; i++) {
            if (MessageDigest.isEqual(digests[i], presented) && found < 0) {
                found = i;
            }
        }
        return found;
    }

    /**
     * Index of the token presented for the status page: a bearer header as for the API, or HTTP Basic with the
     * token as password (any user name), which a browser asks for by itself. -1 when none matches.
     */
    public int matchPageCredentials(String authorizationHeader) {
        if (authorizationHeader == null || authorizationHeader.length() <= BASIC.length()
                || !authorizationHeader.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            return match(authorizationHeader);
        }
        if (authorizationHeader.length() > BASIC.length() + 2 * MAX_TOKEN_LENGTH) {
            return -1;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorizationHeader.substring(BASIC.length()).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return -1;
        }
        int colon = decoded.indexOf(':');
        return colon < 0 ? -1 : match(BEARER + decoded.substring(colon + 1));
    }

    /**
     * The fingerprint of the token at {@code index} that the registry stores as a node's owner: 128 bits of
     * SHA-256 over the token with a context of its own, so the stored value is not the token's digest.
     */
    public String owner(int index) {
        return owners.get(index);
    }

    /** Index of the token whose {@link #owner} fingerprint is {@code owner}, or -1 (a token no longer configured). */
    public int indexOfOwner(String owner) {
        return owner == null ? -1 : owners.indexOf(owner);
    }

    /** The token at {@code index}, used as the HMAC key of the advertisements sent to a node that used it. */
    public byte[] key(int index) {
        return tokens.get(index).getBytes(StandardCharsets.UTF_8);
    }

    public int size() {
        return tokens.size();
    }

    @Override
    public String toString() {
        return tokens.size() + " token(s)";
    }

    private static String checked(String token, String source) {
        if (token.length() < MIN_TOKEN_LENGTH || token.length() > MAX_TOKEN_LENGTH) {
            throw new IllegalArgumentException(source + ": every token must have " + MIN_TOKEN_LENGTH + " to "
                    + MAX_TOKEN_LENGTH + " characters");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException(source + ": tokens must be printable ASCII");
            }
        }
        return token;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
