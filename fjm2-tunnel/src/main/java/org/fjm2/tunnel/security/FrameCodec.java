package org.fjm2.tunnel.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
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
 * |         magic "FT"            |   version=2   |     type      |
 * |     flags     |                  reserved (0)                 |
 * |                 sender: the sending daemon's wire id          |
 * |                       (64 bits, see {@link #wireId})          |
 * |              destination: the receiving daemon's wire id      |
 * |           (0 only in a HELLO to a peer not answered yet)      |
 * |                  timestamp (Unix seconds, sender's clock)     |
 * |          nonce prefix (random, drawn once per process)        |
 * |                  counter (64 bits, never repeats per sender)  |
 * |                                                               |
 * |  payload: a NORM message, or AES-256-GCM(NORM message) + 16-byte tag when SEALED;
 * |           a HELLO's challenge or a HELLO_REPLY's echo (8 bytes)
 * |  MAC: HMAC-SHA256(mac key, every byte before it), first 16 bytes
 * </pre>
 *
 * The MAC covers the header and the (sealed or clear) payload, and is checked first, in constant time, before
 * anything else of the datagram is believed. The header names the destination, so a frame is good for one receiver
 * only: a frame meant for another daemon is refused, not replayed into a new context. Replay is then checked by
 * {@link ReplayProtection} on the sender, timestamp and counter. When sealed, the 96-bit GCM nonce is the nonce prefix
 * and the counter: the prefix is random per process, so two daemons never share a nonce, even clones with one node
 * id; the header is GCM's associated data.
 */
public final class FrameCodec {

    public static final int MAGIC = 0x4654;
    /** Version 2: 64-bit sender and destination ids, random nonce prefix (version 1 had a 32-bit sender tag). */
    public static final int VERSION = 2;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 2;
    public static final int TYPE_OFFSET = 3;
    public static final int FLAGS_OFFSET = 4;
    public static final int SENDER_OFFSET = 8;
    public static final int DESTINATION_OFFSET = 16;
    public static final int TIMESTAMP_OFFSET = 24;
    public static final int NONCE_PREFIX_OFFSET = 28;
    public static final int COUNTER_OFFSET = 32;
    public static final int HEADER_LENGTH = 40;
    public static final int MAC_LENGTH = 16;
    public static final int GCM_TAG_LENGTH = 16;
    /** Bytes a frame adds to a clear payload. */
    public static final int OVERHEAD = HEADER_LENGTH + MAC_LENGTH;
    /** Length of a HELLO's challenge and of a HELLO_REPLY's echo. */
    public static final int CHALLENGE_LENGTH = 8;
    /** The destination of a frame to a daemon whose id is not known yet (allowed in a HELLO only). */
    public static final long NO_DESTINATION = 0;

    /** A NORM message between daemons. */
    public static final int TYPE_NORM = 1;
    /**
     * A greeting with a fresh challenge: asks the receiver to answer with a {@link #TYPE_HELLO_REPLY} to the address
     * it came from. Sent until a peer answers, then as the keepalive (it keeps NAT mappings open).
     */
    public static final int TYPE_HELLO = 2;
    /** The same frame type under its former name: the hello is also the keepalive. */
    public static final int TYPE_KEEPALIVE = TYPE_HELLO;
    /** The answer to a HELLO: its payload echoes the challenge. */
    public static final int TYPE_HELLO_REPLY = 3;

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

    /** Where nonce prefixes come from: unpredictable, so that no two processes are likely to draw the same. */
    private static final SecureRandom NONCE_PREFIXES = new SecureRandom();

    private final Mac mac;
    private final Cipher cipher;
    private final TunnelKey key;
    private final long senderId;
    private final int noncePrefix;
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
     * @param senderId this daemon's wire id (see {@link #wireId})
     * @param seal whether outgoing payloads are sealed (incoming sealed payloads are opened either way)
     * @param firstCounter the first counter value; {@link #initialCounter()} makes a restarted daemon continue above
     *                     the counters of its previous run
     */
    public FrameCodec(TunnelKey key, long senderId, boolean seal, long firstCounter) {
        this.key = key;
        this.mac = key.newMac();
        this.senderId = senderId;
        this.noncePrefix = NONCE_PREFIXES.nextInt();
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

    /**
     * The 64-bit wire id of a node id, what frames carry as sender and destination: the first 8 bytes of the id's
     * SHA-256 (never 0, which means "no destination"). Node ids are unique by construction (see TunnelConfig), and 64
     * bits keep accidental collisions out of reach.
     */
    public static long wireId(String nodeId) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(nodeId.getBytes(StandardCharsets.UTF_8));
            long id = 0;
            for (int i = 0; i < 8; i++) {
                id = (id << 8) | (h[i] & 0xFF);
            }
            return id == NO_DESTINATION ? 1 : id;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }

    /** The former name of {@link #wireId}. */
    public static long tagOf(String nodeId) {
        return wireId(nodeId);
    }

    public long senderId() {
        return senderId;
    }

    /** This codec's nonce prefix (random per instance, so per process). */
    public int noncePrefix() {
        return noncePrefix;
    }

    public boolean sealing() {
        return seal;
    }

    /** Length of the frame that carries {@code payloadLength} bytes. */
    public int frameLength(int payloadLength) {
        return OVERHEAD + payloadLength + (seal && payloadLength > 0 ? GCM_TAG_LENGTH : 0);
    }

    /** A frame with no destination ({@link #NO_DESTINATION}): only a HELLO to a peer not answered yet is one. */
    public ByteBuf encode(ByteBufAllocator alloc, int type, int flags, ByteBuf payload, int index, int length) {
        return encode(alloc, type, flags, NO_DESTINATION, payload, index, length);
    }

    /**
     * Builds a frame for {@code destination} around {@code length} bytes of {@code payload} from absolute index
     * {@code index}. Returns a new pooled buffer the caller owns; {@code payload} is not modified or released.
     */
    public ByteBuf encode(ByteBufAllocator alloc, int type, int flags, long destination, ByteBuf payload, int index,
                          int length) {
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
        out.writeLong(senderId);
        out.writeLong(destination);
        out.writeInt((int) now);
        out.writeInt(noncePrefix);
        out.writeLong(c);
        if (sealed) {
            int payloadStart = out.writerIndex();
            try {
                initCipher(Cipher.ENCRYPT_MODE, noncePrefix, c);
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

    /** The sender's wire id. */
    public long sender() {
        return frame.getLong(offset + SENDER_OFFSET);
    }

    /** The destination's wire id ({@link #NO_DESTINATION} in a HELLO to a peer not answered yet). */
    public long destination() {
        return frame.getLong(offset + DESTINATION_OFFSET);
    }

    /** The nonce prefix of the frame decoded last. */
    public int framePrefix() {
        return frame.getInt(offset + NONCE_PREFIX_OFFSET);
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
            initCipher(Cipher.DECRYPT_MODE, framePrefix(), counter());
            cipher.updateAAD(frame.nioBuffer(offset, HEADER_LENGTH));
            cipher.doFinal(frame.nioBuffer(payloadIndex(), length), out.internalNioBuffer(0, plainLength));
            out.writerIndex(plainLength);
            return out;
        } catch (GeneralSecurityException | RuntimeException e) {
            out.release();
            return null;
        }
    }

    private void initCipher(int mode, int prefix, long c) throws GeneralSecurityException {
        nonce[0] = (byte) (prefix >>> 24);
        nonce[1] = (byte) (prefix >>> 16);
        nonce[2] = (byte) (prefix >>> 8);
        nonce[3] = (byte) prefix;
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
