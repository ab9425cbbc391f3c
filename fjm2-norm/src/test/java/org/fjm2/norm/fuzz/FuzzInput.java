package org.fjm2.norm.fuzz;

/**
 * Reads a fuzz input front to back as the fields of a structure-aware generator. Past the end every read returns
 * zero (never throws), so every byte string decodes into some program and the fuzzer's mutations stay meaningful:
 * the n-th byte always feeds the same kind of field as long as the bytes before it keep their meaning. The corpus
 * generators write seeds with {@link FuzzInputWriter}, field for field in the same order.
 */
public final class FuzzInput {

    private final byte[] bytes;
    private int position;

    public FuzzInput(byte[] bytes) {
        this.bytes = bytes;
    }

    public boolean hasMore() {
        return position < bytes.length;
    }

    public int remaining() {
        return Math.max(0, bytes.length - position);
    }

    public int u8() {
        return position < bytes.length ? bytes[position++] & 0xFF : 0;
    }

    public int u16() {
        return (u8() << 8) | u8();
    }

    public long u32() {
        return ((long) u16() << 16) | u16();
    }

    public boolean bit() {
        return (u8() & 1) != 0;
    }

    /** One of {@code choices} values, 0..choices-1. */
    public int choice(int choices) {
        return u8() % choices;
    }

    /** Up to {@code length} bytes (fewer at the end of the input). */
    public byte[] bytes(int length) {
        int n = Math.max(0, Math.min(length, remaining()));
        byte[] out = new byte[n];
        System.arraycopy(bytes, position, out, 0, n);
        position += n;
        return out;
    }

    /** A length-prefixed (u16) byte string. */
    public byte[] chunk() {
        return bytes(u16());
    }
}
