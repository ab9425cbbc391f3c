package org.fjm2.tunnel.admin;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Reads and authenticates FJM2-Admin's advertisement datagram (format: fjm2-admin-war/README.md): 48 bytes,
 * big-endian, {@code magic "FJMA" | version 1 | type 1 | reserved | lastModified | timestamp | nonce |
 * HMAC-SHA256(token, bytes 0..31)[0..16)}. A flyweight: {@link #verify} checks one datagram in place and, when it
 * passes, leaves its fields readable until the next call. Not thread-safe: one instance per thread, or guarded.
 */
public final class AdvertisementVerifier {

    public static final int MAGIC = 0x464A4D41;
    public static final byte VERSION = 1;
    public static final byte TYPE_LIST_STAMP = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 5;
    public static final int LAST_MODIFIED_OFFSET = 8;
    public static final int TIMESTAMP_OFFSET = 16;
    public static final int NONCE_OFFSET = 24;
    public static final int MAC_OFFSET = 32;
    public static final int MAC_LENGTH = 16;
    public static final int LENGTH = MAC_OFFSET + MAC_LENGTH;

    private static final String MAC_ALGORITHM = "HmacSHA256";

    /** What {@link #verify} found. */
    public enum Result {
        /** Authentic; the fields are readable. */
        VALID,
        /** Wrong length or magic: some other datagram (the tunnel's port carries other traffic too). */
        NOT_AN_ADVERTISEMENT,
        /** An advertisement of a version or type this code does not know. */
        UNSUPPORTED,
        /** Right shape, wrong MAC: forged, corrupted, or keyed with another token. */
        BAD_MAC
    }

    private final Mac mac;
    private final byte[] copy = new byte[LENGTH];
    private final byte[] computed = new byte[32];
    private final byte[] received = new byte[MAC_LENGTH];
    private final byte[] expected = new byte[MAC_LENGTH];
    private long lastModified;
    private long timestamp;
    private long nonce;

    /** @param token the bearer token shared with FJM2-Admin: the HMAC key */
    public AdvertisementVerifier(String token) {
        try {
            mac = Mac.getInstance(MAC_ALGORITHM);
            mac.init(new SecretKeySpec(token.getBytes(StandardCharsets.UTF_8), MAC_ALGORITHM));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(MAC_ALGORITHM + " is unavailable", e);
        }
    }

    /** Checks the readable bytes of {@code datagram} without moving its indexes. */
    public Result verify(ByteBuf datagram) {
        if (datagram.readableBytes() != LENGTH) {
            return Result.NOT_AN_ADVERTISEMENT;
        }
        datagram.getBytes(datagram.readerIndex(), copy);
        return verifyCopy();
    }

    /** Checks {@code length} bytes of {@code datagram} from {@code offset}. */
    public Result verify(byte[] datagram, int offset, int length) {
        if (length != LENGTH || offset < 0 || offset + length > datagram.length) {
            return Result.NOT_AN_ADVERTISEMENT;
        }
        System.arraycopy(datagram, offset, copy, 0, LENGTH);
        return verifyCopy();
    }

    private Result verifyCopy() {
        if (readInt(MAGIC_OFFSET) != MAGIC) {
            return Result.NOT_AN_ADVERTISEMENT;
        }
        if (copy[VERSION_OFFSET] != VERSION || copy[TYPE_OFFSET] != TYPE_LIST_STAMP) {
            return Result.UNSUPPORTED;
        }
        mac.update(copy, 0, MAC_OFFSET);
        try {
            mac.doFinal(computed, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        System.arraycopy(computed, 0, expected, 0, MAC_LENGTH);
        System.arraycopy(copy, MAC_OFFSET, received, 0, MAC_LENGTH);
        if (!MessageDigest.isEqual(expected, received)) {
            return Result.BAD_MAC;
        }
        lastModified = readLong(LAST_MODIFIED_OFFSET);
        timestamp = readLong(TIMESTAMP_OFFSET);
        nonce = readLong(NONCE_OFFSET);
        return Result.VALID;
    }

    /** The list's stamp of the last {@link Result#VALID} datagram. */
    public long lastModified() {
        return lastModified;
    }

    /** When the admin made the last valid datagram (epoch milliseconds). */
    public long timestamp() {
        return timestamp;
    }

    /** The nonce of the last valid datagram. */
    public long nonce() {
        return nonce;
    }

    private int readInt(int offset) {
        return (copy[offset] & 0xff) << 24 | (copy[offset + 1] & 0xff) << 16 | (copy[offset + 2] & 0xff) << 8
                | copy[offset + 3] & 0xff;
    }

    private long readLong(int offset) {
        return (long) readInt(offset) << 32 | readInt(offset + 4) & 0xffffffffL;
    }
}
