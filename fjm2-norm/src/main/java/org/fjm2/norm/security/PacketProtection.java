package org.fjm2.norm.security;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import io.netty.buffer.ByteBuf;
import io.netty.util.collection.IntObjectHashMap;

/**
 * Optional group security: every datagram of the session is authenticated (HMAC-SHA256, truncated) or sealed
 * (AES-256-GCM) under the group key, with a per-node datagram counter against replay. One instance per session,
 * used on its event loop only.
 *
 * <pre>
 * authenticate: | NORM message | counter (8) | HMAC-SHA256(key, message | counter)[0..16) |
 * seal:         | source_id (4) | counter (8) | AES-GCM(key, nonce = source_id | counter, message) + tag (16) |
 * </pre>
 * A receiver keeps, per source node, the highest counter seen and a 1024-counter window below it: a datagram whose
 * counter is older than the window or already seen is a replay and is dropped (counted by the caller). Protected
 * groups do not interoperate with unprotected NORM nodes (NRL NORM has no such mode).
 */
public final class PacketProtection {

    /** What the session's datagrams carry. */
    public enum Mode {
        /** Integrity and origin: anyone with the key may read, nobody without it can inject. */
        AUTHENTICATE,
        /** Confidentiality too: nobody without the key can read or inject. */
        SEAL
    }

    public static final int COUNTER_BYTES = 8;
    public static final int MAC_BYTES = 16;
    public static final int GCM_TAG_BYTES = 16;
    /** Counters below the highest seen that are still accepted once (out-of-order arrival). */
    public static final int REPLAY_WINDOW = 1024;

    private final Mode mode;
    private final Mac mac;
    private final Cipher cipher;
    private final SecretKeySpec aesKey;
    private final byte[] nonce = new byte[12];
    private final byte[] macOut = new byte[32];
    private final byte[] scratch = new byte[65536 + 64];
    private final IntObjectHashMap<ReplayWindow> windows = new IntObjectHashMap<>();
    private final int localNodeId;
    private long counter;

    public PacketProtection(Mode mode, GroupKey key, int localNodeId) {
        this.mode = mode;
        this.localNodeId = localNodeId;
        try {
            byte[] k = key.bytes();
            // Separate keys for the two uses, derived from the group key.
            byte[] macKey = derive(k, "fjm2-norm-mac");
            byte[] encKey = derive(k, "fjm2-norm-aes");
            this.mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
            this.aesKey = new SecretKeySpec(encKey, "AES");
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JCE lacks HmacSHA256 or AES/GCM", e);
        }
        this.counter = System.currentTimeMillis() << 20;     // monotonic across restarts of this node
    }

    private static byte[] derive(byte[] key, String label) throws GeneralSecurityException {
        Mac h = Mac.getInstance("HmacSHA256");
        h.init(new SecretKeySpec(key, "HmacSHA256"));
        return h.doFinal(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    public Mode mode() {
        return mode;
    }

    /** Bytes this protection adds to a datagram. */
    public int overhead() {
        return overhead(mode);
    }

    /** Bytes a protection mode adds to a datagram (0 without protection). */
    public static int overhead(Mode mode) {
        if (mode == null) {
            return 0;
        }
        return mode == Mode.AUTHENTICATE ? COUNTER_BYTES + MAC_BYTES : 4 + COUNTER_BYTES + GCM_TAG_BYTES;
    }

    /**
     * Protects the datagram in place (its readable bytes): appends counter and MAC, or replaces the content by
     * source_id, counter and the sealed message. The buffer must have {@link #overhead()} writable bytes.
     */
    public void protect(ByteBuf datagram) {
        long c = ++counter;
        int start = datagram.readerIndex();
        int length = datagram.readableBytes();
        try {
            if (mode == Mode.AUTHENTICATE) {
                datagram.writeLong(c);
                datagram.getBytes(start, scratch, 0, length + COUNTER_BYTES);
                mac.update(scratch, 0, length + COUNTER_BYTES);
                mac.doFinal(macOut, 0);
                datagram.writeBytes(macOut, 0, MAC_BYTES);
            } else {
                datagram.getBytes(start, scratch, 0, length);
                nonce(localNodeId, c);
                cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(GCM_TAG_BYTES * 8, nonce));
                int sealed = cipher.doFinal(scratch, 0, length, scratch, 12);
                datagram.writerIndex(start);
                datagram.writeInt(localNodeId);
                datagram.writeLong(c);
                datagram.writeBytes(scratch, 12, sealed);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot protect datagram", e);
        }
    }

    /**
     * Checks and strips the protection of a received datagram in place; false (leave it to be counted and dropped)
     * when it is too short, forged, or a replay.
     */
    public boolean unprotect(ByteBuf datagram) {
        int start = datagram.readerIndex();
        int length = datagram.readableBytes();
        try {
            if (mode == Mode.AUTHENTICATE) {
                int body = length - COUNTER_BYTES - MAC_BYTES;
                if (body < 8) {
                    return false;
                }
                datagram.getBytes(start, scratch, 0, length);
                mac.update(scratch, 0, body + COUNTER_BYTES);
                mac.doFinal(macOut, 0);
                int difference = 0;
                for (int i = 0; i < MAC_BYTES; i++) {
                    difference |= macOut[i] ^ scratch[body + COUNTER_BYTES + i];     // constant time
                }
                if (difference != 0) {
                    return false;
                }
                int source = datagram.getInt(start + 4);
                long c = datagram.getLong(start + body);
                if (!window(source).accept(c)) {
                    return false;
                }
                datagram.writerIndex(start + body);
                return true;
            }
            int sealed = length - 4 - COUNTER_BYTES;
            if (sealed < GCM_TAG_BYTES + 8) {
                return false;
            }
            int source = datagram.getInt(start);
            long c = datagram.getLong(start + 4);
            datagram.getBytes(start + 12, scratch, 0, sealed);
            nonce(source, c);
            cipher.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(GCM_TAG_BYTES * 8, nonce));
            int plain = cipher.doFinal(scratch, 0, sealed, scratch, 0);
            if (plain < 8 || datagram.getInt(start) != source || !window(source).accept(c)) {
                return false;
            }
            // the NORM header's source_id must be the one the nonce authenticated
            if (((scratch[4] & 0xFF) << 24 | (scratch[5] & 0xFF) << 16 | (scratch[6] & 0xFF) << 8 | (scratch[7] & 0xFF))
                    != source) {
                return false;
            }
            datagram.setBytes(start, scratch, 0, plain);
            datagram.writerIndex(start + plain);
            return true;
        } catch (GeneralSecurityException | IndexOutOfBoundsException e) {
            return false;
        }
    }

    private void nonce(int source, long c) {
        nonce[0] = (byte) (source >>> 24);
        nonce[1] = (byte) (source >>> 16);
        nonce[2] = (byte) (source >>> 8);
        nonce[3] = (byte) source;
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (c >>> (56 - 8 * i));
        }
    }

    private ReplayWindow window(int source) {
        ReplayWindow w = windows.get(source);
        if (w == null) {
            w = new ReplayWindow();
            windows.put(source, w);
        }
        return w;
    }

    /** Highest counter seen and a bitmap of the {@link #REPLAY_WINDOW} counters below it. */
    static final class ReplayWindow {
        private long highest = -1;
        private final long[] seen = new long[REPLAY_WINDOW / 64];

        boolean accept(long c) {
            if (highest < 0) {
                highest = c;
                mark(c);
                return true;
            }
            if (c > highest) {
                long shift = c - highest;
                if (shift >= REPLAY_WINDOW) {
                    Arrays.fill(seen, 0L);
                } else {
                    for (long x = highest + 1; x <= c; x++) {
                        clear(x);
                    }
                }
                highest = c;
                mark(c);
                return true;
            }
            if (highest - c >= REPLAY_WINDOW || isMarked(c)) {
                return false;
            }
            mark(c);
            return true;
        }

        private void mark(long c) {
            int bit = (int) (c & (REPLAY_WINDOW - 1));
            seen[bit >>> 6] |= 1L << bit;
        }

        private void clear(long c) {
            int bit = (int) (c & (REPLAY_WINDOW - 1));
            seen[bit >>> 6] &= ~(1L << bit);
        }

        private boolean isMarked(long c) {
            int bit = (int) (c & (REPLAY_WINDOW - 1));
            return (seen[bit >>> 6] & (1L << bit)) != 0;
        }
    }
}
