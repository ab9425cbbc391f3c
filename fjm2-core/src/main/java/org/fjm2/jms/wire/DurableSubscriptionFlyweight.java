package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;


/**
 * Durable subscriptions (docs/wire-format.md, "Durable subscriptions"): what a connection tells the stores about a
 * subscription of its client id, as a control record ({@link ControlRecords}) on {@link ControlRecords#DURABLE_TOPIC}.
 * <pre>
 * body:
 *  0  uint8   version (1)
 *  1  uint8   type: 1 subscribe, 2 position, 3 unsubscribe, 4 delivered, 7 held, 8 released; between stores:
 *             5 definition, 6 removed
 *  2  int64   request id (0: no answer wanted); stores answer with a replay record naming it
 * 10  uint16  client id length, then the client id in UTF-8 (0..{@link #MAX_NAME_BYTES}; 0: none, a shared
 *             durable subscription made without one)
 *  n  uint16  subscription name length, then the name in UTF-8 (1..{@link #MAX_NAME_BYTES})
 * subscribe:
 *  m  uint16  topic length, then the topic in UTF-8 (1..{@link #MAX_NAME_BYTES})
 *  k  uint16  selector length, then the selector in UTF-8 (0: none; at most {@link #MAX_SELECTOR_BYTES})
 * k+2 uint8   flags: bit 0 noLocal, bit 1 shared (createSharedDurableConsumer: a name kept apart from unshared ones)
 * position:
 *  m  int32   entry count (0..{@link #MAX_POSITION_ENTRIES}), then entries of {@link #POSITION_ENTRY_LENGTH} bytes:
 *             int64 publisher epoch, int32 producer id, uint8 priority, int64 last acknowledged sequence
 * delivered: as position, each entry's sequence the last one handed to the application (acknowledged or not):
 *             what a store replays at or below it is flagged redelivered
 * unsubscribe, held, released: nothing more
 * definition (a store tells its peers a subscription it keeps): as subscribe, then
 *  j  int64   incarnation (the same at every store: derived from the subscribe record that made it)
 * j+8 int64   created, ms since the epoch (that subscribe record's send time)
 * removed (a store tells its peers a subscription was unsubscribed or replaced): incarnation, created as above
 * </pre>
 * A store numbers its definition and removed records itself (it sends them without a batcher), request id 0.
 * Big-endian. The reader checks every length and count against the record: the body must be filled exactly.
 */
public final class DurableSubscriptionFlyweight {

    public static final int VERSION = 1;
    public static final int TYPE_SUBSCRIBE = 1;
    public static final int TYPE_POSITION = 2;
    public static final int TYPE_UNSUBSCRIBE = 3;
    public static final int TYPE_DELIVERED = 4;
    public static final int TYPE_DEFINITION = 5;
    public static final int TYPE_REMOVED = 6;
    /**
     * A consumer of the sending connection still holds the subscription (every {@link #HOLD_REFRESH_MILLIS}): the
     * stores refuse an unsubscribe from another connection while it does.
     */
    public static final int TYPE_HELD = 7;
    /** The sending connection's consumer of the subscription closed (with a request id: the close waits for it). */
    public static final int TYPE_RELEASED = 8;
    /** A connection holding a subscription says so this often (a held record; its subscribe counts as the first). */
    public static final long HOLD_REFRESH_MILLIS = 1_000;
    /**
     * A store counts a connection as holding a subscription until this long after its last record of it, unless it
     * released it: a crashed holder blocks an unsubscribe elsewhere for at most this long.
     */
    public static final long HOLD_TIMEOUT_MILLIS = 3_500;
    public static final int FLAG_NO_LOCAL = 1;
    public static final int FLAG_SHARED = 2;
    /** Longest client id, subscription name and topic accepted. */
    public static final int MAX_NAME_BYTES = 1024;
    /** Longest selector accepted. */
    public static final int MAX_SELECTOR_BYTES = 4096;
    /** Producer streams one position record may name (a subscriber sends several records for more). */
    public static final int MAX_POSITION_ENTRIES = 2048;
    public static final int POSITION_ENTRY_LENGTH = PositionEntries.ENTRY_LENGTH;
    /** Requests go at the default priority. */
    public static final int PRIORITY = 4;

    private static final int TYPE_OFFSET = 1;
    private static final int REQUEST_ID_OFFSET = 2;
    private static final int CLIENT_ID_OFFSET = 10;

    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private int type;
    private long requestId;
    private String clientId;
    private String name;
    private String topic;
    private String selector;
    private int flags;
    private long incarnation;
    private long createdMillis;
    private final PositionEntries entries = new PositionEntries("durable position record");

    // ------------------------------------------------------------------------------------------------- writing

    /** Appends the common part of a record (numbered by the batcher: sequence 0); returns where it starts. */
    private static int begin(ByteBuf out, int producerId, int type, long requestId, String clientId, String name) {
        return begin(out, producerId, 0, type, requestId, clientId, name);
    }

    private static int begin(ByteBuf out, int producerId, long sequence, int type, long requestId, String clientId,
                             String name) {
        int start = ControlRecords.beginRecord(out, ControlRecords.DURABLE_TOPIC_UTF8, producerId, PRIORITY, sequence,
                System.currentTimeMillis());
        out.writeByte(VERSION).writeByte(type).writeLong(requestId);
        WireWriter.writeShortString(out, clientId);
        WireWriter.writeShortString(out, name);
        return start;
    }

    public static void writeSubscribe(ByteBuf out, int producerId, long requestId, String clientId, String name,
                                      String topic, String selector, boolean noLocal, boolean shared) {
        int start = begin(out, producerId, TYPE_SUBSCRIBE, requestId, clientId, name);
        WireWriter.writeShortString(out, topic);
        WireWriter.writeShortString(out, selector == null ? "" : selector);
        out.writeByte(flags(noLocal, shared));
        ControlRecords.endRecord(out, start);
    }

    /** A store's record of a subscription it keeps, numbered {@code sequence} by the store. */
    public static void writeDefinition(ByteBuf out, int producerId, long sequence, String clientId, String name,
                                       String topic, String selector, boolean noLocal, boolean shared,
                                       long incarnation, long createdMillis) {
        int start = begin(out, producerId, sequence, TYPE_DEFINITION, 0, clientId, name);
        WireWriter.writeShortString(out, topic);
        WireWriter.writeShortString(out, selector == null ? "" : selector);
        out.writeByte(flags(noLocal, shared));
        out.writeLong(incarnation).writeLong(createdMillis);
        ControlRecords.endRecord(out, start);
    }

    private static int flags(boolean noLocal, boolean shared) {
        return (noLocal ? FLAG_NO_LOCAL : 0) | (shared ? FLAG_SHARED : 0);
    }

    /** A store's record of a subscription removed (unsubscribed or replaced), numbered {@code sequence}. */
    public static void writeRemoved(ByteBuf out, int producerId, long sequence, String clientId, String name,
                                    long incarnation, long createdMillis) {
        int start = begin(out, producerId, sequence, TYPE_REMOVED, 0, clientId, name);
        out.writeLong(incarnation).writeLong(createdMillis);
        ControlRecords.endRecord(out, start);
    }

    public static void writeUnsubscribe(ByteBuf out, int producerId, long requestId, String clientId, String name) {
        ControlRecords.endRecord(out, begin(out, producerId, TYPE_UNSUBSCRIBE, requestId, clientId, name));
    }

    /** {@link #TYPE_HELD} (still held) or {@link #TYPE_RELEASED} (closed), the body ending after the name. */
    public static void writeHold(ByteBuf out, int producerId, boolean held, long requestId, String clientId,
                                 String name) {
        ControlRecords.endRecord(out, begin(out, producerId, held ? TYPE_HELD : TYPE_RELEASED, requestId, clientId,
                name));
    }

    /** Begins a position record; {@link #writePositionEntry} then {@link #endPosition} with the count. */
    public static int beginPosition(ByteBuf out, int producerId, long requestId, String clientId, String name) {
        return beginEntries(out, producerId, TYPE_POSITION, requestId, clientId, name);
    }

    /**
     * Begins a record of {@code type} {@link #TYPE_POSITION} or {@link #TYPE_DELIVERED}; {@link #writePositionEntry}
     * then {@link #endPosition} with the count.
     */
    public static int beginEntries(ByteBuf out, int producerId, int type, long requestId, String clientId,
                                   String name) {
        return beginEntries(out, producerId, 0, type, requestId, clientId, name);
    }

    /**
     * As above, numbered {@code sequence} by its sender (a store, which sends without a batcher: a peer catching up
     * gets the positions it missed this way).
     */
    public static int beginNumberedEntries(ByteBuf out, int producerId, long sequence, int type, String clientId,
                                           String name) {
        return beginEntries(out, producerId, sequence, type, 0, clientId, name);
    }

    private static int beginEntries(ByteBuf out, int producerId, long sequence, int type, long requestId,
                                    String clientId, String name) {
        if (type != TYPE_POSITION && type != TYPE_DELIVERED) {
            throw new IllegalArgumentException("not a record of entries: type " + type);
        }
        int start = begin(out, producerId, sequence, type, requestId, clientId, name);
        PositionEntries.begin(out);
        return start;
    }

    public static void writePositionEntry(ByteBuf out, long epoch, int producer, int priority, long sequence) {
        PositionEntries.write(out, epoch, producer, priority, sequence);
    }

    public static void endPosition(ByteBuf out, int start, int entryCount) {
        PositionEntries.end(out, start, entryCount);
    }

    // ------------------------------------------------------------------------------------------------- reading

    /**
     * Reads a record (its framing checked by the caller).
     *
     * @throws MalformedWireException when a length, count or type does not fit the record
     */
    public DurableSubscriptionFlyweight wrap(ByteBuf buffer, int recordOffset, int recordLength)
            throws MalformedWireException {
        header.wrap(buffer, recordOffset);
        int end = recordOffset + recordLength;
        int pos = ControlRecords.bodyOffset(header, "durable subscription record");
        if (end - pos < CLIENT_ID_OFFSET + 2 || buffer.getUnsignedByte(pos) != VERSION) {
            throw new MalformedWireException("durable subscription record of an unknown version or too short");
        }
        type = buffer.getUnsignedByte(pos + TYPE_OFFSET);
        requestId = buffer.getLong(pos + REQUEST_ID_OFFSET);
        pos += CLIENT_ID_OFFSET;
        clientId = string(buffer, pos, end, 0, MAX_NAME_BYTES, "client id");
        pos += 2 + buffer.getUnsignedShort(pos);
        name = string(buffer, pos, end, 1, MAX_NAME_BYTES, "subscription name");
        pos += 2 + buffer.getUnsignedShort(pos);
        topic = null;
        selector = null;
        flags = 0;
        incarnation = 0;
        createdMillis = 0;
        entries.clear();
        switch (type) {
            case TYPE_SUBSCRIBE -> {
                pos = readDefinition(buffer, pos, end);
                if (end - pos != 0) {
                    throw new MalformedWireException("durable subscribe record does not end with its flags");
                }
            }
            case TYPE_DEFINITION -> readIncarnation(buffer, readDefinition(buffer, pos, end), end, "definition");
            case TYPE_REMOVED -> readIncarnation(buffer, pos, end, "removed");
            case TYPE_POSITION, TYPE_DELIVERED -> entries.wrap(buffer, pos, end, MAX_POSITION_ENTRIES);
            case TYPE_UNSUBSCRIBE, TYPE_HELD, TYPE_RELEASED -> {
                if (pos != end) {
                    throw new MalformedWireException("durable record of type " + type + " has " + (end - pos)
                            + " bytes after the name");
                }
            }
            default -> throw new MalformedWireException("durable subscription record of unknown type " + type);
        }
        return this;
    }

    /** Topic, selector and flags; returns where they end. */
    private int readDefinition(ByteBuf buffer, int pos, int end) throws MalformedWireException {
        topic = string(buffer, pos, end, 1, MAX_NAME_BYTES, "topic");
        pos += 2 + buffer.getUnsignedShort(pos);
        String s = string(buffer, pos, end, 0, MAX_SELECTOR_BYTES, "selector");
        selector = s.isEmpty() ? null : s;
        pos += 2 + buffer.getUnsignedShort(pos);
        if (end - pos < 1) {
            throw new MalformedWireException("durable subscription record does not end with its flags");
        }
        flags = buffer.getUnsignedByte(pos);
        return pos + 1;
    }

    private void readIncarnation(ByteBuf buffer, int pos, int end, String what) throws MalformedWireException {
        if (end - pos != 16) {
            throw new MalformedWireException("durable " + what + " record ends with " + (end - pos)
                    + " bytes, not its incarnation and creation time (16)");
        }
        incarnation = buffer.getLong(pos);
        createdMillis = buffer.getLong(pos + 8);
    }

    private static String string(ByteBuf buffer, int pos, int end, int min, int max, String what)
            throws MalformedWireException {
        return ControlRecords.shortString(buffer, pos, end, min, max, "durable subscription record", what);
    }

    public int type() {
        return type;
    }

    public long requestId() {
        return requestId;
    }

    public String clientId() {
        return clientId;
    }

    public String name() {
        return name;
    }

    /** Send time of the record (the writer's clock): a subscribe's creation time. */
    public long sentMillis() {
        return header.timestamp();
    }

    /** Definition and removed only (0 otherwise). */
    public long incarnation() {
        return incarnation;
    }

    /** Definition and removed only (0 otherwise). */
    public long createdMillis() {
        return createdMillis;
    }

    /** Subscribe and definition only. */
    public String topic() {
        return topic;
    }

    /** Subscribe and definition only; null: none. */
    public String selector() {
        return selector;
    }

    /** Subscribe and definition only. */
    public boolean noLocal() {
        return (flags & FLAG_NO_LOCAL) != 0;
    }

    /** Subscribe and definition: a shared durable subscription. */
    public boolean shared() {
        return (flags & FLAG_SHARED) != 0;
    }

    /** Position and delivered only. */
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
