package org.fjm2.norm.fuzz;

import java.io.ByteArrayOutputStream;

/** Writes seed inputs field by field, the mirror of {@link FuzzInput} (corpus generators only). */
public final class FuzzInputWriter {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public FuzzInputWriter u8(int v) {
        out.write(v);
        return this;
    }

    public FuzzInputWriter u16(int v) {
        return u8(v >>> 8).u8(v);
    }

    public FuzzInputWriter u32(long v) {
        return u16((int) (v >>> 16)).u16((int) v);
    }

    public FuzzInputWriter bytes(byte[] v) {
        out.writeBytes(v);
        return this;
    }

    /** A length-prefixed (u16) byte string, as {@link FuzzInput#chunk()} reads it. */
    public FuzzInputWriter chunk(byte[] v) {
        return u16(v.length).bytes(v);
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }
}
