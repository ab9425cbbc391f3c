package org.fjm2.norm.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Set;

/**
 * A group's shared secret, read from a key file that only its owner may read (never from a command line or URL
 * value). The file holds at least 32 bytes of key material: either raw bytes, used as they are, or their hex
 * encoding on one line (a file of nothing but an even number of hex digits is read as hex).
 */
public final class GroupKey {

    /** Fewest key bytes accepted. */
    public static final int MIN_KEY_BYTES = 32;

    private final byte[] key;

    private GroupKey(byte[] key) {
        this.key = key;
    }

    /** The key material itself (tests and tools); files are the way for users. */
    public static GroupKey of(byte[] key) {
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("keyFile: the key must have at least " + MIN_KEY_BYTES + " bytes");
        }
        return new GroupKey(key.clone());
    }

    /**
     * Reads a key file; refuses a file that group or others may read or write, or one too short.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static GroupKey fromFile(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("keyFile: not a readable file: " + file);
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            for (PosixFilePermission p : perms) {
                if (p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE) {
                    throw new IllegalArgumentException("keyFile: " + file + " must be readable by its owner only "
                            + "(chmod 600), it has " + java.nio.file.attribute.PosixFilePermissions.toString(perms));
                }
            }
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to check
        }
        byte[] content = Files.readAllBytes(file);
        byte[] hex = hexKey(content);
        if (hex == null) {
            // Raw key bytes: used as they are (of() takes its own copy before we wipe the file's).
            GroupKey key = of(content);
            Arrays.fill(content, (byte) 0);
            return key;
        }
        Arrays.fill(content, (byte) 0);
        GroupKey key = of(hex);
        Arrays.fill(hex, (byte) 0);
        return key;
    }

    /**
     * The key a file holds in hex (one line of an even number of hex digits, surrounding whitespace allowed), or
     * null when the file is raw key bytes. Decided on the bytes themselves: no charset decoding touches the key.
     */
    static byte[] hexKey(byte[] content) {
        int from = 0;
        int to = content.length;
        while (from < to && isSpace(content[from])) {
            from++;
        }
        while (to > from && isSpace(content[to - 1])) {
            to--;
        }
        int digits = to - from;
        if (digits == 0 || digits % 2 != 0) {
            return null;
        }
        byte[] key = new byte[digits / 2];
        for (int i = 0; i < key.length; i++) {
            int high = Character.digit(content[from + 2 * i], 16);
            int low = Character.digit(content[from + 2 * i + 1], 16);
            if (high < 0 || low < 0) {
                Arrays.fill(key, (byte) 0);
                return null;
            }
            key[i] = (byte) (high << 4 | low);
        }
        return key;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    byte[] bytes() {
        return key;
    }
}
