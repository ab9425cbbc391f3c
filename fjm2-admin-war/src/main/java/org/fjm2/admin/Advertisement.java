package org.fjm2.admin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes the UDP advertisement that tells FJM2D nodes the list's stamp. A fixed 48-byte datagram, all integers
 * big-endian (network order), laid out at these offsets (the module README has the same table):
 *
 * <pre>
 *  0  4  magic            0x464A4D41 ("FJMA")
 *  4  1  version          1
 *  5  1  type             1 = list stamp
 *  6  2  reserved         0
 *  8  8  lastModified     the list's stamp, epoch milliseconds
 * 16  8  timestamp        when this datagram was made, epoch milliseconds (replay window)
 * 24  8  nonce            random, never repeated by one sender (replay detection)
 * 32 16  mac              HMAC-SHA256(token, bytes 0..31), first 16 bytes
 * </pre>
 *
 * One instance per thread: it reuses its {@link Mac}s.
 */
public final class Advertisement {

    public static final int MAGIC = 0x464A4D41;
    public static final byte VERSION = 1;
    public static final byte TYPE_LIST_STAMP = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 5;
    public static final int RESERVED_OFFSET = 6;
    public static final int LAST_MODIFIED_OFFSET = 8;
    public static final int TIMESTAMP_OFFSET = 16;
    public static final int NONCE_OFFSET = 24;
    public static final int MAC_OFFSET = 32;
    public static final int MAC_LENGTH = 16;
    public static final int LENGTH = MAC_OFFSET + MAC_LENGTH;

    public static final String MAC_ALGORITHM = "HmacSHA256";

    private final Mac[] macs;
    private final byte[] fullMac = new byte[32];

    /** @param tokens the keys, by token index */
    public Advertisement(TokenSet tokens) {
        macs = new Mac[tokens.size()];
        try {
            for (int i = 0; i < macs.length; i++) {
                macs[i] = Mac.getInstance(MAC_ALGORITHM);
                macs[i].init(new SecretKeySpec(tokens.key(i), MAC_ALGORITHM));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(MAC_ALGORITHM + " is unavailable", e);
        }
    }

    /**
     * Writes one advertisement into {@code dst} (position 0, limit {@link #LENGTH}), authenticated under the token
     * at {@code tokenIndex}.
     */
    public void encode(ByteBuffer dst, int tokenIndex, long lastModified, long timestamp, long nonce) {
        dst.clear().order(ByteOrder.BIG_ENDIAN);
        dst.putInt(MAGIC_OFFSET, MAGIC)
                .put(VERSION_OFFSET, VERSION)
                .put(TYPE_OFFSET, TYPE_LIST_STAMP)
                .putShort(RESERVED_OFFSET, (short) 0)
                .putLong(LAST_MODIFIED_OFFSET, lastModified)
                .putLong(TIMESTAMP_OFFSET, timestamp)
                .putLong(NONCE_OFFSET, nonce);
        Mac mac = macs[tokenIndex];
        dst.limit(MAC_OFFSET);
        mac.update(dst);
        try {
            mac.doFinal(fullMac, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e);
        }
        dst.limit(LENGTH).position(MAC_OFFSET);
        dst.put(fullMac, 0, MAC_LENGTH);
        dst.flip();
    }
}
