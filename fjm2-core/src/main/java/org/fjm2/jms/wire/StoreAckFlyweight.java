package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * A store's positive acknowledgement (fjm2-store; docs/wire-format.md, "Store acknowledgements"): an ordinary
 * message record (BytesMessage, NON_PERSISTENT) on the reserved topic {@link #TOPIC}, multicast to the group by the
 * store, so that it travels as reliably as the data it acknowledges. Its body:
 * <pre>
 *  0  uint8   body version (1)
 *  1  uint16  store name length, then the name in UTF-8
 *  n  int32   entry count
 *  n+4        entries of 33 bytes: int32 publisher node id, int64 publisher epoch, int32 producer id,
 *             uint8 priority, int64 first sequence, int64 last sequence
 * </pre>
 * An entry says: every PERSISTENT message of that (node, epoch, producer, priority) stream numbered first..last is on
 * the store's disk (fsync'd). A range starts afresh where the store saw the stream begin or found a gap in it.
 */
public final class StoreAckFlyweight {

    /** The reserved topic of acknowledgements; an application publishing there is taken for a store. */
    public static final String TOPIC = ControlRecords.ACK_TOPIC;
    public static final int BODY_VERSION = 1;
    public static final int ENTRY_LENGTH = 33;
    /** The store's producer id on the ack topic (the store has one producer). */
    public static final int STORE_PRODUCER_ID = 1;
    /** Acks overtake anything else the store might send. */
    public static final int PRIORITY = 9;

    private static final int NODE_OFFSET = 0;
    private static final int EPOCH_OFFSET = 4;
    private static final int PRODUCER_OFFSET = 12;
    private static final int PRIORITY_OFFSET = 16;
    private static final int FIRST_OFFSET = 17;
    private static final int LAST_OFFSET = 25;

    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private ByteBuf buf;
    private String storeName;
    private int entriesOffset;
    private int entryCount;

    /**
     * Reads the body of an ack record whose framing (length) the caller has checked.
     *
     * @throws MalformedWireException when the body does not hold what it announces
     */
    public StoreAckFlyweight wrap(ByteBuf buffer, int recordOffset, int recordLength) throws MalformedWireException {
        header.wrap(buffer, recordOffset);
        int end = recordOffset + recordLength;
        int pos = ControlRecords.bodyOffset(header, "store acknowledgement");
        if (end - pos < 3 || buffer.getUnsignedByte(pos) != BODY_VERSION) {
            throw new MalformedWireException("store acknowledgement of an unknown version or too short");
        }
        int nameLength = buffer.getUnsignedShort(pos + 1);
        pos += 3;
        if (end - pos < nameLength + 4) {
            throw new MalformedWireException("store acknowledgement's name runs past the record");
        }
        storeName = buffer.toString(pos, nameLength, StandardCharsets.UTF_8);
        pos += nameLength;
        int count = buffer.getInt(pos);
        pos += 4;
        if (count < 0 || (long) count * ENTRY_LENGTH != end - pos) {
            throw new MalformedWireException("store acknowledgement announces " + count + " entries in "
                    + (end - pos) + " bytes");
        }
        this.buf = buffer;
        this.entriesOffset = pos;
        this.entryCount = count;
        return this;
    }

    public String storeName() {
        return storeName;
    }

    public int entryCount() {
        return entryCount;
    }

    public int publisherNode(int entry) {
        return buf.getInt(at(entry) + NODE_OFFSET);
    }

    public long publisherEpoch(int entry) {
        return buf.getLong(at(entry) + EPOCH_OFFSET);
    }

    public int producerId(int entry) {
        return buf.getInt(at(entry) + PRODUCER_OFFSET);
    }

    public int priority(int entry) {
        return buf.getUnsignedByte(at(entry) + PRIORITY_OFFSET);
    }

    public long firstSequence(int entry) {
        return buf.getLong(at(entry) + FIRST_OFFSET);
    }

    public long lastSequence(int entry) {
        return buf.getLong(at(entry) + LAST_OFFSET);
    }

    private int at(int entry) {
        return entriesOffset + entry * ENTRY_LENGTH;
    }

    /**
     * Appends the fixed part, topic and body start of an ack record at the writer index; entries follow with
     * {@link #writeEntry}, then {@link #endRecord}.
     *
     * @return where the record starts
     */
    public static int beginRecord(ByteBuf out, long sequence, long nowMillis, String storeName) {
        int start = ControlRecords.beginRecord(out, ControlRecords.ACK_TOPIC_UTF8, STORE_PRODUCER_ID, PRIORITY,
                sequence, nowMillis);
        out.writeByte(BODY_VERSION);
        WireWriter.writeShortString(out, storeName);
        out.writeInt(0); // entry count, patched by endRecord
        return start;
    }

    public static void writeEntry(ByteBuf out, int publisherNode, long publisherEpoch, int producerId, int priority,
                                  long firstSequence, long lastSequence) {
        out.writeInt(publisherNode).writeLong(publisherEpoch).writeInt(producerId).writeByte(priority)
                .writeLong(firstSequence).writeLong(lastSequence);
    }

    /** Patches the record length and entry count of the record that starts at {@code start}. */
    public static void endRecord(ByteBuf out, int start, int entryCount) {
        ControlRecords.endRecord(out, start);
        out.setInt(out.writerIndex() - entryCount * ENTRY_LENGTH - 4, entryCount);
    }
}
