package org.fjm2.tunnel.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the daemon's FJM2-Admin token file. The file is read as bytes and checked before it becomes text: the
 * token travels in an HTTP header and keys the advertisements' HMAC as its ASCII bytes, so it must be printable
 * ASCII; a binary file (a tunnel key given by mistake) is refused with the offset of the first bad byte rather
 * than decoded into replacement characters that would never match.
 */
public final class AdminTokenFile {

    private AdminTokenFile() {
    }

    /**
     * The token: the file's content without surrounding white space.
     *
     * @throws IllegalArgumentException with a one-line reason (unreadable, empty, not printable ASCII)
     */
    public static String read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--token-file: cannot read " + file + ": " + e.getMessage());
        }
        int start = 0;
        int end = bytes.length;
        while (start < end && isSpace(bytes[start])) {
            start++;
        }
        while (end > start && isSpace(bytes[end - 1])) {
            end--;
        }
        if (start == end) {
            throw new IllegalArgumentException("--token-file: " + file + " is empty");
        }
        for (int i = start; i < end; i++) {
            if (bytes[i] < 0x21 || bytes[i] > 0x7e) {
                throw new IllegalArgumentException("--token-file: byte " + i + " of " + file + " (0x"
                        + Integer.toHexString(bytes[i] & 0xff) + ") is not printable ASCII: the token is one line of "
                        + "text, as in FJM2-Admin's token file");
            }
        }
        return new String(bytes, start, end - start, StandardCharsets.US_ASCII);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }
}
