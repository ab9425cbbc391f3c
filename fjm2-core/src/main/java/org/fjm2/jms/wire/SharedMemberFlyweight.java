package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;


/**
 * A member of a shared subscription speaking to the other members (docs/wire-format.md, "Shared subscriptions"): a
 * control record ({@link ControlRecords}) on {@link ControlRecords#SHARED_TOPIC}, sent when the member joins, every
 * heartbeat while it is one, and when it leaves.
 * <pre>
 * body:
 *  0  uint8   version (1)
 *  1  uint8   type: 1 member (join and heartbeat), 2 leave; of a shared durable subscription (another namespace,
 *             kept by the stores): 3 member, 4 leave
 *  2  int64   member id (random, unique per consumer)
 * 10  int64   joined, ms since the epoch: from then on a candidate for messages sent while no member is active
 * 18  int64   active from, ms since the epoch: a candidate for every message sent from then on
 * 26  int64   until, ms since the epoch: a candidate for no message sent from then on (Long.MAX_VALUE: none yet)
 * 34  uint16  client id length, then the client id in UTF-8 (0..{@link #MAX_NAME_BYTES}; 0: none)
 *  n  uint16  subscription name length, then the name in UTF-8 (1..{@link #MAX_NAME_BYTES})
 *  m  uint16  topic length, then the topic in UTF-8 (1..{@link #MAX_NAME_BYTES})
 *  k  uint16  selector length, then the selector in UTF-8 (0: none; at most {@link #MAX_SELECTOR_BYTES})
 *  j  int32   entry count (0..{@link #MAX_ENTRIES}), then entries of {@link #ENTRY_LENGTH} bytes: int64 publisher
 *             epoch, int32 producer id, uint8 priority, int64 the last sequence number of that stream the member
 *             acknowledged of those it owns
 * </pre>
 * Big-endian. The reader checks every length and count against the record: the body must be filled exactly.
 */
public final class SharedMemberFlyweight {

    public static final int VERSION = 1;
    public static final int TYPE_MEMBER = 1;
    public static final int TYPE_LEAVE = 2;
    public static final int TYPE_DURABLE_MEMBER = 3;
    public static final int TYPE_DURABLE_LEAVE = 4;
    /** Longest client id, subscription name and topic accepted. */
    public static final int MAX_NAME_BYTES = DurableSubscriptionFlyweight.MAX_NAME_BYTES;
    /** Longest selector accepted. */
    public static final int MAX_SELECTOR_BYTES = DurableSubscriptionFlyweight.MAX_SELECTOR_BYTES;
    /** Producer streams one record may name (a member sends several records for more). */
    public static final int MAX_ENTRIES = 512;
    public static final int ENTRY_LENGTH = PositionEntries.ENTRY_LENGTH;
    /** Membership goes ahead of messages of the default priority. */
    public static final int PRIORITY = 7;

    private static final int TYPE_OFFSET = 1;
    private static final int MEMBER_ID_OFFSET = 2;
    private static final int JOINED_OFFSET = 10;
    private static final int ACTIVE_FROM_OFFSET = 18;
    private static final int UNTIL_OFFSET = 26;
    private static final int CLIENT_ID_OFFSET = 34;

    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private int type;
    private long memberId;
    private long joinedMillis;
    private long activeFromMillis;
    private long untilMillis;
    private String clientId;
    private String name;
    private String topic;
    private String selector;
    private final PositionEntries entries = new PositionEntries("shared subscription record");

    // ------------------------------------------------------------------------------------------------- writing

    /**
     * Begins a record (numbered by the batcher: sequence 0); {@link #writeEntry} then {@link #end} with the count.
     *
     * @param clientId null or empty: none
     * @param selector null: none
     * @return where the record starts
     */
    public static int begin(ByteBuf out, int producerId, int type, long memberId, long joinedMillis,
                            long activeFromMillis, long untilMillis, String clientId, String name, String topic,
                            String selector) {
        int start = ControlRecords.beginRecord(out, ControlRecords.SHARED_TOPIC_UTF8, producerId, PRIORITY, 0,
                System.currentTimeMillis());
        out.writeByte(VERSION).writeByte(type).writeLong(memberId).writeLong(joinedMillis)
                .writeLong(activeFromMillis).writeLong(untilMillis);
        WireWriter.writeShortString(out, clientId == null ? "" : clientId);
        WireWriter.writeShortString(out, name);
        WireWriter.writeShortString(out, topic);
        WireWriter.writeShortString(out, selector == null ? "" : selector);
        PositionEntries.begin(out);
        return start;
    }

    public static void writeEntry(ByteBuf out, long epoch, int producer, int priority, long sequence) {
        PositionEntries.write(out, epoch, producer, priority, sequence);
    }

    public static void end(ByteBuf out, int start, int entryCount) {
        PositionEntries.end(out, start, entryCount);
    }

    // ------------------------------------------------------------------------------------------------- reading

    /**
     * Reads a record (its framing checked by the caller).
     *
     * @throws MalformedWireException when a length, count, type or time does not fit
     */
    public SharedMemberFlyweight wrap(ByteBuf buffer, int recordOffset, int recordLength)
            throws MalformedWireException {
        header.wrap(buffer, recordOffset);
        int end = recordOffset + recordLength;
        int pos = ControlRecords.bodyOffset(header, "shared subscription record");
        if (end - pos < CLIENT_ID_OFFSET + 2 || buffer.getUnsignedByte(pos) != VERSION) {
            throw new MalformedWireException("shared subscription record of an unknown version or too short");
        }
        type = buffer.getUnsignedByte(pos + TYPE_OFFSET);
        if (type < TYPE_MEMBER || type > TYPE_DURABLE_LEAVE) {
            throw new MalformedWireException("shared subscription record of unknown type " + type);
        }
        memberId = buffer.getLong(pos + MEMBER_ID_OFFSET);
        joinedMillis = buffer.getLong(pos + JOINED_OFFSET);
        activeFromMillis = buffer.getLong(pos + ACTIVE_FROM_OFFSET);
        untilMillis = buffer.getLong(pos + UNTIL_OFFSET);
        if (joinedMillis < 0 || activeFromMillis < joinedMillis || untilMillis < joinedMillis) {
            throw new MalformedWireException("shared subscription record's times out of order: joined "
                    + joinedMillis + ", active from " + activeFromMillis + ", until " + untilMillis);
        }
        pos += CLIENT_ID_OFFSET;
        clientId = string(buffer, pos, end, 0, MAX_NAME_BYTES, "client id");
        pos += 2 + buffer.getUnsignedShort(pos);
        name = string(buffer, pos, end, 1, MAX_NAME_BYTES, "subscription name");
        pos += 2 + buffer.getUnsignedShort(pos);
        topic = string(buffer, pos, end, 1, MAX_NAME_BYTES, "topic");
        pos += 2 + buffer.getUnsignedShort(pos);
        String s = string(buffer, pos, end, 0, MAX_SELECTOR_BYTES, "selector");
        selector = s.isEmpty() ? null : s;
        pos += 2 + buffer.getUnsignedShort(pos);
        entries.wrap(buffer, pos, end, MAX_ENTRIES);
        return this;
    }

    private static String string(ByteBuf buffer, int pos, int end, int min, int max, String what)
            throws MalformedWireException {
        return ControlRecords.shortString(buffer, pos, end, min, max, "shared subscription record", what);
    }

    public int type() {
        return type;
    }

    /** The member's last word (it leaves). */
    public boolean leaving() {
        return type == TYPE_LEAVE || type == TYPE_DURABLE_LEAVE;
    }

    /** A member of a shared durable subscription. */
    public boolean durable() {
        return type >= TYPE_DURABLE_MEMBER;
    }

    /** The type of a member's record: its heartbeat or its last word, of a durable subscription or not. */
    public static int type(boolean durable, boolean leaving) {
        return durable ? (leaving ? TYPE_DURABLE_LEAVE : TYPE_DURABLE_MEMBER) : (leaving ? TYPE_LEAVE : TYPE_MEMBER);
    }

    public long memberId() {
        return memberId;
    }

    public long joinedMillis() {
        return joinedMillis;
    }

    public long activeFromMillis() {
        return activeFromMillis;
    }

    public long untilMillis() {
        return untilMillis;
    }

    /** Empty: none. */
    public String clientId() {
        return clientId;
    }

    public String name() {
        return name;
    }

    public String topic() {
        return topic;
    }

    /** Null: none. */
    public String selector() {
        return selector;
    }

    public int entryCount() {
        return entries.count();
    }

    public long entryEpoch(int index) {
        return entries.epoch(index);
    }

    public int entryProducer(int index) {
        return entries.producer(index);
    }

    public int entryPriority(int index) {
        return entries.priority(index);
    }

    public long entrySequence(int index) {
        return entries.sequence(index);
    }
}
