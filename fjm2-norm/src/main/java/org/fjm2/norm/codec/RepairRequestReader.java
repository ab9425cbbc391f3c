package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * Walks the repair requests of a NORM_NACK (or NORM_CMD(REPAIR_ADV)) payload, one request and one item at a time,
 * without allocating. Each request is {@code form(8) flags(8) length(16)} followed by {@code length} bytes of
 * items; an item is {@code fec_id(8) reserved(8) object_transport_id(16) fec_payload_id}.
 *
 * <pre>
 * reader.reset(buf, start, end, fecId, m);
 * while (reader.nextRequest()) {
 *     while (reader.nextItem()) { ... reader.objectId(), reader.blockNumber(), reader.symbolId() ... }
 * }
 * if (reader.malformed()) { count and drop }
 * </pre>
 * {@link #nextEntry} instead of {@link #nextItem} reads a whole range at once: its start in {@link #objectId()}
 * and friends, its end in {@link #lastObjectId()} and friends (the same item for ITEMS and ERASURES).
 * A request whose length is not a whole number of items (of pairs, for RANGES), or that runs past the end, or
 * whose items carry another fec_id, marks the whole payload malformed and stops the walk.
 */
public final class RepairRequestReader {

    /** Bytes of the request header: form, flags, length. */
    public static final int REQUEST_HEADER_LENGTH = 4;

    private ByteBuf buffer;
    private int position;
    private int end;
    private int fecId;
    private int m;
    private int itemLength;

    private int form;
    private int flags;
    private int itemPosition;
    private int itemsEnd;
    private boolean malformed;

    private int objectId;
    private long blockNumber;
    private int symbolId;
    private int blockLength;

    private int lastObjectId;
    private long lastBlockNumber;
    private int lastSymbolId;

    public static int itemLength(int fecId) {
        return 4 + NormWire.fecPayloadIdLength(fecId);
    }

    public RepairRequestReader reset(ByteBuf buffer, int start, int end, int fecId, int m) {
        this.buffer = buffer;
        this.position = start;
        this.end = end;
        this.fecId = fecId;
        this.m = m;
        this.itemLength = NormWire.fecPayloadIdLength(fecId) < 0 ? -1 : itemLength(fecId);
        this.malformed = itemLength < 0;
        this.itemPosition = 0;
        this.itemsEnd = 0;
        return this;
    }

    /** Advances to the next request; false at the end or when the payload is malformed. */
    public boolean nextRequest() {
        if (malformed || position == end) {
            return false;
        }
        if (position + REQUEST_HEADER_LENGTH > end) {
            malformed = true;       // trailing bytes too short to be a request
            return false;
        }
        form = buffer.getUnsignedByte(position);
        flags = buffer.getUnsignedByte(position + 1);
        int requestLength = buffer.getUnsignedShort(position + 2);
        int itemsStart = position + REQUEST_HEADER_LENGTH;
        int unit = form == NormWire.FORM_RANGES ? 2 * itemLength : itemLength;
        if (form < NormWire.FORM_ITEMS || form > NormWire.FORM_ERASURES
                || itemsStart + requestLength > end || requestLength % unit != 0) {
            malformed = true;
            return false;
        }
        itemPosition = itemsStart;
        itemsEnd = itemsStart + requestLength;
        position = itemsEnd;
        return true;
    }

    /** Reads the next item of the current request (for RANGES, call twice per range: start, then end). */
    public boolean nextItem() {
        if (malformed || itemPosition + itemLength > itemsEnd) {
            return false;
        }
        int itemFecId = buffer.getUnsignedByte(itemPosition);
        if (itemFecId != fecId) {
            malformed = true;
            return false;
        }
        objectId = buffer.getUnsignedShort(itemPosition + 2);
        int idIndex = itemPosition + 4;
        blockNumber = FecPayloadId.blockNumber(buffer, idIndex, fecId, m);
        symbolId = FecPayloadId.symbolId(buffer, idIndex, fecId, m);
        blockLength = FecPayloadId.blockLength(buffer, idIndex, fecId);
        itemPosition += itemLength;
        return true;
    }

    /**
     * Reads the next entry of the current request: one item, or for RANGES both items of a range. False at the end
     * (a range without its end item ends the request too).
     */
    public boolean nextEntry() {
        if (!nextItem()) {
            return false;
        }
        if (form != NormWire.FORM_RANGES) {
            lastObjectId = objectId;
            lastBlockNumber = blockNumber;
            lastSymbolId = symbolId;
            return true;
        }
        int firstObjectId = objectId;
        long firstBlockNumber = blockNumber;
        int firstSymbolId = symbolId;
        int firstBlockLength = blockLength;
        if (!nextItem()) {
            return false;
        }
        lastObjectId = objectId;
        lastBlockNumber = blockNumber;
        lastSymbolId = symbolId;
        objectId = firstObjectId;
        blockNumber = firstBlockNumber;
        symbolId = firstSymbolId;
        blockLength = firstBlockLength;
        return true;
    }

    public boolean malformed() {
        return malformed;
    }

    public int form() {
        return form;
    }

    public int flags() {
        return flags;
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    public int objectId() {
        return objectId;
    }

    public long blockNumber() {
        return blockNumber;
    }

    public int symbolId() {
        return symbolId;
    }

    /** Object id of the entry's end (after {@link #nextEntry}). */
    public int lastObjectId() {
        return lastObjectId;
    }

    /** Source block number of the entry's end (after {@link #nextEntry}). */
    public long lastBlockNumber() {
        return lastBlockNumber;
    }

    /** Encoding symbol id of the entry's end (after {@link #nextEntry}). */
    public int lastSymbolId() {
        return lastSymbolId;
    }

    /** Block length from the item (fec_id 129), else -1; for ERASURES items this field holds the erasure count. */
    public int blockLength() {
        return blockLength;
    }
}
