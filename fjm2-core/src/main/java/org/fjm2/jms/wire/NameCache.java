package org.fjm2.jms.wire;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;

/**
 * Decoded property names, reused: a receiver decodes the same few names ("seq", "symbol", ...) in every message, so
 * a small direct-mapped cache turns a String allocation and UTF-8 decode per property into a hash and a byte
 * comparison. A collision simply replaces the slot. Not thread-safe: owned by one decoder.
 */
public final class NameCache {

    /** Slots of the cache (a power of two). */
    public static final int SLOTS = 256;
    /** Longer names are decoded every time (property names are short; this bounds the cache's memory). */
    public static final int MAX_NAME_BYTES = 64;

    private final byte[][] keys = new byte[SLOTS][];
    private final String[] names = new String[SLOTS];

    /** The string of the UTF-8 bytes {@code buf[index, index + length)}. */
    public String get(ByteBuf buf, int index, int length) {
        if (length > MAX_NAME_BYTES) {
            return buf.toString(index, length, StandardCharsets.UTF_8);
        }
        int hash = 1;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + buf.getByte(index + i);
        }
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        byte[] key = keys[slot];
        if (key != null && key.length == length && sameBytes(buf, index, key)) {
            return names[slot];
        }
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes);
        String name = new String(bytes, StandardCharsets.UTF_8);
        keys[slot] = bytes;
        names[slot] = name;
        return name;
    }

    private static boolean sameBytes(ByteBuf buf, int index, byte[] key) {
        for (int i = 0; i < key.length; i++) {
            if (buf.getByte(index + i) != key[i]) {
                return false;
            }
        }
        return true;
    }
}
