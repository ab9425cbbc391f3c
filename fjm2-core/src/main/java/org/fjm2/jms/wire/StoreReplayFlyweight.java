package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Late join (docs/wire-format.md, "Store traffic"): a connection's request for the last messages of a topic, and a
 * store's answer holding them as their publishers encoded them. Both are control records ({@link ControlRecords}).
 * <pre>
 * request body (topic fjm2.store.requests):
 *  0  uint8   version (2; requests and replays share it)
 *  1  int64   request id (chosen by the requester, unique within its connection)
 *  9  int32   messages wanted (the newest ones); -1: a store's catch-up request (below)
 * 13  uint16  topic length, then the topic in UTF-8 (catch-up: the requesting store's topic pattern)
 *  n  int64   catch-up only: the messages wanted are those stored since then (ms since 1970)
 *
 * replay body (topic fjm2.store.replay):
 *  0  uint8   version (2)
 *  1  int64   request id
 *  9  int32   requester's node id
 * 13  uint16  store name length, then the name in UTF-8
 *  n  uint8   flags: bit 0 the last record of this answer; bit 1 (durable) no such subscription; bit 2 (durable)
 *             messages the subscription had not consumed were no longer held; bit 3 (durable) the subscription is
 *             of the other kind (shared / unshared); bit 4 (unsubscribe) another connection holds it
 * n+1 int32   entry count
 * n+5         entries: int32 publisher node id, int64 publisher epoch, uint8 entry flags (bit 0: the subscriber
 *             was handed this message before: redelivered), int32 length, then the message record of that length
 *             (oldest first)
 * </pre>
 * Readers check every length against the record before use: an embedded record must frame exactly.
 */
public final class StoreReplayFlyweight {

    /** 2: replay entries carry flags. */
    public static final int VERSION = 2;
    /** The store's producer id for answers (its acknowledgements use {@link StoreAckFlyweight#STORE_PRODUCER_ID}). */
    public static final int STORE_PRODUCER_ID = 2;
    public static final int PRIORITY = 8;
    /** The priority requests are numbered at (a connection's and a store's requests: their own producer stream). */
    public static final int REQUEST_PRIORITY = 4;
    public static final int FLAG_LAST = 1;
    /** The answer to an unsubscribe (or position) names a durable subscription the store does not have. */
    public static final int FLAG_UNKNOWN_SUBSCRIPTION = 2;
    /** The answer to a durable subscribe lacks messages the store no longer held (retention or its memory bound). */
    public static final int FLAG_INCOMPLETE = 4;
    /**
     * The answer to a durable subscribe: the store keeps the subscription of that client id and name as the other
     * kind (shared when asked unshared, or the other way round); JMS keeps the two apart, so nothing is replayed.
     */
    public static final int FLAG_OTHER_KIND = 8;
    /**
     * The answer to an unsubscribe: another connection holds the subscription (a consumer of it is active there, or
     * was within {@link DurableSubscriptionFlyweight#HOLD_TIMEOUT_MILLIS} and did not close): nothing was removed.
     */
    public static final int FLAG_HELD_ELSEWHERE = 16;
    /** An entry's flag: the durable subscriber it goes to was handed the message before (JMSRedelivered). */
    public static final int ENTRY_REDELIVERED = 1;
    /**
     * The count of a store's catch-up request: the messages other stores received since a time, of the topics a
     * pattern names (a store that was down asks its peers for what it missed).
     */
    public static final int CATCH_UP = -1;
    /** Bytes of an entry besides its record. */
    public static final int ENTRY_OVERHEAD = 17;
    private static final int ENTRY_FLAGS_OFFSET = 12;
    private static final int ENTRY_LENGTH_OFFSET = 13;

    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private ByteBuf buf;
    private int end;
    private long requestId;
    private int requesterNode;
    private String storeName;
    private boolean last;
    private int flags;
    private int entryCount;
    private int cursor;
    private int entryNode;
    private long entryEpoch;
    private int entryFlags;
    private int entryOffset;
    private int entryLength;
    private int requestCount;
    private String requestTopic;
    private long catchUpSinceMillis;

    // ------------------------------------------------------------------------------------------------- requests

    /**
     * Appends a whole request record at the writer index, numbered {@code sequence} (0 when the batcher numbers
     * it), from {@code producerId}.
     */
    public static void writeRequest(ByteBuf out, int producerId, long sequence, long requestId, int count,
                                    String topic) {
        ControlRecords.endRecord(out, beginRequest(out, producerId, sequence, requestId, count, topic));
    }

    /** Appends a request's record header and body up to its topic; returns where the record starts. */
    private static int beginRequest(ByteBuf out, int producerId, long sequence, long requestId, int count,
                                    String topic) {
        int start = ControlRecords.beginRecord(out, ControlRecords.REQUEST_TOPIC_UTF8, producerId, REQUEST_PRIORITY,
                sequence, System.currentTimeMillis());
        out.writeByte(VERSION).writeLong(requestId).writeInt(count);
        WireWriter.writeShortString(out, topic);
        return start;
    }

    /**
     * Appends a whole catch-up request record ({@link #CATCH_UP}): the messages of the topics {@code topicPattern}
     * names that a store received since {@code sinceMillis}.
     */
    public static void writeCatchUpRequest(ByteBuf out, int producerId, long sequence, long requestId,
                                           String topicPattern, long sinceMillis) {
        int start = beginRequest(out, producerId, sequence, requestId, CATCH_UP, topicPattern);
        out.writeLong(sinceMillis);
        ControlRecords.endRecord(out, start);
    }

    /** Reads a request record (framing checked). */
    public StoreReplayFlyweight wrapRequest(ByteBuf buffer, int recordOffset, int recordLength)
            throws MalformedWireException {
        header.wrap(buffer, recordOffset);
        int recordEnd = recordOffset + recordLength;
        int pos = ControlRecords.bodyOffset(header, "store request");
        if (recordEnd - pos < 15 || buffer.getUnsignedByte(pos) != VERSION) {
            throw new MalformedWireException("store request of an unknown version or too short");
        }
        requestId = buffer.getLong(pos + 1);
        requestCount = buffer.getInt(pos + 9);
        int topicLength = buffer.getUnsignedShort(pos + 13);
        int trailer = requestCount == CATCH_UP ? 8 : 0;
        if ((requestCount < 0 && requestCount != CATCH_UP) || pos + 15 + topicLength + trailer != recordEnd) {
            throw new MalformedWireException("store request for " + requestCount + " messages with a topic of "
                    + topicLength + " bytes in " + (recordEnd - pos) + " bytes");
        }
        requestTopic = buffer.toString(pos + 15, topicLength, StandardCharsets.UTF_8);
        catchUpSinceMillis = trailer == 0 ? 0 : buffer.getLong(pos + 15 + topicLength);
        return this;
    }

    /** Whether the request read is a store's catch-up ({@link #CATCH_UP}) rather than a late join. */
    public boolean isCatchUp() {
        return requestCount == CATCH_UP;
    }

    /** A catch-up request's time: the messages stored since then are wanted (ms since 1970). */
    public long catchUpSinceMillis() {
        return catchUpSinceMillis;
    }

    public long requestId() {
        return requestId;
    }

    public int requestCount() {
        return requestCount;
    }

    public String requestTopic() {
        return requestTopic;
    }

    // ------------------------------------------------------------------------------------------------- replays

    /** Appends the fixed part of a replay record; entries follow ({@link #writeEntry}), then {@link #endReplay}. */
    public static int beginReplay(ByteBuf out, long sequence, long requestId, int requesterNode, String storeName) {
        int start = ControlRecords.beginRecord(out, ControlRecords.REPLAY_TOPIC_UTF8, STORE_PRODUCER_ID, PRIORITY,
                sequence, System.currentTimeMillis());
        out.writeByte(VERSION).writeLong(requestId).writeInt(requesterNode);
        WireWriter.writeShortString(out, storeName);
        out.writeByte(0).writeInt(0); // flags and entry count, patched by endReplay
        return start;
    }

    public static void writeEntry(ByteBuf out, int node, long epoch, byte[] record) {
        writeEntry(out, node, epoch, 0, record);
    }

    /** An entry with its flags ({@link #ENTRY_REDELIVERED}). */
    public static void writeEntry(ByteBuf out, int node, long epoch, int entryFlags, byte[] record) {
        out.writeInt(node).writeLong(epoch).writeByte(entryFlags).writeInt(record.length).writeBytes(record);
    }

    /** Patches the record length, flags and entry count of the replay record that starts at {@code start}. */
    public static void endReplay(ByteBuf out, int start, int entryCount, boolean last, int bytesOfEntries) {
        endReplay(out, start, entryCount, last ? FLAG_LAST : 0, bytesOfEntries);
    }

    /** As above with all the flags ({@link #FLAG_LAST}, {@link #FLAG_UNKNOWN_SUBSCRIPTION}, {@link #FLAG_INCOMPLETE}). */
    public static void endReplay(ByteBuf out, int start, int entryCount, int flags, int bytesOfEntries) {
        ControlRecords.endRecord(out, start);
        int countAt = out.writerIndex() - bytesOfEntries - 4;
        out.setInt(countAt, entryCount);
        out.setByte(countAt - 1, flags);
    }

    /** Reads a replay record (framing checked); then {@link #nextEntry} walks its entries. */
    public StoreReplayFlyweight wrapReplay(ByteBuf buffer, int recordOffset, int recordLength)
            throws MalformedWireException {
        header.wrap(buffer, recordOffset);
        end = recordOffset + recordLength;
        int pos = ControlRecords.bodyOffset(header, "store replay");
        if (end - pos < 15 || buffer.getUnsignedByte(pos) != VERSION) {
            throw new MalformedWireException("store replay of an unknown version or too short");
        }
        requestId = buffer.getLong(pos + 1);
        requesterNode = buffer.getInt(pos + 9);
        int nameLength = buffer.getUnsignedShort(pos + 13);
        pos += 15;
        if (end - pos < nameLength + 5) {
            throw new MalformedWireException("store replay's name runs past the record");
        }
        storeName = buffer.toString(pos, nameLength, StandardCharsets.UTF_8);
        pos += nameLength;
        flags = buffer.getUnsignedByte(pos);
        last = (flags & FLAG_LAST) != 0;
        entryCount = buffer.getInt(pos + 1);
        if (entryCount < 0 || (long) entryCount * (ENTRY_OVERHEAD + MessageHeaderFlyweight.FIXED_LENGTH) > end - pos) {
            throw new MalformedWireException("store replay announces " + entryCount + " entries in " + (end - pos)
                    + " bytes");
        }
        this.buf = buffer;
        this.cursor = pos + 5;
        return this;
    }

    /**
     * Moves to the next entry; false after the last, when the entries must have filled the record exactly.
     *
     * @throws MalformedWireException when an entry or its record does not frame
     */
    public boolean nextEntry() throws MalformedWireException {
        if (cursor == end) {
            return false;
        }
        if (end - cursor < ENTRY_OVERHEAD) {
            throw new MalformedWireException("store replay entry runs past the record");
        }
        entryNode = buf.getInt(cursor);
        entryEpoch = buf.getLong(cursor + 4);
        entryFlags = buf.getUnsignedByte(cursor + ENTRY_FLAGS_OFFSET);
        entryLength = buf.getInt(cursor + ENTRY_LENGTH_OFFSET);
        entryOffset = cursor + ENTRY_OVERHEAD;
        if (entryLength < MessageHeaderFlyweight.FIXED_LENGTH || entryLength > end - entryOffset
                || buf.getInt(entryOffset) != entryLength) {
            throw new MalformedWireException("store replay entry of " + entryLength + " bytes does not frame");
        }
        header.wrap(buf, entryOffset);
        if (MessageHeaderFlyweight.FIXED_LENGTH + header.topicLength() > entryLength) {
            throw new MalformedWireException("store replay entry's topic runs past its record");
        }
        cursor = entryOffset + entryLength;
        return true;
    }

    public long replayRequestId() {
        return requestId;
    }

    public int requesterNode() {
        return requesterNode;
    }

    public String storeName() {
        return storeName;
    }

    public boolean last() {
        return last;
    }

    /** Every flag of the replay record. */
    public int flags() {
        return flags;
    }

    public int entryCount() {
        return entryCount;
    }

    public int entryNode() {
        return entryNode;
    }

    public long entryEpoch() {
        return entryEpoch;
    }

    /** Whether the subscriber was handed the current entry's message before (a durable return). */
    public boolean entryRedelivered() {
        return (entryFlags & ENTRY_REDELIVERED) != 0;
    }

    /** Where the current entry's message record starts in the buffer. */
    public int entryRecordOffset() {
        return entryOffset;
    }

    public int entryRecordLength() {
        return entryLength;
    }
}
