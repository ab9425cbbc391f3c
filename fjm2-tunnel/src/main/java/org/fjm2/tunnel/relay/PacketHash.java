package org.fjm2.tunnel.relay;

import io.netty.buffer.ByteBuf;

/**
 * A seeded 64-bit hash of a datagram's bytes (xxHash64-style mixing over 8-byte little-endian words), for the
 * duplicate filter: two copies of one NORM message hash alike wherever they travelled, and a random seed per
 * daemon keeps anyone on the LAN from precomputing collisions. Not a cryptographic hash: authenticity is the MAC's
 * job.
 */
public final class PacketHash {

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private PacketHash() {
    }

    /** Hash of {@code length} bytes at absolute index {@code index}. */
    public static long hash(ByteBuf buf, int index, int length, long seed) {
        long h = seed + P5 + length;
        int end = index + length;
        int i = index;
        for (; i + 8 <= end; i += 8) {
            h ^= round(buf.getLongLE(i));
            h = Long.rotateLeft(h, 27) * P1 + P4;
        }
        if (i + 4 <= end) {
            h ^= (buf.getUnsignedIntLE(i)) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            i += 4;
        }
        for (; i < end; i++) {
            h ^= buf.getUnsignedByte(i) * P5;
            h = Long.rotateLeft(h, 11) * P1;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long word) {
        return Long.rotateLeft(word * P2, 31) * P1;
    }
}
