package org.fjm2.norm.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;

/**
 * A group's shared secret, read from a key file that only its owner may read (never from a command line or URL
 * value). The file holds at least 32 bytes of key material: either raw bytes or their hex encoding on one line.
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
        String text = new String(content, java.nio.charset.StandardCharsets.US_ASCII).trim();
        byte[] key = content;
        if (text.matches("[0-9a-fA-F]+") && text.length() % 2 == 0) {
            key = HexFormat.of().parseHex(text);
        }
        Arrays.fill(content, (byte) 0);
        return of(key);
    }

    byte[] bytes() {
        return key;
    }
}
