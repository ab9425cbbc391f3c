package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * Appends repair requests to a NORM_NACK payload, choosing nothing itself: the caller opens a request with a form
 * and flags, appends items (two per range for RANGES), and closes it. Bounded by a maximum payload length: an
 * append that does not fit returns false and leaves the buffer as it was before that append.
 */
public final class RepairRequestWriter {

    private ByteBuf buffer;
    private int start;
    private int limit;
    private int position;
    private int fecId;
    private int m;
    private int itemLength;
    private int requestStart = -1;

    /** Starts writing requests at absolute index {@code start}, at most {@code maxLength} bytes. */
    public RepairRequestWriter reset(ByteBuf buffer, int start, int maxLength, int fecId, int m) {
        this.buffer = buffer;
        this.start = start;
        this.limit = start + maxLength;
        this.position = start;
        this.fecId = fecId;
        this.m = m;
        this.itemLength = RepairRequestReader.itemLength(fecId);
        this.requestStart = -1;
        return this;
    }

    /** Opens a request; false if not even its header and one item fit. */
    public boolean open(int form, int flags) {
        close();
        int needed = RepairRequestReader.REQUEST_HEADER_LENGTH + (form == NormWire.FORM_RANGES ? 2 : 1) * itemLength;
        if (position + needed > limit) {
            return false;
        }
        requestStart = position;
        buffer.setByte(position, form);
        buffer.setByte(position + 1, flags);
        buffer.setShort(position + 2, 0);
        position += RepairRequestReader.REQUEST_HEADER_LENGTH;
        return true;
    }

    /** Appends one item to the open request. */
    public boolean item(int objectId, long blockNumber, int symbolId, int blockLength) {
        if (requestStart < 0 || position + itemLength > limit) {
            return false;
        }
        buffer.setByte(position, fecId);
        buffer.setByte(position + 1, 0);
        buffer.setShort(position + 2, objectId);
        FecPayloadId.write(buffer, position + 4, fecId, m, blockNumber, symbolId, blockLength);
        position += itemLength;
        return true;
    }

    /** Appends a range (two items) to the open RANGES request, atomically. */
    public boolean range(int firstObjectId, long firstBlock, int firstSymbol,
                         int lastObjectId, long lastBlock, int lastSymbol, int blockLength) {
        if (requestStart < 0 || position + 2 * itemLength > limit) {
            return false;
        }
        item(firstObjectId, firstBlock, firstSymbol, blockLength);
        item(lastObjectId, lastBlock, lastSymbol, blockLength);
        return true;
    }

    /** Closes the open request (a request with no items is removed). */
    public void close() {
        if (requestStart >= 0) {
            int itemsLength = position - requestStart - RepairRequestReader.REQUEST_HEADER_LENGTH;
            if (itemsLength == 0) {
                position = requestStart;
            } else {
                buffer.setShort(requestStart + 2, itemsLength);
            }
            requestStart = -1;
        }
    }

    /** Room left for items, in items, counting a request header if none is open. */
    public int remainingItems() {
        int room = limit - position - (requestStart < 0 ? RepairRequestReader.REQUEST_HEADER_LENGTH : 0);
        return Math.max(0, room / itemLength);
    }

    /** Bytes written so far, closed requests and the open one. */
    public int length() {
        return position - start;
    }

    public boolean isEmpty() {
        return position == start;
    }
}
