package org.fjm2.norm.codec;

/**
 * FEC Object Transmission Information of one object, decoded from EXT_FTI into a reusable holder.
 * {@link #lastField()} is RFC 5510's max_n, which NRL NORM fills with the parity count instead.
 */
public final class Fti {

    private int fecId;
    private int fieldSize;
    private int instanceId;
    private long transferLength;
    private int symbolLength;
    private int maxBlockLength;
    private int lastField;

    void set(int fecId, int fieldSize, int instanceId, long transferLength, int symbolLength, int maxBlockLength,
             int lastField) {
        this.fecId = fecId;
        this.fieldSize = fieldSize;
        this.instanceId = instanceId;
        this.transferLength = transferLength;
        this.symbolLength = symbolLength;
        this.maxBlockLength = maxBlockLength;
        this.lastField = lastField;
    }

    public int fecId() {
        return fecId;
    }

    /** m, the Galois field size in bits (8 except for fec_id 2 with m = 16). */
    public int fieldSize() {
        return fieldSize;
    }

    public int instanceId() {
        return instanceId;
    }

    /** Object size in bytes (48 bits on the wire). */
    public long transferLength() {
        return transferLength;
    }

    /** Segment (encoding symbol) size in bytes. */
    public int symbolLength() {
        return symbolLength;
    }

    /** B: the largest number of source symbols in a block. */
    public int maxBlockLength() {
        return maxBlockLength;
    }

    /** The raw last field: max_n per RFC 5510 (k + parity), the parity count in NRL NORM. */
    public int lastField() {
        return lastField;
    }

    /**
     * Largest encoding symbol id a sender using this FTI may send, accepting both readings of the last field
     * (RFC max_n, or NRL parity count): symbol ids below {@code max(lastField, maxBlockLength + lastField)}.
     */
    public int symbolIdLimit() {
        return Math.min(maxBlockLength + lastField, fieldSize == 16 ? 65536 : 256);
    }

    @Override
    public String toString() {
        return "Fti[fec_id=" + fecId + ", m=" + fieldSize + ", length=" + transferLength + ", E=" + symbolLength
                + ", B=" + maxBlockLength + ", last=" + lastField + "]";
    }
}
