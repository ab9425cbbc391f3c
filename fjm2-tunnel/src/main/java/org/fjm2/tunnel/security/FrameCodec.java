package org.fjm2.tunnel.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Builds and checks tunnel datagrams: the only thing FJM2D daemons send each other. A flyweight over one datagram
 * at a time; one instance per thread (the relay's event loop).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * |         magic "FT"            |   version=1   |     type      |
 * |     flags     |                  reserved (0)                 |
 * |                      sender tag (the sending daemon)          |
 * |                  timestamp (Unix seconds, sender's clock)     |
 * |                  counter (64 bits, never repeats per sender)  |
 * |                                                               |
 * |  payload: a NORM message, or AES-256-GCM(NORM message) + 16-byte tag when SEALED
 * |  MAC: HMAC-SHA256(mac key, every byte before it), first 16 bytes
 * </pre>
 *
 * The MAC covers the header and the (sealed or clear) payload, and is checked first, in constant time, before
 * anything else of the datagram is believed; replay is then checked by {@link ReplayProtection} on the sender tag,
 * timestamp and counter. When sealed, the GCM nonce is the sender tag and the counter (unique per sender as long
 * as node ids are unique), and the header is GCM's associated data.
 */
public final class FrameCodec {

    public static final int MAGIC = 0x4654;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 2;
    public static final int TYPE_OFFSET = 3;
    public static final int FLAGS_OFFSET = 4;
    public static final int SENDER_OFFSET = 8;
    public static final int TIMESTAMP_OFFSET = 12;
    public static final int COUNTER_OFFSET = 16;
    public static final int HEADER_LENGTH = 24;
    public static final int MAC_LENGTH = 16;
    public static final int GCM_TAG_LENGTH = 16;
    /** Bytes a frame adds to a clear payload. */
    public static final int OVERHEAD = HEADER_LENGTH + MAC_LENGTH;

    /** A NORM message between daemons. */
    public static final int TYPE_NORM = 1;
    /** No payload: keeps NAT mappings open and tells the peer we are alive. */
    public static final int TYPE_KEEPALIVE = 2;

    /** The payload is sealed with AES-256-GCM. */
    public static final int FLAG_SEALED = 0x01;
    /** The NORM message was served from a daemon's repair cache (hop-by-hop repair), not by its sender. */
    public static final int FLAG_CACHE_REPAIR = 0x02;

    /** What {@link #decode} found. */
    public enum Verdict {
        VALID,
        /** Not a tunnel datagram at all (other traffic on the port, e.g. an admin advertisement). */
        NOT_A_FRAME,
        /** Shorter than a header and a MAC, or a sealed payload shorter than its tag. */
        TRUNCATED,
        BAD_VERSION,
        /** Forged, corrupted, or made with another key. */
        BAD_MAC,
        /** The MAC was right but the sealed payload did not open (a peer sealing with another seal key). */
        BAD_SEAL
    }

    private final Mac mac;
    private final Cipher cipher;
    private final TunnelKey key;
    private final int senderTag;
    private final boolean seal;
    private final byte[] macOut = new byte[32];
    private final byte[] macIn = new byte[MAC_LENGTH];
    private final byte[] nonce = new byte[12];
    /** The datagram's bytes for the MAC: a copy into one reused array costs less than a ByteBuffer view each time. */
    private byte[] scratch = new byte[2048];
    private long counter;

    private ByteBuf frame;
    private int offset;
    private int length;

    /**
     * @param key the shared key
     * @param senderTag this daemon's tag (see {@link #tagOf})
     * @param seal whether outgoing payloads are sealed (incoming sealed payloads are opened either way)
     * @param firstCounter the first counter value; {@link #initialCounter()} makes a restarted daemon continue above
     *                     the counters of its previous run
     */
    public FrameCodec(TunnelKey key, int senderTag, boolean seal, long firstCounter) {
        this.key = key;
        this.mac = key.newMac();
        this.senderTag = senderTag;
        this.seal = seal;
        this.counter = firstCounter;
        try {
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is unavailable", e);
        }
    }

    /** Microseconds since the epoch: counters start there, so they grow across restarts of a daemon. */
    public static long initialCounter() {
        return System.currentTimeMillis() * 1000L;
    }

    /** The 32-bit tag of a node id (the id's string hash, spread): what the frames carry as the sender. */
    public static int tagOf(String nodeId) {
        int h = nodeId.hashCode() * 0x9E3779B1;
        return h ^ (h >>> 16);
    }

    public int senderTag() {
        return senderTag;
    }

    public boolean sealing() {
        return seal;
    }

    /** Length of the frame that carries {@code payloadLength} bytes. */
    public int frameLength(int payloadLength) {
        return OVERHEAD + payloadLength + (seal && payloadLength > 0 ? GCM_TAG_LENGTH : 0);
    }

    /**
     * Builds a frame around {@code length} bytes of {@code payload} from absolute index {@code index} (a keepalive
     * passes length 0). Returns a new pooled buffer the caller owns; {@code payload} is not modified or released.
     */
    public ByteBuf encode(ByteBufAllocator alloc, int type, int flags, ByteBuf payload, int index, int length) {
        boolean sealed = seal && length > 0;
        int frameLength = frameLength(length);
        ByteBuf out = alloc.directBuffer(frameLength);
        long now = System.currentTimeMillis() / 1000;
        long c = counter++;
        out.writeShort(MAGIC);
        out.writeByte(VERSION);
        out.writeByte(type);
        out.writeByte(flags | (sealed ? FLAG_SEALED : 0));
        out.writeByte(0);
        out.writeShort(0);
        out.writeInt(senderTag);
        out.writeInt((int) now);
        out.writeLong(c);
        if (sealed) {
            int payloadStart = out.writerIndex();
            try {
                initCipher(Cipher.ENCRYPT_MODE, senderTag, c);
                cipher.updateAAD(out.internalNioBuffer(0, HEADER_LENGTH));
                ByteBuffer plain = payload.nioBuffer(index, length);
                ByteBuffer sealedOut = out.internalNioBuffer(payloadStart, length + GCM_TAG_LENGTH);
                cipher.doFinal(plain, sealedOut);
            } catch (GeneralSecurityException e) {
                out.release();
                throw new IllegalStateException("sealing failed", e);
            }
            out.writerIndex(payloadStart + length + GCM_TAG_LENGTH);
        } else if (length > 0) {
            out.writeBytes(payload, index, length);
        }
        int macStart = out.writerIndex();
        mac.update(out.internalNioBuffer(0, macStart));
        doFinal();
        out.writeBytes(macOut, 0, MAC_LENGTH);
        return out;
    }

    /** Checks the readable bytes of {@code datagram} in place; after VALID the accessors below describe it. */
    public Verdict decode(ByteBuf datagram) {
        this.frame = datagram;
        this.offset = datagram.readerIndex();
        this.length = datagram.readableBytes();
        if (length < 2 || datagram.getUnsignedShort(offset + MAGIC_OFFSET) != MAGIC) {
            return Verdict.NOT_A_FRAME;
        }
        if (length < OVERHEAD) {
            return Verdict.TRUNCATED;
        }
        if (datagram.getUnsignedByte(offset + VERSION_OFFSET) != VERSION) {
            return Verdict.BAD_VERSION;
        }
        int macStart = offset + length - MAC_LENGTH;
        int covered = length - MAC_LENGTH;
        if (scratch.length < covered) {
            scratch = new byte[Math.max(covered, 2 * scratch.length)];
        }
        datagram.getBytes(offset, scratch, 0, covered);
        mac.update(scratch, 0, covered);
        doFinal();
        datagram.getBytes(macStart, macIn);
        int diff = 0;
        for (int i = 0; i < MAC_LENGTH; i++) {
            diff |= macOut[i] ^ macIn[i];
        }
        if (diff != 0) {
            return Verdict.BAD_MAC;
        }
        if (sealed() && payloadLength() < GCM_TAG_LENGTH) {
            return Verdict.TRUNCATED;
        }
        return Verdict.VALID;
    }

    public int type() {
        return frame.getUnsignedByte(offset + TYPE_OFFSET);
    }

    public int flags() {
        return frame.getUnsignedByte(offset + FLAGS_OFFSET);
    }

    public boolean sealed() {
        return (flags() & FLAG_SEALED) != 0;
    }

    public int sender() {
        return frame.getInt(offset + SENDER_OFFSET);
    }

    /** The sender's clock when it built the frame, Unix seconds. */
    public long timestamp() {
        return frame.getUnsignedInt(offset + TIMESTAMP_OFFSET);
    }

    public long counter() {
        return frame.getLong(offset + COUNTER_OFFSET);
    }

    /** Absolute index of the payload (clear NORM message, or ciphertext and tag). */
    public int payloadIndex() {
        return offset + HEADER_LENGTH;
    }

    public int payloadLength() {
        return length - OVERHEAD;
    }

    /**
     * The NORM message of the last VALID frame: for a clear frame a retained slice of the datagram, for a sealed one
     * a new buffer with the opened payload. Null when the frame has no payload or the seal does not open (count it
     * as {@link Verdict#BAD_SEAL}). The caller releases what it gets.
     */
    public ByteBuf openPayload(ByteBufAllocator alloc) {
        int length = payloadLength();
        if (!sealed()) {
            return length == 0 ? null : frame.retainedSlice(payloadIndex(), length);
        }
        int plainLength = length - GCM_TAG_LENGTH;
        if (plainLength <= 0) {
            return null;
        }
        ByteBuf out = alloc.directBuffer(plainLength);
        try {
            initCipher(Cipher.DECRYPT_MODE, sender(), counter());
            cipher.updateAAD(frame.nioBuffer(offset, HEADER_LENGTH));
            cipher.doFinal(frame.nioBuffer(payloadIndex(), length), out.internalNioBuffer(0, plainLength));
            out.writerIndex(plainLength);
            return out;
        } catch (GeneralSecurityException | RuntimeException e) {
            out.release();
            return null;
        }
    }

    private void initCipher(int mode, int tag, long c) throws GeneralSecurityException {
        nonce[0] = (byte) (tag >>> 24);
        nonce[1] = (byte) (tag >>> 16);
        nonce[2] = (byte) (tag >>> 8);
        nonce[3] = (byte) tag;
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (c >>> (56 - 8 * i));
        }
        cipher.init(mode, key.sealKey(), new GCMParameterSpec(GCM_TAG_LENGTH * 8, nonce));
    }

    private void doFinal() {
        try {
            mac.doFinal(macOut, 0);
        } catch (javax.crypto.ShortBufferException e) {
            throw new IllegalStateException(e);
        }
    }
}
